// host/src/core/trace-report.ts: the report carries every record decoded, beside the paired reads
// whose record indices point into it.
import { describe, expect, it } from 'vitest'
import { decodeTraceRecord, pairReads, type Trace } from '../../../host/src/core/trace.js'
import { buildReport } from '../../../host/src/core/trace-report.js'

// a record's words: header DW0..DW3, clock low word, info (clock high, segment, stream, tap)
const words = (dw: number[], clock: number, cpl = false, seg = 0): number[] => [
  ...dw,
  clock % 2 ** 32,
  (((cpl ? 1 : 0) << 18) | (seg << 16) | Math.floor(clock / 2 ** 32)) >>> 0,
]
// MRd 4DW of 32 DW (128 B) at a 64-bit address; its CplD of 32 DW, Byte Count 128
const mrdWords = (clock: number, tag: number, addr: number) =>
  words([(0b001 << 29) | 32, (0x0100 << 16) | (tag << 8) | 0xff, Math.floor(addr / 2 ** 32), addr % 2 ** 32], clock)
const cpldWords = (clock: number, tag: number) =>
  words([(0b010 << 29) | (0b01010 << 24) | 32, (0x0001 << 16) | 128, (0x0100 << 16) | (tag << 8), 0], clock, true, 1)

const traceOf = (raw: number[][], triggerIndex: number): Trace => ({
  tap: 0,
  records: raw.map(decodeTraceRecord),
  words: raw,
  triggered: true,
  triggerIndex,
  full: false,
  lost: 0,
})

describe('buildReport', () => {
  const raw = [mrdWords(100, 3, 0x1_0000_0080), cpldWords(450, 3), cpldWords(460, 9)]
  const trace = traceOf(raw, 0)
  const counters = { latFirstCount: 1, latFirstSum: 350, latLastSum: 350, cpldBytes: 128 }
  const report = buildReport(
    { pattern: 'merged-aligned', bytes: 128, trigger: 'force', filter: null, depth: 4096, clockHz: 250e6 },
    trace,
    pairReads(trace.records),
    counters,
  )

  it('carries every record decoded, in record order, without the raw words', () => {
    expect(report.tlps).toHaveLength(3)
    expect(report.tlps[0]).toEqual({
      clock: 100,
      tap: 0,
      segment: 0,
      stream: 'request',
      kind: 'MRD',
      fmt: 1,
      type: 0,
      lengthDw: 32,
      tag: 3,
      requesterId: 0x0100,
      address: 0x1_0000_0080,
      requestedBytes: 128,
    })
    expect(report.tlps[1]).toEqual({
      clock: 450,
      tap: 0,
      segment: 1,
      stream: 'completion',
      kind: 'CPLD',
      fmt: 2,
      type: 0b01010,
      lengthDw: 32,
      tag: 3,
      requesterId: 0x0100,
      status: 0,
      byteCount: 128,
      lowerAddress: 0,
    })
    for (const r of report.tlps) expect(r).not.toHaveProperty('dw')
  })

  it('names records by their index in tlps: each read and each completion no read in the trace explains', () => {
    expect(report.reads).toHaveLength(1)
    expect(report.reads[0]!.records.map((i) => report.tlps[i]!.kind)).toEqual(['MRD', 'CPLD'])
    expect(report.reads[0]).toMatchObject({ tag: 3, end: 'done', firstLatencyClocks: 350, firstLatencyNs: 1400 })
    expect(report.unexpected).toEqual([])
    expect(report.earlier).toEqual([2]) // tag 9 was read before the first record
    expect(report.tlps[2]).toMatchObject({ kind: 'CPLD', tag: 9 })
  })

  it('survives JSON: what `trace --json` prints and the page reads back', () => {
    expect(JSON.parse(JSON.stringify(report))).toEqual(report)
  })
})
