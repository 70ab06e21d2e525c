/**
 * A run's bench summary: what one run delivered and what held it back, from the probe's counters
 * over the run alone. The one rule `capture`, the server (each run's report, GET /api/runs), the
 * recordings' run list, `compare` and the page use. Browser-safe: imports only core.
 *
 * Which limit a run hit is decided by the rules of docs/bench.md ("Which limit a run hit"), in this order: the link ceiling,
 * the tag budget (Little's law), the request rate, else the latency.
 */
import type { Counters, HistogramLayout } from './probe.js'
import { HISTOGRAM_KINDS, type HistogramKindKey } from './generated.js'
import { CPL_OVERHEAD_BYTES, MRD_WIRE_BYTES, payloadCeiling, type PcieLinkInfo } from './link.js'
import { histogramTotal, latencyPercentilesNs, observedLatency, sameLayout } from './latency-histogram.js'
import { bySizeFromCounters, totalRequests, type BySize } from './size-classes.js'
import type { AnyWorkload } from './workload.js'

/** What limited a run (docs/bench.md): the first rule that holds, in this order. */
export const LIMIT_KINDS = ['link', 'tags', 'request-rate', 'latency', 'none'] as const
export type LimitKind = (typeof LIMIT_KINDS)[number]

/** The share of a ceiling at which a run counts as held by it (docs/bench.md). */
export const LIMIT_FRACTION = 0.9

export const LIMIT_WORDS: Record<LimitKind, string> = {
  link: 'link ceiling',
  tags: "tags (Little's law)",
  'request-rate': 'request rate',
  latency: 'latency',
  none: 'nothing measured',
}

/** Bins of a latency histogram over the run alone, and their layout (the probe's HIST_LAYOUT). */
export interface RunHistogram {
  bins: readonly number[]
  layout: HistogramLayout
}

export interface RunSummaryInput {
  /** the probe's counters over the run alone: cleared just before it, or after − before */
  counters: Readonly<Counters>
  clockHz: number
  /** reads the requester may have in flight; null when unknown (a board) */
  tagBudget: number | null
  /** the link the probe watches; null when unknown */
  link: PcieLinkInfo | null | undefined
  /** the run's latency histograms (its reads alone); without them p50 / p99 are null */
  histograms?: Partial<Record<HistogramKindKey, RunHistogram>> | undefined
  /**
   * counters whose latency minimum and maximum bound the run's reads (the snapshot at the run's
   * end: since the last clear, so they hold every read of the run); default `counters`
   */
  bounds?: Readonly<Counters> | undefined
  /** what the workload side says it issued: the model against the probe */
  issued?: { count: number; bytes: number } | null | undefined
}

export interface RunSummary {
  /** probe time of the run: CYCLES / clock (simulated on the twin) */
  seconds: number
  requests: {
    count: number
    bySize: BySize
    perSecond: number
    /** requested bytes per MRd; null without requests */
    meanBytes: number | null
  }
  bytes: { requested: number; completed: number }
  /** completed payload (CPLD_BYTES) per second, GB/s */
  gbPerSecond: number
  /** bytes on the wire, each TLP with its header and framing (docs/pcie.md "Bytes on the wire") */
  wire: {
    completions: number
    /** the completion direction: payload + CPL_OVERHEAD_BYTES per CplD */
    completionBytes: number
    /** the request direction: MRD_WIRE_BYTES per MRd */
    requestBytes: number
    /** payload / completion bytes: the share of the completion direction that is payload; null without payload */
    efficiency: number | null
  }
  inFlight: {
    avg: number
    peak: number
    tagBudget: number | null
    /** avg and peak over the tag budget; null when it is unknown */
    avgOfBudget: number | null
    peakOfBudget: number | null
  }
  /** request to last completion, ns: p50 / p99 from the run's histogram, clamped to the observed min / max */
  latencyNs: { mean: number | null; p50: number | null; p99: number | null; atLeast: boolean }
  /** the link's payload ceiling for this completion mix */
  ceiling: { link: string | null; gbPerSecond: number | null; fraction: number | null }
  /** MRds per second the path carries: one per probe clock, or the link's MRd rate if lower */
  requestRateCeiling: number | null
  /** payload per second Little's law allows with every tag in flight at this latency; null when unknown */
  tagBoundGbPerSecond: number | null
  limit: { kind: LimitKind; why: string }
  /** the workload side's count against the probe's; null when it said nothing */
  model: { issued: number; issuedBytes: number; matchesProbe: boolean } | null
}

/** Where a run was made: the twin's model, a GPU, or a board the probe watches. */
export type RunSourceKind = 'twin' | 'gpu' | 'board'

