/**
 * The latency chart's bars (DOM-free): the probe's histograms have 65 bins (the last one
 * everything longer) whose edges come from core/latency-histogram.ts `binEdges` (today equal
 * widths; unequal ones need no change here), and reads usually fill two or three of them, so the chart shows only the
 * range that holds reads, a bin of margin either side, at least MIN_BARS bars wide; a wider range
 * merges neighbouring bins so that no more than MAX_BARS bars are drawn. The overflow bin keeps a
 * bar of its own when it holds reads. Every label uses one unit (ns, or µs past 10 µs).
 */

export const MIN_BARS = 8
export const MAX_BARS = 24

export interface LatencyBar {
  fromNs: number
  /** null: the overflow bin, every latency from `fromNs` up */
  toNs: number | null
  first: number
  last: number
}

export interface LatencyBars {
  bars: LatencyBar[]
  labels: string[]
  unit: 'ns' | 'µs'
  /** bins per bar */
  merge: number
}

export type LatencyMarkKey = 'first-p50' | 'first-p99' | 'last-p50' | 'last-p99'

/** Where a latency (ns) lies on the bars: 0 is the left edge of the first bar, bars.length the right edge of the last. */
export function barPosition(b: LatencyBars, ns: number): number {
  const regular = b.bars.filter((x) => x.toNs !== null)
  const overflow = b.bars.find((x) => x.toNs === null)
  if (overflow && ns >= overflow.fromNs) return regular.length
  if (regular.length === 0 || ns <= regular[0]!.fromNs) return 0
  // linear inside the bar that holds it: bars of unequal width each get one slot
  for (let i = 0; i < regular.length; i++) {
    const bar = regular[i]!
    const to = bar.toNs!
    if (ns < to) return i + (ns - bar.fromNs) / (to - bar.fromNs)
  }
  return regular.length
}

/**
 * The bars for both kinds' bins, or null while neither holds a read. `edgesNs`: each bin's lower
 * edge in ns (binEdges × ns a clock), the last bin the overflow.
 */
export function latencyBars(
  first: readonly number[] | null,
  last: readonly number[] | null,
  edgesNs: readonly number[],
): LatencyBars | null {
  const n = Math.max(first?.length ?? 0, last?.length ?? 0)
  if (n < 2 || edgesNs.length < n || !(edgesNs[1]! > edgesNs[0]!)) return null
  const count = (k: number) => (first?.[k] ?? 0) + (last?.[k] ?? 0)
  const overflowIndex = n - 1
  let lo = -1
  let hi = -1
  for (let k = 0; k < overflowIndex; k++)
    if (count(k) > 0) {
      if (lo < 0) lo = k
      hi = k
    }
  const overflowReads = count(overflowIndex) > 0
  if (lo < 0 && !overflowReads) return null
  if (lo < 0) lo = hi = overflowIndex - 1 // only overflow: show the bins just below it
  // a bin of margin either side, then widen to MIN_BARS within the regular bins
  let a = Math.max(0, lo - 1)
  let b = Math.min(overflowIndex - 1, hi + 1)
  while (b - a + 1 < Math.min(MIN_BARS, overflowIndex)) {
    if (a > 0) a--
    if (b - a + 1 < MIN_BARS && b < overflowIndex - 1) b++
  }
  const merge = Math.ceil((b - a + 1) / MAX_BARS)
  const bars: LatencyBar[] = []
  for (let k = a; k <= b; k += merge) {
    const end = Math.min(b, k + merge - 1)
    let f = 0
    let l = 0
    for (let j = k; j <= end; j++) {
      f += first?.[j] ?? 0
      l += last?.[j] ?? 0
    }
    bars.push({ fromNs: edgesNs[k]!, toNs: edgesNs[end + 1]!, first: f, last: l })
  }
  if (overflowReads)
    bars.push({ fromNs: edgesNs[overflowIndex]!, toNs: null, first: first?.[overflowIndex] ?? 0, last: last?.[overflowIndex] ?? 0 })
  const top = Math.max(...bars.map((x) => x.toNs ?? x.fromNs))
  const unit = top >= 10_000 ? 'µs' : 'ns'
  // the narrowest bar sets the decimals
  const step = Math.min(...bars.filter((x) => x.toNs !== null).map((x) => x.toNs! - x.fromNs))
  const fmt = (ns: number) => (unit === 'ns' ? ns.toFixed(0) : (ns / 1000).toFixed(step >= 1000 ? 0 : step >= 100 ? 1 : 2))
  const labels = bars.map((x) => (x.toNs === null ? `≥ ${fmt(x.fromNs)}` : `${fmt(x.fromNs)}–${fmt(x.toNs)}`))
  return { bars, labels, unit, merge }
}

/** A latency for the page, in the unit of the bars (or µs past 10 µs, ns below, without bars). */
export function formatLatency(ns: number, unit: 'ns' | 'µs' = ns >= 10_000 ? 'µs' : 'ns'): string {
  return unit === 'ns' ? `${ns.toFixed(0)} ns` : `${(ns / 1000).toFixed(2)} µs`
}
