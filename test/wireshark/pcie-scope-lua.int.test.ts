/**
 * The generated dissector (wireshark/pcie_scope.lua, spec/lib/emit-lua.ts) over a pcapng of a
 * clean link: every frame type, every command with its arguments and its OK reply (bodies
 * included), INTERVAL frames from no record to a full frame, histograms and tap frames. tshark
 * must flag none of them; a frame cut short must still be flagged, so the check can fail.
 */
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openRecording } from '../../host/src/recording/catalog.js'
import { exportPcapng } from '../../host/src/export/pcapng.js'
import { readRecords } from '../../host/src/recording/reader.js'
import { Recorder } from '../../host/src/recording/recorder.js'
import {
  COMMANDS,
  FRAME_TYPE,
  HISTOGRAM_WORDS,
  INTERVAL_MAX_RECORDS,
  STATUS,
  TRACE_LAYOUT,
  TRACE_MAX_RECORDS,
  TRACE_RECORD_BYTES,
  type CommandName,
  type FrameTypeName,
} from '../../host/src/core/generated.js'
import type { IntervalRecord } from '../../host/src/core/probe.js'
import { buildRawFrame } from '../../host/src/protocol/frame.js'
import { encodeCommand } from '../../host/src/protocol/messages.js'
import { newWriter, removeRoots, snap, tempRoot } from '../host/recording/fixtures.js'
import {
  encodeHistogram,
  encodeInterval,
  encodeReply,
  encodeResponse,
  encodeSnapshot,
  encodeTapHistogram,
  encodeTapSnapshot,
} from '../host/protocol/device-codec.js'

afterAll(removeRoots)

const DISSECTOR = join(import.meta.dirname, '../../wireshark/pcie_scope.lua')

const RECORD: IntervalRecord = {
  ts: 0x1_0000_0010,
  cycles: 2500,
  mrdCount: 3,
  mrdBytes: 384,
  cpldCount: 3,
  cpldBytes: 384,
  occSum: 750,
  occPeak: 2,
  latSum: 600,
  latCount: 3,
}

/** Each command's arguments at their defaults (or their minimum), so encodeCommand accepts them. */
const argsOf = (name: CommandName): Record<string, number> =>
  Object.fromEntries(
    COMMANDS[name].args.map((a) => {
      const r = a as { name: string; default?: number; min?: number }
      return [r.name, r.default ?? r.min ?? 1]
    }),
  )

/** The frames of a clean link, each with its type, in the order they are written. */
function cleanFrames(): { type: FrameTypeName; dir: 'tx' | 'rx'; payload: Buffer }[] {
  const out: { type: FrameTypeName; dir: 'tx' | 'rx'; payload: Buffer }[] = []
  let seq = 0
  for (const name of Object.keys(COMMANDS) as CommandName[]) {
    const sent = seq++
    out.push({ type: 'COMMAND', dir: 'tx', payload: encodeCommand(name, argsOf(name)) })
    out.push({ type: 'RESPONSE', dir: 'rx', payload: encodeResponse(COMMANDS[name].id, STATUS.OK, sent, encodeReply(name, {})) })
  }
  out.push({ type: 'RESPONSE', dir: 'rx', payload: encodeResponse(COMMANDS.START.id, STATUS.BAD_ARGUMENT, seq) })
  const s = snap(3, { timestamp: 1_000_000, mrd128: 10, mrdBytes: 1280 })
  out.push({ type: 'SNAPSHOT', dir: 'rx', payload: encodeSnapshot(s) })
  for (const n of [0, 1, 7, INTERVAL_MAX_RECORDS])
    out.push({
      type: 'INTERVAL',
      dir: 'rx',
      payload: encodeInterval({ firstIndex: 10, dropped: 0, overflow: 0, records: Array<IntervalRecord>(n).fill(RECORD) }),
    })
  const body = { reason: 'periodic', snapshotIndex: 3, bins: Array<number>(HISTOGRAM_WORDS).fill(1) } as const
  out.push({ type: 'HISTOGRAM', dir: 'rx', payload: encodeHistogram({ ...body, kind: 'last' }) })
  out.push({ type: 'HISTOGRAM', dir: 'rx', payload: encodeHistogram({ ...body, kind: 'first' }) })
  out.push({ type: 'TAP_SNAPSHOT', dir: 'rx', payload: encodeTapSnapshot({ tap: 'hostSide', snapshotIndex: 3, counters: s.counters }) })
  out.push({ type: 'TAP_HISTOGRAM', dir: 'rx', payload: encodeTapHistogram({ ...body, kind: 'last', tap: 'hostSide' }) })
  for (const n of [0, 1, TRACE_MAX_RECORDS]) out.push({ type: 'TRACE', dir: 'rx', payload: tracePayload(n) })
  return out
}

/** A TRACE frame of n records (records 0..n-1 of a trace of 100, every word distinct). */
function tracePayload(n: number): Buffer {
  const f = TRACE_LAYOUT.fields
  const p = Buffer.alloc(TRACE_LAYOUT.bytes + n * TRACE_RECORD_BYTES)
  p.writeUInt8(n, f.count.offset)
  p.writeUInt32LE(100, f.total.offset)
  p.writeUInt32LE(4, f.triggerIndex.offset)
  for (let i = 0; i < n * (TRACE_RECORD_BYTES / 4); i++) p.writeUInt32LE(0x10 * i + 1, TRACE_LAYOUT.bytes + 4 * i)
  return p
}

