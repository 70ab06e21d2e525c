// The TLP trace's exports (host/src/export/trace-pcapng.ts, trace-perfetto.ts) on a small
// synthetic trace: the pcapng's blocks read back by hand, the Perfetto slices per paired read.
import { describe, expect, it } from 'vitest'
import { pairReads } from '../../../host/src/core/trace.js'
import { LINKTYPE_USER1 } from '../../../host/src/export/pcapng.js'
import { clockNs, tracePcapng } from '../../../host/src/export/trace-pcapng.js'
import { tracePerfetto } from '../../../host/src/export/trace-perfetto.js'
import { CLOCK_HZ, syntheticTrace } from './trace-fixtures.js'

interface Block {
  type: number
  body: Buffer
}
const blocks = (b: Buffer): Block[] => {
  const out: Block[] = []
  for (let at = 0; at < b.length;) {
    const len = b.readUInt32LE(at + 4)
    expect(len % 4).toBe(0)
    expect(b.readUInt32LE(at + len - 4)).toBe(len)
    out.push({ type: b.readUInt32LE(at), body: b.subarray(at + 8, at + len - 4) })
    at += len
  }
  return out
}
/** options after `from` in a block body: code -> value */
const options = (body: Buffer, from: number): Map<number, Buffer> => {
  const m = new Map<number, Buffer>()
  for (let at = from; at < body.length;) {
    const code = body.readUInt16LE(at)
    const len = body.readUInt16LE(at + 2)
    if (code === 0) break
    m.set(code, body.subarray(at + 4, at + 4 + len))
    at += 4 + ((len + 3) & ~3)
  }
  return m
}

describe('trace pcapng', () => {
  const trace = syntheticTrace()
  const bs = blocks(tracePcapng(trace, CLOCK_HZ, 'test'))

  it('is a section, one interface on DLT_USER1 with ns timestamps named after the tap, one packet per record', () => {
    expect(bs.map((b) => b.type)).toEqual([0x0a0d0d0a, 1, ...Array(trace.records.length).fill(6)])
    expect(bs[0]!.body.readUInt32LE(0)).toBe(0x1a2b3c4d)
    const idb = bs[1]!
    expect(idb.body.readUInt16LE(0)).toBe(LINKTYPE_USER1)
    expect(LINKTYPE_USER1).toBe(148)
    const o = options(idb.body, 8)
    expect(o.get(2)!.toString()).toBe('tap 0')
    expect([...o.get(9)!]).toEqual([9])
  })

  it('each packet: the record words little-endian, its clock in ns, the direction by stream, the trigger commented', () => {
    bs.slice(2).forEach((b, i) => {
      const r = trace.records[i]!
      const ts = (BigInt(b.body.readUInt32LE(4)) << 32n) | BigInt(b.body.readUInt32LE(8))
      expect(ts).toBe(clockNs(r.clock, CLOCK_HZ))
      expect(b.body.readUInt32LE(12)).toBe(24)
      const data = b.body.subarray(20, 44)
      expect([0, 1, 2, 3, 4, 5].map((k) => data.readUInt32LE(k * 4))).toEqual(trace.words[i])
      const o = options(b.body, 44)
      expect(o.get(2)!.readUInt32LE(0)).toBe(r.stream === 'request' ? 2 : 1)
      expect(o.get(1)?.toString()).toBe(i === 1 ? 'trigger' : undefined)
    })
    expect(clockNs(2 ** 33 + 5, CLOCK_HZ)).toBe((2n ** 33n + 5n) * 4n)
  })
})

describe('trace Perfetto', () => {
  const trace = syntheticTrace()
  const pairing = pairReads(trace.records)
  const t = tracePerfetto(trace, pairing, { clockHz: CLOCK_HZ, pattern: 'test' })
  const us = (clock: number) => (clock / CLOCK_HZ) * 1e6

  it('one slice per paired read on its tag track, from the request to the completion that ended it', () => {
    const slices = t.traceEvents.filter((e) => e.ph === 'X')
    expect(slices).toHaveLength(2)
    const [a, b] = slices
    expect(a).toMatchObject({
      name: 'MRd 128 B',
      pid: 1,
      tid: 6,
      args: { tag: 5, bytes: 128, completions: 2, end: 'done', records: [0, 3, 5] },
    })
    expect(a!.ts).toBeCloseTo(us(1000), 9)
    expect(a!.dur).toBeCloseTo(us(1260) - us(1000), 9)
    expect(a!.args!['firstLatencyNs']).toBeCloseTo(1000, 6)
    expect(a!.args!['lastLatencyNs']).toBeCloseTo(1040, 6)
    expect(b).toMatchObject({ name: 'MRd 64 B', tid: 0x305 + 1, args: { address: '0x100002040', end: 'error', firstLatencyNs: null } })
    expect(b!.dur).toBeCloseTo(us(2 ** 33 + 5) - us(1001), 6)
  })

  it('names the process and each tag track, and marks the trigger and the completion of an earlier read', () => {
    const meta = t.traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [e.tid, e.args!['name']])
    expect(meta).toEqual([
      [6, 'tag 5'],
      [10, 'tag 9'],
      [0x306, 'tag 773'],
      [1026, 'trigger'],
    ])
    expect(t.traceEvents.find((e) => e.name === 'process_name')!.args).toEqual({ name: 'pcie-scope trace tap 0' })
    expect(t.traceEvents.find((e) => e.name === 'CPLD of an earlier read')).toMatchObject({ ph: 'i', tid: 10, args: { record: 4 } })
    const trig = t.traceEvents.find((e) => e.name === 'trigger' && e.ph === 'i')!
    expect(trig).toMatchObject({ tid: 1026, args: { record: 1, kind: 'MRD', tag: 0x305 } })
    expect(trig.ts).toBeCloseTo(us(1001), 9)
    expect(t.otherData).toMatchObject({ clockHz: CLOCK_HZ, pattern: 'test', tap: 0, records: 7 })
    expect(JSON.parse(JSON.stringify(t))).toEqual(t)
  })
})