/** One run in a history or a comparison: what it was, where it came from, its summary. */
export interface RunEntry {
  /** unique in a listing: `server:ID` for this server's runs, `NAME#ID` for a recording's */
  key: string
  /** the recording holding it, or null (a run of this server not recorded) */
  recording: string | null
  id: number
  origin: 'capture' | 'demo' | 'manual'
  source: RunSourceKind
  workload: AnyWorkload
  /** when it finished, ms since the epoch */
  at: number
  summary: RunSummary
}

/** 3 significant digits, never in exponent form: 1512.3 reads 1512, 0.0123 keeps three digits. */
export const sig = (n: number, digits = 3): string => {
  if (!Number.isFinite(n)) return String(n)
  if (Number.isInteger(n) || Math.abs(n) >= 10 ** (digits - 1)) return String(Math.round(n))
  return Number(n.toPrecision(digits)).toLocaleString('en-US', { useGrouping: false, maximumSignificantDigits: digits })
}
const pct = (f: number): string => `${sig(100 * f)} %`

/** The run's latency histogram of a kind minus the baseline's (the probe's histograms count since its clear). */
export const histogramDelta = (after: RunHistogram, before?: RunHistogram | null): RunHistogram =>
  before && sameLayout(before.layout, after.layout) && before.bins.length === after.bins.length
    ? { layout: after.layout, bins: after.bins.map((n, i) => Math.max(0, n - before.bins[i]!)) }
    : after

const latencyOf = (inp: RunSummaryInput): RunSummary['latencyNs'] => {
  const c = inp.counters
  const mean = c.latLastCount > 0 && inp.clockHz > 0 ? ((c.latLastSum / c.latLastCount) * 1e9) / inp.clockHz : null
  const h = inp.histograms?.last
  const kind = HISTOGRAM_KINDS.find((k) => k.key === 'last')!
  // a histogram that is not the run's reads (its total differs from the run's count) is ignored, never mixed in
  if (!h || histogramTotal(h.bins) !== c[kind.countCounter] || histogramTotal(h.bins) === 0) {
    return { mean, p50: null, p99: null, atLeast: false }
  }
  const p = latencyPercentilesNs(h.bins, h.layout, inp.clockHz, observedLatency(inp.bounds ?? c, 'last', histogramTotal(h.bins)))
  return { mean, p50: p?.p50 ?? null, p99: p?.p99 ?? null, atLeast: p?.overflow ?? false }
}

/** The limit a run hit: the rules of docs/bench.md, first match wins. */
export function decideLimit(s: Omit<RunSummary, 'limit' | 'model'>): RunSummary['limit'] {
  const lat = s.latencyNs.mean
  if (s.requests.count === 0 || s.wire.completions === 0 || lat === null) return { kind: 'none', why: 'no read completed in the run' }
  if (!(s.seconds > 0)) return { kind: 'none', why: 'no probe time passed in the run (its counters were not enabled)' }
  const gb = sig(s.gbPerSecond)
  if (s.ceiling.fraction !== null && s.ceiling.fraction >= LIMIT_FRACTION) {
    return {
      kind: 'link',
      why: `${gb} GB/s is ${pct(s.ceiling.fraction)} of the ${s.ceiling.link} ceiling of ${sig(s.ceiling.gbPerSecond!)} GB/s for this completion mix`,
    }
  }
  const { avg, tagBudget, avgOfBudget } = s.inFlight
  if (tagBudget !== null && avgOfBudget !== null && avgOfBudget >= LIMIT_FRACTION) {
    return {
      kind: 'tags',
      why: `${sig(avg)} of ${tagBudget} tags in flight on average: at ${sig(lat)} ns a read, Little's law allows ${sig(s.tagBoundGbPerSecond ?? 0)} GB/s`,
    }
  }
  if (s.requestRateCeiling !== null && s.requests.perSecond >= LIMIT_FRACTION * s.requestRateCeiling) {
    return {
      kind: 'request-rate',
      why: `${sig(s.requests.perSecond / 1e6)} M MRd/s is ${pct(s.requests.perSecond / s.requestRateCeiling)} of the ${sig(s.requestRateCeiling / 1e6)} M/s the path carries`,
    }
  }
  return {
    kind: 'latency',
    why:
      `${sig(avg)} reads in flight${tagBudget !== null ? ` of ${tagBudget} tags` : ''} at ${sig(lat)} ns a read: ` +
      `Little's law gives ${gb} GB/s; more reads in flight would hide more of the latency`,
  }
}

