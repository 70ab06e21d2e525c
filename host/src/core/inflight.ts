/**
 * Requests in flight, from the probe's tracker counters of one snapshot: outstanding reads
 * (average, peak, against the tag budget), completion latency (first and last completion of a
 * read) in nanoseconds, completions by status, and Little's law checked on the probe's own
 * numbers: payload rate = outstanding × request size / latency, i.e. average outstanding =
 * read rate × mean latency.
 */
import type { Counters, LatencyHistogram } from '../core/probe.js'
import { HISTOGRAM_KINDS, type HistogramKindKey } from './generated.js'
import { binEdges, histogramTotal, latencyPercentilesNs, observedLatency } from './latency-histogram.js'

export interface LatencyStats {
  /** null while no read completed */
  min: number | null
  mean: number | null
  /**
   * median and 99th percentile from the probe's latency histogram of the same kind
   * (core/latency-histogram.ts: linear inside a bin, so within one bin width); null when no
   * histogram of the same snapshot is at hand
   */
  p50: number | null
  p99: number | null
  max: number | null
  count: number
}

/** The histogram behind p50/p99, in ns: bin k covers [edgesNs[k], edgesNs[k+1]), the last bin everything from its edge up. */
export interface LatencyHistogramSummary {
  /** every bin's lower edge in ns (log-spaced: core/latency-histogram.ts binEdges), one per bin */
  edgesNs: number[]
  bins: number[]
  /** p99 or p50 fell in the overflow bin: those values are lower bounds */
  overflow: boolean
}

export interface InflightSummary {
  /** the counting window: CYCLES / clock */
  durationNs: number
  outstanding: {
    /** OUTSTANDING_SUM / TRACKER_CYCLES */
    avg: number
    peak: number
    /** tags the requester may have outstanding (the twin's GPU model says; null when unknown) */
    tagBudget: number | null
  }
  latencyNs: Record<HistogramKindKey, LatencyStats>
  /** the histograms behind latencyNs.first / .last p50 and p99 (null without one) */
  latencyHistograms: Record<HistogramKindKey, LatencyHistogramSummary | null>
  completions: {
    /** completions with data, and their payload bytes */
    count: number
    bytes: number
    /** completions without data (Cpl: error status, or a success that carried none) */
    withoutData: number
    /** reads ended by an error status */
    byStatus: { ur: number; ca: number; other: number }
    /** completions that matched no outstanding read */
    unexpected: number
    /** completions whose Byte Count disagreed with the bytes still expected */
    mismatch: number
    /** reads whose completions never came */
    timeouts: number
  }
  /**
   * Little's law on the probe's counters: read rate × mean last-completion latency (=
   * LAT_LAST_SUM / TRACKER_CYCLES) next to the measured average outstanding; they agree when
   * every read starts and ends inside the window. null before any read completed.
   */
  littlesLaw: { rateTimesLatency: number; measuredOutstanding: number; errorPercent: number } | null
}

const latency = (
  count: number,
  min: number,
  max: number,
  sum: number,
  nsPerClock: number,
  pct: { p50: number; p99: number } | null,
): LatencyStats =>
  count > 0
    ? {
        min: min * nsPerClock,
        mean: (sum / count) * nsPerClock,
        p50: pct?.p50 ?? null,
        p99: pct?.p99 ?? null,
        max: max * nsPerClock,
        count,
      }
    : { min: null, mean: null, p50: null, p99: null, max: null, count: 0 }

type HistogramBins = Pick<LatencyHistogram, 'bins' | 'layout'>

/**
 * Each histogram must have been read with the same snapshot as `c` (its bins add up to the
 * kind's count: latLastCount, latFirstCount); one that does not is ignored rather than mixed
 * with other reads.
 */
export function inflightSummary(
  c: Readonly<Counters>,
  clockHz: number,
  tagBudget: number | null,
  histograms: Partial<Record<HistogramKindKey, HistogramBins>> = {},
): InflightSummary {
  const nsPerClock = clockHz > 0 ? 1e9 / clockHz : 0
  const summaries = {} as Record<HistogramKindKey, LatencyHistogramSummary | null>
  const pct = {} as Record<HistogramKindKey, { p50: number; p99: number } | null>
  for (const { key, countCounter } of HISTOGRAM_KINDS) {
    const h = histograms[key]
    const matching = h && histogramTotal(h.bins) === c[countCounter] ? h : undefined
    const p = matching
      ? latencyPercentilesNs(matching.bins, matching.layout, clockHz, observedLatency(c, key, histogramTotal(matching.bins)))
      : null
    pct[key] = p
    summaries[key] = matching
      ? { edgesNs: binEdges(matching.layout).map((e) => e * nsPerClock), bins: [...matching.bins], overflow: p?.overflow ?? false }
      : null
  }
  const cycles = c.trackerCycles
  const measured = cycles > 0 ? c.outstandingSum / cycles : 0
  const predicted = cycles > 0 ? c.latLastSum / cycles : 0
  return {
    durationNs: c.cycles * nsPerClock,
    outstanding: { avg: measured, peak: c.outstandingPeak, tagBudget },
    latencyNs: {
      first: latency(c.latFirstCount, c.latFirstMin, c.latFirstMax, c.latFirstSum, nsPerClock, pct.first),
      last: latency(c.latLastCount, c.latLastMin, c.latLastMax, c.latLastSum, nsPerClock, pct.last),
    },
    latencyHistograms: summaries,
    completions: {
      count: c.cpldCount,
      bytes: c.cpldBytes,
      withoutData: c.cplCount,
      byStatus: { ur: c.cplUr, ca: c.cplCa, other: c.cplOtherStatus },
      unexpected: c.cplUnexpected,
      mismatch: c.cplMismatch,
      timeouts: c.readTimeouts,
    },
    littlesLaw:
      c.latLastCount > 0 && measured > 0
        ? { rateTimesLatency: predicted, measuredOutstanding: measured, errorPercent: ((predicted - measured) / measured) * 100 }
        : null,
  }
}