async function pcapng(frames: { type: FrameTypeName; dir: 'tx' | 'rx'; payload: Buffer }[], name: string): Promise<string> {
  const dir = join(tempRoot(), name)
  const rec = new Recorder(newWriter(dir))
  frames.forEach((f, i) => rec.frame(f.dir, 1_700_000_000_000 + i, buildRawFrame(FRAME_TYPE[f.type], i, f.payload)))
  rec.close()
  const chunks: Buffer[] = []
  for await (const c of exportPcapng(await openRecording(dir), readRecords(dir))) chunks.push(c)
  const file = join(tempRoot(), `${name}.pcapng`)
  writeFileSync(file, Buffer.concat(chunks))
  return file
}

/** `tshark -V` with the dissector: every packet's whole tree, expert infos included. */
function tsharkVerbose(file: string): string {
  const r = spawnSync('tshark', ['-X', `lua_script:${DISSECTOR}`, '-r', file, '-V'], { encoding: 'utf8', timeout: 120_000 })
  if (r.error) throw new Error(`tshark did not run (apt-get install tshark): ${r.error.message}`)
  expect(r.status, r.stderr).toBe(0)
  expect(r.stderr).not.toMatch(/Lua: Error|lua_script/i)
  return r.stdout
}

/** One `-V` block per packet: the lines from its "Frame N:" header to the next. */
const packets = (verbose: string): string[] => verbose.split(/^(?=Frame \d+:)/m).filter((p) => p.startsWith('Frame '))

describe('wireshark/pcie_scope.lua on a clean link', () => {
  const frames = cleanFrames()
  let shown: string[]
  beforeAll(async () => {
    shown = packets(tsharkVerbose(await pcapng(frames, 'clean')))
  })

  it('holds every frame type, and every command with its reply', () => {
    expect(new Set(frames.map((f) => f.type))).toEqual(new Set(Object.keys(FRAME_TYPE)))
    expect(frames.filter((f) => f.type === 'COMMAND')).toHaveLength(Object.keys(COMMANDS).length)
    expect(shown).toHaveLength(frames.length)
    for (const p of shown) expect(p).toContain('CRC good: True')
  })

  it('flags none of them Malformed: replies with a body and INTERVAL frames of any count included', () => {
    const flagged = shown.flatMap((p, i) =>
      p
        .split('\n')
        .filter((l) => /Malformed|Expert Info/.test(l))
        .map((l) => `${frames[i]!.type} #${i}: ${l.trim()}`),
    )
    expect(flagged).toEqual([])
  })

  it('shows a trace frame’s header and each record’s words', () => {
    const i = frames.findLastIndex((f) => f.type === 'TRACE')
    expect(shown[i]).toMatch(/trace total: 100/)
    expect(shown[i]!.match(/TRC_REC_DW0: 0x/g)).toHaveLength(TRACE_MAX_RECORDS)
  })

  it('shows a histogram’s layout and every bin, the payload as long as binCount says', () => {
    const i = frames.findIndex((f) => f.type === 'TAP_HISTOGRAM')
    expect(shown[i]).toMatch(/tap histogram subBinsLog2: 3/)
    expect(shown[i]).toMatch(/tap histogram firstEdgeLog2: 3/)
    expect(shown[i]).toMatch(/tap histogram binCount: 88/)
    expect(shown[i]!.match(/Latency bin \(the overflow bin last\): 1$/gm)).toHaveLength(89)
  })

  it('still flags a payload cut short, a reply shorter than its command says, and one longer', async () => {
    const ok = frames.find((f) => f.type === 'SNAPSHOT')!
    const histogram = frames.find((f) => f.type === 'HISTOGRAM')!
    const reply = encodeResponse(COMMANDS.INFO.id, STATUS.OK, 1, encodeReply('INFO', {}))
    const bad = await pcapng(
      [
        { ...ok, payload: ok.payload.subarray(0, ok.payload.length - 4) },
        { type: 'RESPONSE', dir: 'rx', payload: reply.subarray(0, reply.length - 1) },
        { type: 'RESPONSE', dir: 'rx', payload: Buffer.concat([reply, Buffer.alloc(1)]) },
        { type: 'RESPONSE', dir: 'rx', payload: reply.subarray(0, 2) },
        {
          type: 'INTERVAL',
          dir: 'rx',
          payload: encodeInterval({ firstIndex: 0, dropped: 0, overflow: 0, records: [RECORD] }).subarray(0, 20),
        },
        // a histogram missing its overflow bin: fewer bins than its binCount says
        { ...histogram, payload: histogram.payload.subarray(0, histogram.payload.length - 8) },
      ],
      'cut',
    )
    const flagged = packets(tsharkVerbose(bad)).map((p) => /Expert Info \(Warning\/Malformed\)/.test(p))
    expect(flagged).toEqual([true, true, true, true, true, true])
  })
})
