/**
 * The probe's latency histogram: its bin layout and its percentiles (the one rule the CLI,
 * recordings and the page use).
 *
 * Layout (spec/registers.json latencyHistogram; the HISTOGRAM frames carry it): with S sub-bins
 * per octave and a first edge of F clocks (powers of two, F ≥ S), bins 0..S−1 split [0, F) into
 * S bins of F/S clocks; after them octave j, [F·2^j, F·2^(j+1)), is S bins of F·2^j/S clocks; the
 * last bin (overflow) holds every latency from the lower edge of bin `bins` up. So a bin past the
 * first octave is at most 1/S of the latencies it holds, and with F = S every bin below 2F is one
 * clock. `binEdges` gives the edges; the probe finds a latency's bin from its leading one
 * (probe_hist_bin_index.v), `binOf` here by search.
 *
 * Rule: the q-quantile is the latency below which a fraction q of the reads fall. Walk the bins
 * to the first one where the running count reaches q·total, and interpolate linearly inside it,
 * as if its reads were spread evenly over the whole clocks it holds (lower edge to upper edge − 1:
 * latencies are whole clocks): first + (q·total − count before) / count in bin × (last − first).
 * The quantile and its estimate then lie in the same bin, so the error is below one bin width:
 * under 1/S of the latency past the first octave, none in a one-clock bin. A quantile that lands
 * in the overflow bin cannot be placed: it is reported as the overflow bin's lower edge with
 * `atLeast` set.
 *
 * The probe also counts the smallest and largest latency of the same reads (LAT_*_MIN/MAX).
 * Given them, a bin's edges are narrowed to what was observed before interpolating, so a
 * percentile never lies outside [min, max]: reads of 254–255 clocks in a 192–256 clock bin give
 * p50 254.5, not the bin's middle (below every read).
 */
import { HISTOGRAM_BIN_LAYOUT, HISTOGRAM_KINDS, type HistogramKindKey } from './generated.js'
import { PsError } from './errors.js'
import type { Counters, HistogramLayout } from './probe.js'

export type { HistogramLayout }

/** The layout of this spec's probe (what a firmware built from it sends). */
export const SPEC_HISTOGRAM_LAYOUT: HistogramLayout = { ...HISTOGRAM_BIN_LAYOUT }

const isPow2 = (x: number): boolean => Number.isSafeInteger(x) && x >= 1 && (x & (x - 1)) === 0 && x <= 2 ** 30

/** What is wrong with a layout, or null when it describes bins: powers of two, F ≥ S, 1..65535 bins. */
export function layoutProblem(l: HistogramLayout): string | null {
  if (!isPow2(l.subBins)) return `${l.subBins} sub-bins per octave is not a power of two`
  if (!isPow2(l.firstEdgeClocks) || l.firstEdgeClocks < l.subBins)
    return `first edge ${l.firstEdgeClocks} clocks is not a power of two of at least ${l.subBins} (the sub-bins)`
  if (!Number.isSafeInteger(l.bins) || l.bins < 1 || l.bins > 0xffff) return `${l.bins} bins is not 1..65535`
  return null
}

/** The layout from the HISTOGRAM frame's fields (HIST_LAYOUT's three bytes); throws PS_CMD_BAD_REPLY when it is no layout. */
export function layoutFromWire(subBinsLog2: number, firstEdgeLog2: number, binCount: number): HistogramLayout {
  const l = { subBins: 2 ** subBinsLog2, firstEdgeClocks: 2 ** firstEdgeLog2, bins: binCount }
  const why = subBinsLog2 > 30 || firstEdgeLog2 > 30 ? 'a layout beyond 2^30 clocks' : layoutProblem(l)
  if (why) throw new PsError('PS_CMD_BAD_REPLY', `histogram layout: ${why}`)
  return l
}

/**
 * The layout of a recording made before the bins were log-spaced: `words − 1` bins of `binClocks`
 * each (a power of two of them), i.e. the linear part alone: S = bins, F = bins · binClocks.
 */
