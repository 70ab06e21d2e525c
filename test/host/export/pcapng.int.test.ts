/**
 * pcapng export, read back by tshark with the generated dissector (wireshark/pcie_scope.lua):
 * frames built by the host's own encoders are recorded as `frame` records, exported, and every
 * field tshark shows is checked against what was encoded.
 */
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openRecording } from '../../../host/src/recording/catalog.js'
import { exportPcapng, LINKTYPE_USER0 } from '../../../host/src/export/pcapng.js'
import { readRecords } from '../../../host/src/recording/reader.js'
import { Recorder } from '../../../host/src/recording/recorder.js'
import { COMMANDS, FRAME_TYPE, STATUS } from '../../../host/src/core/generated.js'
import type { IntervalRecord } from '../../../host/src/core/probe.js'
import { buildRawFrame } from '../../../host/src/protocol/frame.js'
import { encodeCommand } from '../../../host/src/protocol/messages.js'
import { newWriter, removeRoots, snap, tempRoot } from '../recording/fixtures.js'
import { encodeInterval, encodeReply, encodeResponse, encodeSnapshot } from '../protocol/device-codec.js'

afterAll(removeRoots)

const root = join(import.meta.dirname, '../../..')
const DISSECTOR = join(root, 'wireshark/pcie_scope.lua')

const tshark = (file: string, args: string[]): string => {
  const r = spawnSync('tshark', ['-X', `lua_script:${DISSECTOR}`, '-r', file, ...args], { encoding: 'utf8', timeout: 120_000 })
  if (r.error) throw new Error(`tshark did not run (apt-get install tshark): ${r.error.message}`)
  expect(r.status, r.stderr).toBe(0)
  expect(r.stderr).not.toMatch(/Lua: Error|lua_script/i)
  return r.stdout
}

/** tshark's `-T fields` output: one row per packet, the fields in the order asked. */
const fields = (file: string, names: string[], extra: string[] = []): string[][] =>
  tshark(file, [...extra, '-T', 'fields', '-E', 'separator=|', ...names.flatMap((n) => ['-e', n])])
    .trimEnd()
    .split('\n')
    .map((l) => l.split('|'))

const SAMPLE: IntervalRecord = {
  ts: 0x1_2345_6789,
  cycles: 2000,
  mrdCount: 12,
  mrdBytes: 1536,
  cpldCount: 11,
  cpldBytes: 1408,
  occSum: 24_000,
  occPeak: 13,
  latSum: 2750,
  latCount: 11,
}

/** A recording of six frames: PING out, its reply, a SNAPSHOT, an INTERVAL, INFO's reply, and a frame with a broken CRC. */
const recordFrames = async (): Promise<string> => {
  const dir = join(tempRoot(), 'frames')
  const rec = new Recorder(newWriter(dir))
  const t0 = 1_700_000_000_000
  rec.frame('tx', t0, buildRawFrame(FRAME_TYPE.COMMAND, 7, encodeCommand('PING', { nonce: 0xcafe })))
  rec.frame(
    'rx',
    t0 + 1,
    buildRawFrame(FRAME_TYPE.RESPONSE, 40, encodeResponse(COMMANDS.PING.id, STATUS.OK, 7, encodeReply('PING', { nonce: 0xcafe }))),
  )
  const s = snap(5, { timestamp: 123_456_789, mrd128: 512, mrdBytes: 65_536 }, { enabled: true })
  rec.frame('rx', t0 + 2, buildRawFrame(FRAME_TYPE.SNAPSHOT, 41, encodeSnapshot(s)))
  rec.frame(
    'rx',
    t0 + 3,
    buildRawFrame(FRAME_TYPE.INTERVAL, 42, encodeInterval({ firstIndex: 100, dropped: 2, overflow: 0, records: [SAMPLE] })),
  )
  rec.frame('rx', t0 + 4, buildRawFrame(FRAME_TYPE.RESPONSE, 43, encodeResponse(COMMANDS.START.id, STATUS.BAD_ARGUMENT, 8)))
  const bad = buildRawFrame(FRAME_TYPE.SNAPSHOT, 44, encodeSnapshot(s))
  bad[10]! ^= 0xff
  rec.frame('rx', t0 + 5, bad)
  rec.close()
  const recording = await openRecording(dir)
  const file = join(tempRoot(), 'link.pcapng')
  const chunks: Buffer[] = []
  for await (const c of exportPcapng(recording, readRecords(dir))) chunks.push(c)
  writeFileSync(file, Buffer.concat(chunks))
  return file
}

