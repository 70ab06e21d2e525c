/**
 * A synthetic TLP trace for the trace view's tests: raw TRC_REC_* words of MRds on 256 tags
 * (32..256 B and an odd 16 B, 256-B reads answered by two CplDs), a Cpl with status UR now and
 * then, one unexpected completion (on tag 7, after its first read was answered); decoded, paired and reported by the host's own code
 * (core/trace.ts, core/trace-report.ts), exactly `records` records long (reads cut by the end stay open).
 */
import { decodeTraceRecord, pairReads, type Trace } from '../../host/src/core/trace.js'
import { buildReport, type TraceReport } from '../../host/src/core/trace-report.js'

export const CLOCK_HZ = 250_000_000
const RID = 0x0100
const BASE = 0x1_0000_0000
const SIZES = [32, 64, 96, 128, 256, 16]

const info = (clock: number, completion: boolean, segment: number) =>
  (((completion ? 1 : 0) << 18) | (segment << 16) | Math.floor(clock / 2 ** 32)) >>> 0

const mrd = (clock: number, tag: number, bytes: number, addr: number): number[] => [
  ((0b001 << 29) | (bytes / 4)) >>> 0,
  ((RID << 16) | (tag << 8) | 0xff) >>> 0,
  Math.floor(addr / 2 ** 32),
  addr % 2 ** 32,
  clock % 2 ** 32,
  info(clock, false, 0),
]

const cpl = (clock: number, tag: number, bytes: number, byteCount: number, status = 0): number[] => [
  ((status === 0 ? 0b010 << 29 : 0) | (0b01010 << 24) | (status === 0 ? bytes / 4 : 0)) >>> 0,
  ((0x0001 << 16) | (status << 13) | (byteCount & 0xfff)) >>> 0,
  ((RID << 16) | (tag << 8)) >>> 0,
  0,
  clock % 2 ** 32,
  info(clock, true, 1),
]

export interface SyntheticTrace {
  report: TraceReport
  words: number[][]
}

/** A trace of exactly `records` records, its trigger at record `triggerAt` (default: the middle). */
export function syntheticTrace(records: number, triggerAt = Math.floor(records / 2)): SyntheticTrace {
  // tag 7's first read (k = 7) is requested at clock 114 and answered by clock 473; its next at 626
  const all: { clock: number; order: number; words: number[] }[] = [{ clock: 500, order: 0, words: cpl(500, 7, 64, 64) }]
  for (let k = 0; all.length < records + 4; k++) {
    const clock = 100 + 2 * k
    const tag = k % 256
    const bytes = SIZES[k % SIZES.length]!
    const latency = 300 + ((k * 37) % 200) // below 512 clocks: a tag is free again before it is reused
    all.push({ clock, order: 1, words: mrd(clock, tag, bytes, BASE + k * 256) })
    if (k % 997 === 500) all.push({ clock: clock + latency, order: 0, words: cpl(clock + latency, tag, 0, bytes, 1) })
    else if (bytes === 256) {
      all.push({ clock: clock + latency, order: 0, words: cpl(clock + latency, tag, 128, 256) })
      all.push({ clock: clock + latency + 8, order: 0, words: cpl(clock + latency + 8, tag, 128, 128) })
    } else all.push({ clock: clock + latency, order: 0, words: cpl(clock + latency, tag, bytes, bytes) })
  }
  all.sort((a, b) => a.clock - b.clock || a.order - b.order)
  const words = all.slice(0, records).map((r) => r.words)
  const decoded = words.map(decodeTraceRecord)
  const trace: Trace = { tap: 0, records: decoded, words, triggered: true, triggerIndex: triggerAt, full: false, lost: 0 }
  const pairing = pairReads(decoded)
  const done = pairing.reads.filter((r) => r.end === 'done')
  const report = buildReport(
    { pattern: 'merged-aligned', bytes: records * 64, trigger: 'force', filter: null, depth: 4096, clockHz: CLOCK_HZ },
    trace,
    pairing,
    {
      latFirstCount: done.length,
      latFirstSum: done.reduce((s, r) => s + r.firstLatency!, 0),
      latLastSum: done.reduce((s, r) => s + r.lastLatency!, 0),
      cpldBytes: done.reduce((s, r) => s + r.bytes, 0),
    },
  )
  return { report, words }
}
