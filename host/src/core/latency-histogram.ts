/**
 * Percentiles of the probe's latency histogram (the one rule the CLI, recordings and the page
 * use). Bin k of `binClocks` clocks holds latencies in [k·w, (k+1)·w); the last bin holds every
 * latency from bins·w up (overflow, no upper edge).
 *
 * Rule: the q-quantile is the latency below which a fraction q of the reads fall. Walk the bins
 * to the first one where the running count reaches q·total, and interpolate linearly inside it,
 * as if its reads were spread evenly over the bin: lower edge + (q·total − count before) / count
 * in bin × w. So p50 of reads all in bin k lies mid-bin, and the error is at most one bin
 * width. A quantile that lands in the overflow bin cannot be placed: it is reported as the
 * overflow bin's lower edge with `atLeast` set.
 */
import { HISTOGRAM_KINDS, type HistogramKindKey } from './generated.js'

export interface HistogramQuantile {
  /** latency in clocks */
  clocks: number
  /** true when it fell in the overflow bin: the latency is this or more */
  atLeast: boolean
}

export const histogramTotal = (bins: readonly number[]): number => bins.reduce((a, b) => a + b, 0)

/** The q-quantile (0 < q ≤ 1) of a histogram in clocks; null while the histogram is empty. */
export function histogramQuantile(bins: readonly number[], binClocks: number, q: number): HistogramQuantile | null {
  if (!(q > 0 && q <= 1)) throw new RangeError(`quantile ${q} is outside (0, 1]`)
  const total = histogramTotal(bins)
  if (total === 0 || bins.length === 0) return null
  const rank = q * total
  const last = bins.length - 1
  let before = 0
  for (let k = 0; k < last; k++) {
    const n = bins[k]!
    if (n > 0 && before + n >= rank) return { clocks: (k + (rank - before) / n) * binClocks, atLeast: false }
    before += n
  }
  return { clocks: last * binClocks, atLeast: true }
}

export interface LatencyPercentilesNs {
  p50: number
  p99: number
  /** p99 (or p50) fell in the overflow bin: the value is a lower bound */
  overflow: boolean
}

/** p50 and p99 in ns at `clockHz`; null while the histogram is empty. */
export function latencyPercentilesNs(bins: readonly number[], binClocks: number, clockHz: number): LatencyPercentilesNs | null {
  const p50 = histogramQuantile(bins, binClocks, 0.5)
  const p99 = histogramQuantile(bins, binClocks, 0.99)
  if (!p50 || !p99 || !(clockHz > 0)) return null
  const ns = 1e9 / clockHz
  return { p50: p50.clocks * ns, p99: p99.clocks * ns, overflow: p50.atLeast || p99.atLeast }
}

/** One slot per histogram kind (HISTOGRAM_KINDS), every one empty: what a view holds before the first HISTOGRAM frames. */
export const noLatencyHistograms = <T>(): Record<HistogramKindKey, T | null> =>
  Object.fromEntries(HISTOGRAM_KINDS.map((k) => [k.key, null])) as Record<HistogramKindKey, T | null>