/** The bench summary of one run (docs/bench.md). */
export function summarizeRun(inp: RunSummaryInput): RunSummary {
  const c = inp.counters
  const seconds = inp.clockHz > 0 ? c.cycles / inp.clockHz : 0
  const bySize = bySizeFromCounters(c)
  const count = totalRequests(bySize)
  const completed = c.cpldBytes
  const completionBytes = completed + CPL_OVERHEAD_BYTES * c.cpldCount
  const avg = c.trackerCycles > 0 ? c.outstandingSum / c.trackerCycles : 0
  const budget = inp.tagBudget !== null && inp.tagBudget > 0 ? inp.tagBudget : null
  const gbPerSecond = seconds > 0 ? completed / seconds / 1e9 : 0
  const ceiling = payloadCeiling(inp.link, completed, c.cpldCount)
  const latencyNs = latencyOf(inp)
  const perRead = c.latLastCount > 0 ? completed / c.latLastCount : null
  const tlp = inp.link?.tlpBytesPerSecond ?? null
  const requestRateCeiling = inp.clockHz > 0 ? Math.min(inp.clockHz, tlp !== null ? tlp / MRD_WIRE_BYTES : Infinity) : null
  const base = {
    seconds,
    requests: { count, bySize, perSecond: seconds > 0 ? count / seconds : 0, meanBytes: count > 0 ? c.mrdBytes / count : null },
    bytes: { requested: c.mrdBytes, completed },
    gbPerSecond,
    wire: {
      completions: c.cpldCount,
      completionBytes,
      requestBytes: MRD_WIRE_BYTES * count,
      efficiency: completed > 0 ? completed / completionBytes : null,
    },
    inFlight: {
      avg,
      peak: c.outstandingPeak,
      tagBudget: budget,
      avgOfBudget: budget !== null ? avg / budget : null,
      peakOfBudget: budget !== null ? c.outstandingPeak / budget : null,
    },
    latencyNs,
    ceiling: {
      link: inp.link?.name ?? null,
      gbPerSecond: ceiling === null ? null : ceiling / 1e9,
      fraction: ceiling === null || ceiling <= 0 ? null : (gbPerSecond * 1e9) / ceiling,
    },
    requestRateCeiling,
    tagBoundGbPerSecond: budget !== null && perRead !== null && latencyNs.mean ? (budget * perRead) / latencyNs.mean : null,
  }
  return {
    ...base,
    limit: decideLimit(base),
    model: inp.issued
      ? {
          issued: inp.issued.count,
          issuedBytes: inp.issued.bytes,
          matchesProbe: inp.issued.count === count && inp.issued.bytes === c.mrdBytes,
        }
      : null,
  }
}

/** The summary as aligned `label  value` rows: `capture`, `summary` and the page's card say the same. */
export function summaryRows(s: RunSummary): [string, string][] {
  const l = s.latencyNs
  return [
    ['payload', `${sig(s.gbPerSecond)} GB/s`],
    [
      'requests',
      `${sig(s.requests.perSecond / 1e6)} M MRd/s, ${s.requests.count} MRd` +
        (s.requests.meanBytes !== null ? ` of ${sig(s.requests.meanBytes)} B on average` : ''),
    ],
    [
      'wire efficiency',
      s.wire.efficiency === null
        ? '–'
        : `${pct(s.wire.efficiency)} payload (${s.bytes.completed} of ${s.wire.completionBytes} B of completions; ${s.wire.requestBytes} B of requests)`,
    ],
    [
      'reads in flight',
      `${sig(s.inFlight.avg)} average, ${s.inFlight.peak} peak` +
        (s.inFlight.tagBudget !== null
          ? ` of ${s.inFlight.tagBudget} tags (${pct(s.inFlight.avgOfBudget!)} / ${pct(s.inFlight.peakOfBudget!)})`
          : ''),
    ],
    [
      'latency',
      l.p50 !== null && l.p99 !== null
        ? `p50 ${sig(l.p50)} ns, p99 ${l.atLeast ? '≥ ' : ''}${sig(l.p99)} ns (mean ${sig(l.mean ?? 0)} ns)`
        : l.mean !== null
          ? `mean ${sig(l.mean)} ns (no histogram of the run)`
          : 'no read completed',
    ],
    [
      'ceiling',
      s.ceiling.gbPerSecond === null
        ? `${s.ceiling.link ?? 'unknown link'}: no wire limit`
        : `${sig(s.ceiling.gbPerSecond)} GB/s on ${s.ceiling.link} (${pct(s.ceiling.fraction ?? 0)} reached)`,
    ],
    ['limit', `${LIMIT_WORDS[s.limit.kind]}: ${s.limit.why}`],
    [
      'model vs probe',
      s.model === null
        ? '–'
        : s.model.matchesProbe
          ? `model issued ${s.model.issued} MRd: matches the probe`
          : `MISMATCH: model issued ${s.model.issued} MRd / ${s.model.issuedBytes} B, probe counted ${s.requests.count} / ${s.bytes.requested} B`,
    ],
  ]
}
