import { describe, expect, it } from 'vitest'
import {
  decodeHistogram,
  decodeInfo,
  decodeInterval,
  decodeLinkInfo,
  decodeReply,
  decodeResponse,
  decodeSnapshot,
  encodeCommand,
  readField,
  writeField,
} from '../../../host/src/protocol/messages.js'
import {
  COMMANDS,
  COUNTERS,
  HISTOGRAM_LAYOUT,
  HISTOGRAM_WORDS,
  INTERVAL_LAYOUT,
  INTERVAL_MAX_RECORDS,
  INTERVAL_RECORD_BYTES,
  REG,
  SAMPLE_WORDS,
  SNAPSHOT_LAYOUT,
  STATUS,
  type CommandName,
} from '../../../host/src/core/generated.js'
import type { IntervalRecord } from '../../../host/src/core/probe.js'
import {
  decodeCommand,
  encodeHistogram,
  encodeInterval,
  encodeReply,
  encodeResponse,
  encodeSnapshot,
  zeroCounters,
} from './device-codec.js'
import { SPEC_HISTOGRAM_LAYOUT } from '../../../host/src/core/latency-histogram.js'

describe('messages', () => {
  it('encodes every command per its layout and decodes it back', () => {
    for (const name of Object.keys(COMMANDS) as CommandName[]) {
      const def = COMMANDS[name]
      const args = Object.fromEntries(def.args.map((a, i) => [a.name, 0x10 + i]))
      const p = encodeCommand(name, args)
      expect(p.length).toBe(1 + def.argsBytes)
      expect(p[0]).toBe(def.id)
      const d = decodeCommand(p)
      expect(d).toMatchObject({ ok: true, cmd: def.id, name, args })
    }
  })
  it('writes PING nonce little-endian', () => {
    expect([...encodeCommand('PING', { nonce: 0x11223344 })]).toEqual([COMMANDS.PING.id, 0x44, 0x33, 0x22, 0x11])
    expect([...encodeCommand('START', { periodMs: 100 })]).toEqual([COMMANDS.START.id, 100, 0])
  })
  it('validates command arguments', () => {
    expect(() => encodeCommand('PING', {})).toThrowError(expect.objectContaining({ code: 'PS_REQUEST_INVALID' }))
    expect(() => encodeCommand('START', { periodMs: 70000 })).toThrowError(expect.objectContaining({ code: 'PS_REQUEST_INVALID' }))
    expect(() => encodeCommand('STOP', { x: 1 })).toThrowError(expect.objectContaining({ code: 'PS_REQUEST_INVALID' }))
    expect(decodeCommand(Buffer.from([COMMANDS.PING.id, 1]))).toMatchObject({ ok: false })
  })
  it('round-trips responses and INFO replies', () => {
    const info = {
      protocolVersion: 1,
      firmwareVersion: 0x0102,
      probeId: 0x50435343,
      regVersion: 1,
      clockHz: 250_000_000,
      counterCount: COUNTERS.length,
      streaming: 1,
      periodMs: 100,
      barLatencyCycles: 250,
    }
    const payload = encodeResponse(COMMANDS.INFO.id, STATUS.OK, 0xbeef, encodeReply('INFO', info))
    const r = decodeResponse(payload)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.value).toMatchObject({ cmd: COMMANDS.INFO.id, cmdName: 'INFO', status: 0, statusName: 'OK', requestSeq: 0xbeef })
    const i = decodeInfo(r.value.reply)
    expect(i).toEqual({ ok: true, value: { ...info, streaming: true } })
    expect(decodeInfo(Buffer.alloc(3))).toMatchObject({ ok: false, error: { code: 'PS_CMD_BAD_REPLY' } })
    expect(decodeResponse(Buffer.alloc(2))).toMatchObject({ ok: false })
    expect(decodeReply('PING', encodeReply('PING', { nonce: 7 }))).toEqual({ ok: true, value: { nonce: 7 } })
    expect(decodeResponse(encodeResponse(99, 77, 1)).ok && decodeResponse(encodeResponse(99, 77, 1))).toMatchObject({
      value: { cmdName: undefined, statusName: undefined },
    })
  })
  it('round-trips snapshots including large u64 counters', () => {
    const counters = zeroCounters()
    COUNTERS.forEach((c, i) => (counters[c.key] = i === 0 ? Number.MAX_SAFE_INTEGER : 0x1_0000_0000 * i + i))
    const snap = {
      index: 42,
      onDemand: true,
      enabled: false,
      counters,
      firmware: { rxFrames: 1, rxBadFrames: 2, rxOverflows: 3, unknownCommands: 4, txDropped: 5 },
    }
    const p = encodeSnapshot(snap)
    expect(p.length).toBe(SNAPSHOT_LAYOUT.bytes)
    expect(SNAPSHOT_LAYOUT.fields.counters.bytes).toBe(COUNTERS.length * 8)
    const d = decodeSnapshot(9, p, 1234)
    expect(d).toEqual({ ok: true, value: { ...snap, seq: 9, receivedAt: 1234 } })
    // counter i sits at counters.offset + 8*i
    const c2 = COUNTERS[2]!
    expect(readField(p, 'u64', SNAPSHOT_LAYOUT.fields.counters.offset + 8 * c2.index)).toBe(counters[c2.key])
    expect(decodeSnapshot(0, p.subarray(1))).toMatchObject({ ok: false, error: { code: 'PS_CMD_BAD_REPLY' } })
  })
  it('range-checks fields', () => {
    const b = Buffer.alloc(8)
    expect(() => writeField(b, 'u8', 0, 256)).toThrow()
    expect(() => writeField(b, 'u16', 0, -1)).toThrow()
    expect(() => writeField(b, 'u32', 0, 1.5)).toThrow()
    expect(() => writeField(b, 'x', 0, 1)).toThrow()
    writeField(b, 'u64', 0, 2 ** 40 + 3)
    expect(readField(b, 'u64', 0)).toBe(2 ** 40 + 3)
  })
})

