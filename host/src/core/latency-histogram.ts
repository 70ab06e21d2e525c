/**
 * Percentiles of the probe's latency histogram (the one rule the CLI, recordings and the page
 * use). Bin k holds latencies in [edge k, edge k+1) (`binEdges`: today k·w of `binClocks` w); the
 * last bin holds every latency from its edge up (overflow, no upper edge).
 *
 * Rule: the q-quantile is the latency below which a fraction q of the reads fall. Walk the bins
 * to the first one where the running count reaches q·total, and interpolate linearly inside it,
 * as if its reads were spread evenly over the bin: lower edge + (q·total − count before) / count
 * in bin × w. So p50 of reads all in bin k lies mid-bin, and the error is at most one bin
 * width. A quantile that lands in the overflow bin cannot be placed: it is reported as the
 * overflow bin's lower edge with `atLeast` set.
 *
 * The probe also counts the smallest and largest latency of the same reads (LAT_*_MIN/MAX).
 * Given them, a bin's edges are narrowed to what was observed before interpolating, so a
 * percentile never lies outside [min, max]: reads of 1016–1023 ns in a 768–1024 ns bin give
 * p50 1019.5 ns, not the bin's middle (896 ns, below every read).
 */
import { HISTOGRAM_KINDS, type HistogramKindKey } from './generated.js'
import type { Counters } from './probe.js'

/** The smallest and largest latency (clocks) the probe saw among the reads a histogram holds. */
export interface ObservedLatency {
  minClocks: number
  maxClocks: number
}

/** The counters that bound each histogram kind (LAT_LAST_MIN/MAX, LAT_FIRST_MIN/MAX). */
const BOUNDS: Record<HistogramKindKey, { min: 'latLastMin' | 'latFirstMin'; max: 'latLastMax' | 'latFirstMax' }> = {
  last: { min: 'latLastMin', max: 'latLastMax' },
  first: { min: 'latFirstMin', max: 'latFirstMax' },
}

/**
 * The observed bounds of a kind from a snapshot's counters, or undefined when they cannot bound
 * a histogram of `reads` reads: nothing completed (the minimum reads all ones, the maximum 0), or the counters
 * hold fewer reads than the histogram (a clear came between them, so they describe other reads).
 * Counters of a later snapshot without a clear between still bound it: the minimum only falls
 * and the maximum only rises as reads are added.
 */
export function observedLatency(c: Readonly<Counters>, kind: HistogramKindKey, reads: number): ObservedLatency | undefined {
  const count = c[HISTOGRAM_KINDS.find((k) => k.key === kind)!.countCounter]
  const minClocks = c[BOUNDS[kind].min]
  const maxClocks = c[BOUNDS[kind].max]
  if (!(count > 0) || count < reads || !(maxClocks > 0) || !(minClocks <= maxClocks) || !Number.isSafeInteger(minClocks)) return undefined
  return { minClocks, maxClocks }
}

export interface HistogramQuantile {
  /** latency in clocks */
  clocks: number
  /** true when it fell in the overflow bin: the latency is this or more */
  atLeast: boolean
}

export const histogramTotal = (bins: readonly number[]): number => bins.reduce((a, b) => a + b, 0)

/**
 * The lower edge, in clocks, of each of `count` bins: bin k holds [edges[k], edges[k+1]), the
 * last (overflow) bin everything from its edge up. Every reader of the bins' latencies (the
 * percentiles here, the page's bars) takes them from this one function, so bins of unequal width
 * change it alone. Today: `binClocks` wide each.
 */
export function binEdges(count: number, binClocks: number): number[] {
  return Array.from({ length: Math.max(0, count) }, (_, k) => k * binClocks)
}

/**
 * The q-quantile (0 < q ≤ 1) of a histogram in clocks; null while the histogram is empty. With
 * `observed`, the bin's edges are first narrowed to [minClocks, maxClocks].
 */
export function histogramQuantile(
  bins: readonly number[],
  binClocks: number,
  q: number,
  observed?: ObservedLatency,
): HistogramQuantile | null {
  if (!(q > 0 && q <= 1)) throw new RangeError(`quantile ${q} is outside (0, 1]`)
  const total = histogramTotal(bins)
  if (total === 0 || bins.length === 0) return null
  const lo = observed?.minClocks ?? -Infinity
  const hi = observed?.maxClocks ?? Infinity
  const clamp = (x: number) => Math.min(hi, Math.max(lo, x))
  const rank = q * total
  const last = bins.length - 1
  const edges = binEdges(bins.length, binClocks)
  let before = 0
  for (let k = 0; k < last; k++) {
    const n = bins[k]!
    if (n > 0 && before + n >= rank) {
      const from = clamp(edges[k]!)
      const to = Math.max(from, clamp(edges[k + 1]!))
      return { clocks: from + ((rank - before) / n) * (to - from), atLeast: false }
    }
    before += n
  }
  return { clocks: clamp(edges[last]!), atLeast: true }
}

export interface LatencyPercentilesNs {
  p50: number
  p99: number
  /** p99 (or p50) fell in the overflow bin: the value is a lower bound */
  overflow: boolean
}

/** p50 and p99 in ns at `clockHz`, within `observed` when given; null while the histogram is empty. */
export function latencyPercentilesNs(
  bins: readonly number[],
  binClocks: number,
  clockHz: number,
  observed?: ObservedLatency,
): LatencyPercentilesNs | null {
  const p50 = histogramQuantile(bins, binClocks, 0.5, observed)
  const p99 = histogramQuantile(bins, binClocks, 0.99, observed)
  if (!p50 || !p99 || !(clockHz > 0)) return null
  const ns = 1e9 / clockHz
  return { p50: p50.clocks * ns, p99: p99.clocks * ns, overflow: p50.atLeast || p99.atLeast }
}

/** One slot per histogram kind (HISTOGRAM_KINDS), every one empty: what a view holds before the first HISTOGRAM frames. */
export const noLatencyHistograms = <T>(): Record<HistogramKindKey, T | null> =>
  Object.fromEntries(HISTOGRAM_KINDS.map((k) => [k.key, null])) as Record<HistogramKindKey, T | null>