const FIELDS = [
  'frame.time_epoch',
  'frame.packet_flags_direction',
  'frame.encap_type',
  '_ws.col.Info',
  'pcie_scope.type',
  'pcie_scope.seq',
  'pcie_scope.crc_ok',
  '_ws.expert.message',
  'pcie_scope.command.cmd',
  'pcie_scope.ping.arg.nonce',
  'pcie_scope.response.cmd',
  'pcie_scope.response.status',
  'pcie_scope.response.request_seq',
  'pcie_scope.ping.reply.nonce',
  'pcie_scope.snapshot.index',
  'pcie_scope.counter.timestamp',
  'pcie_scope.counter.mrd_128',
  'pcie_scope.counter.mrd_bytes',
  'pcie_scope.interval.count',
  'pcie_scope.interval.first_index',
  'pcie_scope.interval.dropped',
  'pcie_scope.sample.ts_lo',
  'pcie_scope.sample.ts_hi',
  'pcie_scope.sample.mrd_bytes',
  'pcie_scope.sample.occ_peak',
  'pcie_scope.sample.lat_count',
] as const
type Row = Record<(typeof FIELDS)[number], string>

describe('pcapng export + the generated Wireshark dissector', () => {
  let file: string
  let rows: Row[]
  beforeAll(async () => {
    file = await recordFrames()
    rows = fields(file, [...FIELDS]).map((r) => Object.fromEntries(FIELDS.map((f, i) => [f, r[i] ?? ''])) as Row)
  })
  const col = (f: (typeof FIELDS)[number]) => rows.map((r) => r[f])

  it('tshark reads every frame on DLT_USER0 with its time, direction, type and sequence', () => {
    expect(rows).toHaveLength(6)
    expect(col('frame.time_epoch').map((t) => Math.round(Number(t) * 1000))).toEqual([0, 1, 2, 3, 4, 5].map((i) => 1_700_000_000_000 + i))
    // epb_flags: outbound (2) for the host's command, inbound (1) for the device's frames
    expect(col('frame.packet_flags_direction').map(Number)).toEqual([2, 1, 1, 1, 1, 1])
    expect(col('frame.encap_type')).toEqual(Array(6).fill('45')) // WTAP_ENCAP_USER0: Wireshark's name for LINKTYPE 147
    expect(LINKTYPE_USER0).toBe(147)
    expect(col('pcie_scope.type').map(Number)).toEqual([1, 0x81, 0x82, 0x83, 0x81, 0x82])
    expect(col('pcie_scope.seq').map(Number)).toEqual([7, 40, 41, 42, 43, 44])
  })

  it('commands and responses: names from the spec, arguments, replies and statuses', () => {
    expect([rows[0]!['pcie_scope.command.cmd'], rows[0]!['pcie_scope.ping.arg.nonce']]).toEqual(['1', '51966'])
    const r = rows[1]!
    expect([
      r['pcie_scope.response.cmd'],
      r['pcie_scope.response.status'],
      r['pcie_scope.response.request_seq'],
      r['pcie_scope.ping.reply.nonce'],
    ]).toEqual(['1', '0', '7', '51966'])
    const rejected = rows[4]!
    expect([rejected['pcie_scope.response.cmd'], rejected['pcie_scope.response.status']]).toEqual([
      String(COMMANDS.START.id),
      String(STATUS.BAD_ARGUMENT),
    ])
    expect(rows[0]!['_ws.col.Info']).toBe('COMMAND seq 7 PING')
    expect(rows[4]!['_ws.col.Info']).toBe('RESPONSE seq 43 START BAD_ARGUMENT')
  })

  it('SNAPSHOT: every counter as a 64-bit field; INTERVAL: header and each record word', () => {
    const s = rows[2]!
    expect([
      s['pcie_scope.snapshot.index'],
      s['pcie_scope.counter.timestamp'],
      s['pcie_scope.counter.mrd_128'],
      s['pcie_scope.counter.mrd_bytes'],
    ]).toEqual(['5', '123456789', '512', '65536'])
    const i = rows[3]!
    expect([
      i['pcie_scope.interval.count'],
      i['pcie_scope.interval.first_index'],
      i['pcie_scope.interval.dropped'],
      i['pcie_scope.sample.ts_lo'],
      i['pcie_scope.sample.ts_hi'],
      i['pcie_scope.sample.mrd_bytes'],
      i['pcie_scope.sample.occ_peak'],
      i['pcie_scope.sample.lat_count'],
    ]).toEqual(['1', '100', '2', String(0x2345_6789), '1', '1536', '13', '11'])
  })

  it('a frame whose CRC fails is shown as such, with an expert error, and not dissected further', () => {
    expect(col('pcie_scope.crc_ok')).toEqual(['1', '1', '1', '1', '1', '0'])
    expect(rows[5]!['_ws.expert.message']).toBe('CRC mismatch')
    expect(rows[5]!['pcie_scope.snapshot.index']).toBe('')
    expect(rows[5]!['_ws.col.Info']).toBe('SNAPSHOT seq 44 [CRC mismatch]')
  })

  it('the same through the user DLT table, as the dissector header says', () => {
    const uat = ['-o', 'uat:user_dlts:"User 0 (DLT=147)","pcie_scope","0","","0",""']
    expect(fields(file, ['pcie_scope.seq'], uat).map((r) => r[0])).toEqual(['7', '40', '41', '42', '43', '44'])
  })
})