const record = (n: number): IntervalRecord => ({
  ts: 2 ** 40 + n * 1000,
  cycles: 1000,
  mrdCount: 10 + n,
  mrdBytes: 1280 + n,
  cpldCount: 20 + n,
  cpldBytes: 2560 + n,
  occSum: 90_000 + n,
  occPeak: 200 + n,
  latSum: 2 ** 33 + n,
  latCount: 7 + n,
})

describe('HISTOGRAM frames', () => {
  const bins = Array.from({ length: HISTOGRAM_WORDS }, (_, k) => (k === 0 ? 2 ** 40 + 3 : k * 11))

  it('round-trips every bin as a u64 after the reason, kind, snapshot index and the bins’ layout', () => {
    const p = encodeHistogram({ reason: 'final', kind: 'first', snapshotIndex: 4_000_000_001, bins })
    expect(p.length).toBe(HISTOGRAM_LAYOUT.bytes)
    expect(p.readUInt8(HISTOGRAM_LAYOUT.fields.reason.offset)).toBe(2)
    expect(p.readUInt8(HISTOGRAM_LAYOUT.fields.kind.offset)).toBe(1) // HISTOGRAM_KINDS: last, first
    expect(p.readUInt32LE(HISTOGRAM_LAYOUT.fields.bins.offset + 4)).toBe(2 ** 8) // bin 0's high word
    // the layout as HIST_LAYOUT has it: log2 sub-bins, log2 first edge, bins
    expect(p.readUInt32LE(HISTOGRAM_LAYOUT.fields.subBinsLog2.offset)).toBe(3 | (3 << 8) | (88 << 16))
    expect(decodeHistogram(3, p, 9)).toEqual({
      ok: true,
      value: { seq: 3, reason: 'final', kind: 'first', snapshotIndex: 4_000_000_001, layout: SPEC_HISTOGRAM_LAYOUT, bins, receivedAt: 9 },
    })
    const last = decodeHistogram(4, encodeHistogram({ reason: 'periodic', kind: 'last', snapshotIndex: 1, bins }))
    expect(last.ok && last.value.kind).toBe('last')
  })

  it('decodes the bins of another firmware’s layout, as many as it says', () => {
    const layout = { subBins: 4, firstEdgeClocks: 16, bins: 26 }
    const few = Array.from({ length: 27 }, (_, k) => k)
    const p = encodeHistogram({ reason: 'periodic', kind: 'last', snapshotIndex: 2, layout, bins: few })
    expect(p.length).toBe(HISTOGRAM_LAYOUT.fields.bins.offset + 27 * 8)
    const d = decodeHistogram(1, p)
    expect(d.ok && d.value.layout).toEqual(layout)
    expect(d.ok && d.value.bins).toEqual(few)
  })

  it('rejects a wrong length, an unknown reason or kind and a layout that is none with a clear error', () => {
    const p = encodeHistogram({ reason: 'periodic', kind: 'last', snapshotIndex: 1, bins })
    const short = decodeHistogram(1, p.subarray(0, p.length - 1))
    expect(short.ok).toBe(false)
    if (!short.ok) expect(short.error.message).toMatch(/expected 722 for 88 \+ 1 bins/)
    const header = decodeHistogram(1, p.subarray(0, 5))
    expect(header.ok).toBe(false)
    if (!header.ok) expect(header.error.message).toMatch(/shorter than its header/)
    const kind = Buffer.from(p)
    kind.writeUInt8(2, HISTOGRAM_LAYOUT.fields.kind.offset)
    const k = decodeHistogram(1, kind)
    expect(k.ok).toBe(false)
    if (!k.ok) expect(k.error.message).toMatch(/kind 2 is not one of 0 \(last\), 1 \(first\)/)
    const reason = Buffer.from(p)
    reason.writeUInt8(7, HISTOGRAM_LAYOUT.fields.reason.offset)
    const r = decodeHistogram(1, reason)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toMatch(/reason 7/)
    const zero = Buffer.from(p)
    zero.writeUInt16LE(0, HISTOGRAM_LAYOUT.fields.binCount.offset)
    expect(decodeHistogram(1, zero).ok).toBe(false)
    const below = Buffer.from(p)
    below.writeUInt8(4, HISTOGRAM_LAYOUT.fields.subBinsLog2.offset) // 16 sub-bins from 8 clocks
    const b = decodeHistogram(1, below)
    expect(b.ok).toBe(false)
    if (!b.ok) expect(b.error.message).toMatch(/first edge 8 clocks/)
    expect(() => encodeHistogram({ reason: 'periodic', kind: 'last', snapshotIndex: 1, bins: [1] })).toThrow(/bins/)
  })
})

