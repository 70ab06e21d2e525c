/**
 * Requests in flight, from the probe's tracker counters of one snapshot: outstanding reads
 * (average, peak, against the tag budget), completion latency (first and last completion of a
 * read) in nanoseconds, completions by status, and Little's law checked on the probe's own
 * numbers: payload rate = outstanding × request size / latency, i.e. average outstanding =
 * read rate × mean latency.
 */
import type { Counters } from '../core/probe.js'

export interface LatencyStats {
  /** null while no read completed */
  min: number | null
  mean: number | null
  max: number | null
  count: number
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
  latencyNs: { first: LatencyStats; last: LatencyStats }
  completions: {
    /** completions with data, and their payload bytes */
    count: number
    bytes: number
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

const latency = (count: number, min: number, max: number, sum: number, nsPerClock: number): LatencyStats =>
  count > 0
    ? { min: min * nsPerClock, mean: (sum / count) * nsPerClock, max: max * nsPerClock, count }
    : { min: null, mean: null, max: null, count: 0 }

export function inflightSummary(c: Readonly<Counters>, clockHz: number, tagBudget: number | null): InflightSummary {
  const nsPerClock = clockHz > 0 ? 1e9 / clockHz : 0
  const cycles = c.trackerCycles
  const measured = cycles > 0 ? c.outstandingSum / cycles : 0
  const predicted = cycles > 0 ? c.latLastSum / cycles : 0
  return {
    durationNs: c.cycles * nsPerClock,
    outstanding: { avg: measured, peak: c.outstandingPeak, tagBudget },
    latencyNs: {
      first: latency(c.latFirstCount, c.latFirstMin, c.latFirstMax, c.latFirstSum, nsPerClock),
      last: latency(c.latLastCount, c.latLastMin, c.latLastMax, c.latLastSum, nsPerClock),
    },
    completions: {
      count: c.cpldCount,
      bytes: c.cpldBytes,
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
