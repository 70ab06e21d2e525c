/**
 * The TLP trace's report (`pcie-scope trace`, `POST /api/trace`): the paired reads of a trace as
 * one JSON object (`buildReport`), latencies in clocks and ns, beside the tracker's counters of
 * the same run and tap. The trigger and filter grammar both take is core/trace-trigger.ts.
 */
import type { Counters } from './probe.js'
import type { Pairing, PairedRead, Trace, TraceRecord } from './trace.js'
import type { PatternName } from './workload.js'

export { parseFilter, parseTrigger, type FilterSpec, type TriggerSpec } from './trace-trigger.js'
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
  /** the filter's text, null when everything was recorded */
  filter: string | null
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
  /** every record decoded, oldest first: `tlps[i]` is record i (the indices `reads`, `unexpected` and `earlier` name) */
  tlps: TraceReportRecord[]
  unexpected: number[]
  /** completions of reads requested before the first record (no read on their tag in the trace yet) */
  earlier: number[]
  /** the trace's reads that completed, summed as the tracker sums its own */
  paired: { done: number; firstLatencySumClocks: number; lastLatencySumClocks: number; bytes: number }
  /** the tracker's counters of the trace's tap over the whole run; null when that tap's counters did not come */
  tracker: { reads: number; firstLatencySumClocks: number; lastLatencySumClocks: number; cpldBytes: number } | null
}

/** clocks as ns at clockHz, to 0.1 ns; undefined is null */
export const ns = (clocks: number | undefined, clockHz: number): number | null =>
  clocks === undefined ? null : Math.round((clocks * 1e10) / clockHz) / 10

const describeRecord = (r: TraceRecord) => ({ kind: r.kind, clock: r.clock, tag: r.tag, address: r.address ?? null })

/** A record without its raw words; fields a kind lacks (a completion's address) stay absent. */
export const reportRecord = ({ dw: _words, ...fields }: TraceRecord): TraceReportRecord => fields

export const buildReport = (
  a: { pattern: PatternName; bytes: number; trigger: string; filter: string | null; depth: number; clockHz: number },
  trace: Trace,
  pairing: Pairing,
  /** the trace tap's tracker counters over the run (a snapshot's counters after a clear, or a run's deltas); undefined: not read */
  counters: Pick<Counters, 'latFirstCount' | 'latFirstSum' | 'latLastSum' | 'cpldBytes'> | undefined,
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
    earlier: pairing.earlier,
    paired: {
      done: done.length,
      firstLatencySumClocks: done.reduce((s, r) => s + (r.firstLatency ?? 0), 0),
      lastLatencySumClocks: done.reduce((s, r) => s + (r.lastLatency ?? 0), 0),
      bytes: done.reduce((s, r) => s + r.bytes, 0),
    },
    tracker: counters
      ? {
          reads: counters.latFirstCount,
          firstLatencySumClocks: counters.latFirstSum,
          lastLatencySumClocks: counters.latLastSum,
          cpldBytes: counters.cpldBytes,
        }
      : null,
  }
}