export function linearLayout(binClocks: number, words: number): HistogramLayout {
  const bins = words - 1
  return { subBins: bins, firstEdgeClocks: bins * binClocks, bins }
}

/** Whether two layouts give the same bins (their counts can be added or subtracted). */
export const sameLayout = (a: HistogramLayout, b: HistogramLayout): boolean =>
  a.subBins === b.subBins && a.firstEdgeClocks === b.firstEdgeClocks && a.bins === b.bins

/** The lower edge of bin k in clocks (k = bins: the overflow bin's). */
export function binEdge(l: HistogramLayout, k: number): number {
  if (k < l.subBins) return k * (l.firstEdgeClocks / l.subBins)
  const octave = Math.floor(k / l.subBins) - 1
  return ((l.firstEdgeClocks * 2 ** octave) / l.subBins) * (l.subBins + (k % l.subBins))
}

/**
 * Every bin edge in clocks, bins + 1 of them: bin k holds [edges[k], edges[k+1]), and the
 * overflow bin (k = bins) everything from edges[bins] up.
 */
export function binEdges(l: HistogramLayout): number[] {
  return Array.from({ length: l.bins + 1 }, (_, k) => binEdge(l, k))
}

/** binEdges in ns at `clockHz` (the page's axis). */
export const binEdgesNs = (l: HistogramLayout, clockHz: number): number[] => binEdges(l).map((c) => (c * 1e9) / clockHz)

/** The bin a latency of `clocks` lands in (bins: overflow), by search of the edges. */
export function binOf(l: HistogramLayout, clocks: number): number {
  let k = 0
  while (k < l.bins && clocks >= binEdge(l, k + 1)) k++
  return k
}

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
 * The q-quantile (0 < q ≤ 1) of a histogram in clocks; null while the histogram is empty. With
 * `observed`, the bin's edges are first narrowed to [minClocks, maxClocks]. `bins` holds
 * layout.bins + 1 counts, the overflow bin last.
 */
export function histogramQuantile(
  bins: readonly number[],
  layout: HistogramLayout,
  q: number,
  observed?: ObservedLatency,
): HistogramQuantile | null {
  if (!(q > 0 && q <= 1)) throw new RangeError(`quantile ${q} is outside (0, 1]`)
  if (bins.length !== layout.bins + 1) throw new RangeError(`${bins.length} bins for a layout of ${layout.bins} + 1`)
  const total = histogramTotal(bins)
  if (total === 0) return null
  const edges = binEdges(layout)
  const lo = observed?.minClocks ?? -Infinity
  const hi = observed?.maxClocks ?? Infinity
  const clamp = (x: number) => Math.min(hi, Math.max(lo, x))
  const rank = q * total
  const last = bins.length - 1
  let before = 0
  for (let k = 0; k < last; k++) {
    const n = bins[k]!
    if (n > 0 && before + n >= rank) {
      // the whole clocks the bin holds: its lower edge to its upper edge − 1
      const from = clamp(edges[k]!)
      const to = Math.max(from, clamp(edges[k + 1]! - 1))
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
  layout: HistogramLayout,
  clockHz: number,
  observed?: ObservedLatency,
): LatencyPercentilesNs | null {
  const p50 = histogramQuantile(bins, layout, 0.5, observed)
  const p99 = histogramQuantile(bins, layout, 0.99, observed)
  if (!p50 || !p99 || !(clockHz > 0)) return null
  const ns = 1e9 / clockHz
  return { p50: p50.clocks * ns, p99: p99.clocks * ns, overflow: p50.atLeast || p99.atLeast }
}

/** One slot per histogram kind (HISTOGRAM_KINDS), every one empty: what a view holds before the first HISTOGRAM frames. */
export const noLatencyHistograms = <T>(): Record<HistogramKindKey, T | null> =>
  Object.fromEntries(HISTOGRAM_KINDS.map((k) => [k.key, null])) as Record<HistogramKindKey, T | null>