describe('INTERVAL frames', () => {
  it('round-trips a full frame, 64-bit fields split into their _LO/_HI words', () => {
    const records = Array.from({ length: INTERVAL_MAX_RECORDS }, (_, n) => record(n))
    const p = encodeInterval({ firstIndex: 4_000_000_000, dropped: 3, overflow: 9, records })
    expect(p.length).toBe(INTERVAL_LAYOUT.bytes + INTERVAL_MAX_RECORDS * INTERVAL_RECORD_BYTES)
    const d = decodeInterval(17, p, 5)
    expect(d).toEqual({ ok: true, value: { seq: 17, firstIndex: 4_000_000_000, dropped: 3, overflow: 9, records, receivedAt: 5 } })
  })

  it('lays a record out as the SMP_* registers, one u32 per word in register order', () => {
    const p = encodeInterval({ firstIndex: 0, dropped: 0, overflow: 0, records: [record(1)] })
    const word = (name: string) => p.readUInt32LE(INTERVAL_LAYOUT.bytes + 4 * (SAMPLE_WORDS as readonly string[]).indexOf(name))
    expect(word('TS_HI')).toBe(2 ** 8)
    expect(word('TS_LO')).toBe(1000)
    expect(word('LAT_SUM_HI')).toBe(2)
    expect(word('LAT_SUM_LO')).toBe(1)
    expect(word('OCC_PEAK')).toBe(201)
    // the record's words are the register window, in address order
    const offsets = SAMPLE_WORDS.map((w) => REG[`SMP_${w}` as keyof typeof REG])
    expect(offsets).toEqual(offsets.map((_, i) => REG.SMP_TS_LO + 4 * i))
  })

  it('decodes an empty batch and rejects bad lengths and counts with a clear error', () => {
    expect(decodeInterval(1, encodeInterval({ firstIndex: 5, dropped: 0, overflow: 0, records: [] }))).toMatchObject({
      ok: true,
      value: { firstIndex: 5, records: [] },
    })
    const p = encodeInterval({ firstIndex: 0, dropped: 0, overflow: 0, records: [record(0), record(1)] })
    const short = decodeInterval(1, p.subarray(0, p.length - 1))
    expect(short.ok).toBe(false)
    if (!short.ok) expect(short.error.message).toMatch(/for 2 records, expected/)
    expect(decodeInterval(1, p.subarray(0, 3)).ok).toBe(false)
    const lying = Buffer.from(p)
    lying[INTERVAL_LAYOUT.fields.count.offset] = INTERVAL_MAX_RECORDS + 1
    const r = decodeInterval(1, lying)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.code).toBe('PS_CMD_BAD_REPLY')
    expect(() =>
      encodeInterval({
        firstIndex: 0,
        dropped: 0,
        overflow: 0,
        records: Array.from({ length: INTERVAL_MAX_RECORDS + 1 }, () => record(0)),
      }),
    ).toThrow(/at most/)
  })

  it('decodes LINK_INFO replies', () => {
    const reply = encodeReply('LINK_INFO', {
      linkGen: 5,
      linkWidth: 16,
      tagBits: 10,
      filterEnabled: 1,
      mps: 256,
      mrrs: 512,
      rcb: 64,
      sampleDepth: 256,
      clockHz: 250_000_000,
      buildId: 0x20261123,
      samplePeriodCycles: 2500,
      filterBase: 2 ** 40,
      filterLimit: 2 ** 40 + 0xffff,
    })
    expect(decodeLinkInfo(reply)).toEqual({
      ok: true,
      value: {
        linkGen: 5,
        linkWidth: 16,
        tagBits: 10,
        filterEnabled: true,
        mps: 256,
        mrrs: 512,
        rcb: 64,
        sampleDepth: 256,
        clockHz: 250_000_000,
        buildId: 0x20261123,
        samplePeriodCycles: 2500,
        filterBase: 2 ** 40,
        filterLimit: 2 ** 40 + 0xffff,
      },
    })
    expect(decodeLinkInfo(reply.subarray(1)).ok).toBe(false)
  })
})
