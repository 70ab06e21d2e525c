/**
 * The TLP trace's report (`pcie-scope trace`, `POST /api/trace`): the trigger grammar both take
 * (`parseTrigger`) and the paired reads of a trace as one JSON object (`buildReport`), latencies in
 * clocks and ns, beside the tracker's counters of the same run.
 */
import { PsError } from './errors.js'
import type { Counters } from './probe.js'
import type { Pairing, PairedRead, Trace, TraceRecord, TraceTriggerSettings } from './trace.js'
import type { PatternName } from './workload.js'
/** --trigger: what fires the trace. `force` fires it right after arming, before the workload starts. */
export type TriggerSpec = { force: true; text: string } | { force: false; text: string; settings: TraceTriggerSettings }

const ADDRESS = String.raw`(0x[0-9a-fA-F]+|\d+)`
const UNIT_NS: Record<string, number> = { ns: 1, us: 1000, µs: 1000, ms: 1e6 }

/**
 * `force`, `latency>T` (T in probe clocks, or with ns, us or ms; the first completion of a read
 * later than T fires it) or `addr=BASE:LIMIT` (a memory request inside [BASE, LIMIT] fires it).
 * Durations become clocks at `clockHz`, so the parse waits for the probe's INFO.
 */
export const parseTrigger = (value: string, clockHz: number): TriggerSpec => {
  const text = value.trim()
  if (/^force$/i.test(text)) return { force: true, text }
  const lat = /^latency\s*>\s*(\d+(?:\.\d+)?)\s*(ns|us|µs|ms)?$/i.exec(text)
  if (lat) {
    const n = Number(lat[1])
    const unit = lat[2]?.toLowerCase()
    const clocks = unit === undefined ? n : Math.round((n * UNIT_NS[unit]! * clockHz) / 1e9)
    if (!Number.isSafeInteger(clocks) || clocks > 0xffff_ffff)
      throw new PsError('PS_USAGE', `--trigger ${text}: the latency must be a whole number of clocks up to 2^32 - 1`)
    return { force: false, text, settings: { conditions: ['LATENCY'], latencyClocks: clocks } }
  }
  const addr = new RegExp(String.raw`^addr\s*=\s*${ADDRESS}\s*:\s*${ADDRESS}$`, 'i').exec(text)
  if (addr) {
    const base = Number(addr[1])
    const limit = Number(addr[2])
    if (!Number.isSafeInteger(base) || !Number.isSafeInteger(limit) || limit < base)
      throw new PsError('PS_USAGE', `--trigger ${text}: expected BASE:LIMIT with BASE <= LIMIT below 2^53`)
    return { force: false, text, settings: { conditions: ['ADDR'], base, limit } }
  }
  throw new PsError('PS_USAGE', `--trigger ${text}: expected force, latency>T (T in clocks, or with ns/us/ms) or addr=BASE:LIMIT`)
}

/** One paired read as the output shows it: latencies in clocks and in ns. */
export interface TraceReadRow {
  /** the request's record index */
  record: number
  /** the request's and its completions' record indices */
  records: number[]
  tag: number
  requesterId: number
  address: number
  requestedBytes: number
  bytes: number
  completions: number
  end: PairedRead['end']
  firstLatencyClocks: number | null
  lastLatencyClocks: number | null
  firstLatencyNs: number | null
  lastLatencyNs: number | null
}

/**
 * One trace record as the report carries it: every field `decodeTraceRecord` reads, without the
 * raw header words (`pcie-scope trace --out` keeps those in trace.json's `words`), so that a
 * reader of the report (the page's trace view) shows each TLP's fields without decoding again.
 */
export type TraceReportRecord = Omit<TraceRecord, 'dw'>

export interface TraceReport {
  pattern: PatternName
  bytes: number
  trigger: string
  tap: number
  depth: number
  clockHz: number
  records: number
  triggered: boolean
  /** the trigger record's index, null when the trigger never fired */
  triggerIndex: number | null
  triggerRecord: { kind: string; clock: number; tag: number; address: number | null } | null
  full: boolean
  lost: number
  reads: TraceReadRow[]
  /** every record decoded, oldest first: `tlps[i]` is record i (the indices `reads` and `unexpected` name) */
  tlps: TraceReportRecord[]
  unexpected: number[]
  /** the trace's reads that completed, summed as the tracker sums its own */
  paired: { done: number; firstLatencySumClocks: number; lastLatencySumClocks: number; bytes: number }
  /** the tracker's counters over the whole run (tap 0) */
  tracker: { reads: number; firstLatencySumClocks: number; lastLatencySumClocks: number; cpldBytes: number }
}

/** clocks as ns at clockHz, to 0.1 ns; undefined is null */
export const ns = (clocks: number | undefined, clockHz: number): number | null =>
  clocks === undefined ? null : Math.round((clocks * 1e10) / clockHz) / 10

const describeRecord = (r: TraceRecord) => ({ kind: r.kind, clock: r.clock, tag: r.tag, address: r.address ?? null })

/** A record without its raw words; fields a kind lacks (a completion's address) stay absent. */
export const reportRecord = ({ dw: _words, ...fields }: TraceRecord): TraceReportRecord => fields

export const buildReport = (
  a: { pattern: PatternName; bytes: number; trigger: string; depth: number; clockHz: number },
  trace: Trace,
  pairing: Pairing,
  /** the tracker's counters over the run (a snapshot's counters after a clear, or a run's deltas) */
  counters: Pick<Counters, 'latFirstCount' | 'latFirstSum' | 'latLastSum' | 'cpldBytes'>,
): TraceReport => {
  const done = pairing.reads.filter((r) => r.end === 'done')
  const tr = trace.triggerIndex === undefined ? undefined : trace.records[trace.triggerIndex]
  return {
    ...a,
    tap: trace.tap,
    records: trace.records.length,
    triggered: trace.triggered,
    triggerIndex: trace.triggerIndex ?? null,
    triggerRecord: tr ? describeRecord(tr) : null,
    full: trace.full,
    lost: trace.lost,
    reads: pairing.reads.map((r) => ({
      record: r.records[0]!,
      records: r.records,
      tag: r.tag,
      requesterId: r.requesterId,
      address: r.address,
      requestedBytes: r.requestedBytes,
      bytes: r.bytes,
      completions: r.completions,
      end: r.end,
      firstLatencyClocks: r.firstLatency ?? null,
      lastLatencyClocks: r.lastLatency ?? null,
      firstLatencyNs: ns(r.firstLatency, a.clockHz),
      lastLatencyNs: ns(r.lastLatency, a.clockHz),
    })),
    tlps: trace.records.map(reportRecord),
    unexpected: pairing.unexpected,
    paired: {
      done: done.length,
      firstLatencySumClocks: done.reduce((s, r) => s + (r.firstLatency ?? 0), 0),
      lastLatencySumClocks: done.reduce((s, r) => s + (r.lastLatency ?? 0), 0),
      bytes: done.reduce((s, r) => s + r.bytes, 0),
    },
    tracker: {
      reads: counters.latFirstCount,
      firstLatencySumClocks: counters.latFirstSum,
      lastLatencySumClocks: counters.latLastSum,
      cpldBytes: counters.cpldBytes,
    },
  }
}
