import { describe, expect, it } from 'vitest'
import { COUNTERS, HISTOGRAM_BIN_LAYOUT } from '../../../host/src/core/generated.js'
import {
  binEdge,
  binEdges,
  binEdgesNs,
  binOf,
  histogramQuantile,
  histogramTotal,
  latencyPercentilesNs,
  layoutFromWire,
  layoutProblem,
  linearLayout,
  observedLatency,
  SPEC_HISTOGRAM_LAYOUT,
  type HistogramLayout,
} from '../../../host/src/core/latency-histogram.js'
import type { Counters } from '../../../host/src/core/probe.js'

// 64 equal bins of 64 clocks (a layout of its linear part alone, as recordings made before the
// log-spaced bins have): easy edges for the interpolation rule
const LINEAR = linearLayout(64, 65)
const empty = (l: HistogramLayout = LINEAR): number[] => Array<number>(l.bins + 1).fill(0)
const SPEC = SPEC_HISTOGRAM_LAYOUT

describe('the bin layout', () => {
  it('is the spec’s: 8 sub-bins per octave from 8 clocks, 88 bins to 8192 clocks (32.8 µs at 250 MHz)', () => {
    expect(SPEC).toEqual(HISTOGRAM_BIN_LAYOUT)
    expect(SPEC).toEqual({ subBins: 8, firstEdgeClocks: 8, bins: 88 })
    const e = binEdges(SPEC)
    expect(e).toHaveLength(89)
    // one clock a bin below 16, then 2 clocks, 4, ...
    expect(e.slice(0, 20)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22])
    expect(e.slice(80)).toEqual([4096, 4608, 5120, 5632, 6144, 6656, 7168, 7680, 8192])
    expect(binEdgesNs(SPEC, 250e6)[88]).toBe(32768)
  })

  it('never makes a bin past the first octave wider than 1/S of its lower edge, and edges ascend', () => {
    const e = binEdges(SPEC)
    for (let k = 1; k < e.length; k++) {
      expect(e[k]!).toBeGreaterThan(e[k - 1]!)
      if (e[k - 1]! >= SPEC.firstEdgeClocks) expect((e[k]! - e[k - 1]!) / e[k - 1]!).toBeLessThanOrEqual(1 / SPEC.subBins)
    }
  })

  it('puts a latency in the bin whose edges hold it, the overflow bin from the last edge', () => {
    const e = binEdges(SPEC)
    for (let k = 1; k <= SPEC.bins; k++) {
      expect(binOf(SPEC, e[k]! - 1)).toBe(k - 1)
      expect(binOf(SPEC, e[k]!)).toBe(k)
    }
    expect(binOf(SPEC, 0)).toBe(0)
    expect(binOf(SPEC, 10 ** 9)).toBe(SPEC.bins)
  })

  it('scales the linear part by F/S, and reads the old equal bins as a linear part alone', () => {
    const l = { subBins: 4, firstEdgeClocks: 16, bins: 26 }
    expect(binEdges(l).slice(0, 10)).toEqual([0, 4, 8, 12, 16, 20, 24, 28, 32, 40])
    expect(binEdge(l, 26)).toBe(768) // a part octave: 512 + 2 × 128
    expect(binEdges(LINEAR)).toEqual(Array.from({ length: 65 }, (_, k) => k * 64))
  })

  it('takes the layout from the frame’s fields and refuses one that is no layout', () => {
    expect(layoutFromWire(3, 3, 88)).toEqual(SPEC)
    expect(() => layoutFromWire(4, 3, 88)).toThrow(/first edge 8 clocks/)
    expect(() => layoutFromWire(3, 3, 0)).toThrow(/0 bins/)
    expect(() => layoutFromWire(40, 40, 8)).toThrow(/2\^30/)
    expect(layoutProblem({ subBins: 3, firstEdgeClocks: 8, bins: 8 })).toMatch(/not a power of two/)
  })
})

describe('histogramQuantile', () => {
  it('interpolates linearly over the whole clocks of the bin where the running count reaches q × total', () => {
    const bins = empty()
    bins[2] = 10 // [128, 192) at 64 clocks a bin: clocks 128..191
    bins[3] = 30 // [192, 256)
    expect(histogramTotal(bins)).toBe(40)
    // rank 20: 10 before bin 3, 10 of its 30 → a third into it
    expect(histogramQuantile(bins, LINEAR, 0.5)).toEqual({ clocks: 192 + 63 / 3, atLeast: false })
    // rank 4: 4 of bin 2's 10
    expect(histogramQuantile(bins, LINEAR, 0.1)?.clocks).toBeCloseTo(128 + 63 * 0.4)
    // q = 1 is the last clock of the last non-empty bin
    expect(histogramQuantile(bins, LINEAR, 1)).toEqual({ clocks: 255, atLeast: false })
  })

  it('puts p50 of reads that all share one bin in its middle, and gives a one-clock bin’s latency exactly', () => {
    const bins = empty()
    bins[18] = 1000
    expect(histogramQuantile(bins, LINEAR, 0.5)?.clocks).toBe(1152 + 31.5)
    const one = empty(SPEC)
    one[5] = 10 // 5 clocks
    expect(histogramQuantile(one, SPEC, 0.5)?.clocks).toBe(5)
    expect(histogramQuantile(one, SPEC, 0.99)?.clocks).toBe(5)
  })

  it('skips empty bins at the rank boundary (a quantile never lands in an empty bin)', () => {
    const bins = empty()
    bins[0] = 50
    bins[5] = 50
    expect(histogramQuantile(bins, LINEAR, 0.5)).toEqual({ clocks: 63, atLeast: false })
    expect(histogramQuantile(bins, LINEAR, 0.51)?.clocks).toBeCloseTo(5 * 64 + 63 * (1 / 50))
  })

  it('interpolates inside an unequal bin of the log layout', () => {
    const bins = empty(SPEC)
    bins[81] = 100 // [4608, 5120) clocks
    expect(histogramQuantile(bins, SPEC, 0.5)?.clocks).toBeCloseTo(4608 + 511 / 2)
  })

  it('reports a quantile in the overflow bin as its lower edge, at least', () => {
    const bins = empty(SPEC)
    bins[1] = 90
    bins[SPEC.bins] = 10
    expect(histogramQuantile(bins, SPEC, 0.99)).toEqual({ clocks: 8192, atLeast: true })
    expect(histogramQuantile(bins, SPEC, 0.5)?.atLeast).toBe(false)
  })

  it('narrows the bin to the observed min and max before interpolating', () => {
    const bins = empty()
    bins[3] = 100 // [192, 256) clocks; every read took 254 or 255
    const observed = { minClocks: 254, maxClocks: 255 }
    expect(histogramQuantile(bins, LINEAR, 0.5, observed)).toEqual({ clocks: 254.5, atLeast: false })
    expect(histogramQuantile(bins, LINEAR, 1, observed)?.clocks).toBe(255)
    // the overflow bin's lower edge is raised to the minimum, never past the maximum
    const over = empty()
    over[LINEAR.bins] = 10
    expect(histogramQuantile(over, LINEAR, 0.5, { minClocks: 5000, maxClocks: 6000 })).toEqual({ clocks: 5000, atLeast: true })
  })

  it('is null for an empty histogram and refuses a quantile outside (0, 1] or bins of another layout', () => {
    expect(histogramQuantile(empty(), LINEAR, 0.5)).toBeNull()
    expect(() => histogramQuantile(empty(), LINEAR, 0)).toThrow(RangeError)
    expect(() => histogramQuantile(empty(), LINEAR, 1.5)).toThrow(RangeError)
    expect(() => histogramQuantile(empty(SPEC), LINEAR, 0.5)).toThrow(/89 bins for a layout of 64/)
  })
})

describe('latencyPercentilesNs', () => {
  it('converts p50 and p99 to ns at the probe clock', () => {
    const bins = empty()
    bins[18] = 100 // [1152, 1216) clocks = [4608, 4864) ns at 250 MHz
    const p = latencyPercentilesNs(bins, LINEAR, 250e6)
    expect(p?.p50).toBeCloseTo((1152 + 31.5) * 4)
    expect(p?.p99).toBeCloseTo((1152 + 63 * 0.99) * 4)
    expect(p?.overflow).toBe(false)
    expect(latencyPercentilesNs(empty(), LINEAR, 250e6)).toBeNull()
  })
})

/*
 * Accuracy of p50/p99 from the spec's histogram. The bound: a quantile and its estimate lie in
 * the same bin, among the whole clocks it holds, so they differ by less than the bin's width;
 * past the first octave a bin is at most 1/S of its lower edge (S = 8 sub-bins per octave), and
 * below 2F (16 clocks, 64 ns) a bin is one clock, where the estimate is exact. So the relative
 * error is below 1/S = 12.5 % for any set of reads, at any latency below the overflow edge.
 * Reads spread over a few bins (any real queue) interpolate far closer: the second check.
 */
describe('p50 and p99 from the log-spaced bins, 10 ns .. 30 µs at 250 MHz', () => {
  const CLOCK_HZ = 250e6
  const NS = 1e9 / CLOCK_HZ
  const BOUND = 1 / SPEC.subBins
  // a seeded generator (mulberry32): the same reads every run
  const rng = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const normal = (r: () => number) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r())
  // nearest rank: the smallest latency with at least q of the reads at or below it
  const truth = (sorted: number[], q: number) => sorted[Math.ceil(q * sorted.length) - 1]!

  function estimate(reads: number[]) {
    const bins = empty(SPEC)
    for (const c of reads) bins[binOf(SPEC, c)]!++
    const observed = { minClocks: Math.min(...reads), maxClocks: Math.max(...reads) }
    return latencyPercentilesNs(bins, SPEC, CLOCK_HZ, observed)!
  }

  // latencies in whole clocks (at least 1) from 10 ns to 30 µs, 24 to a decade
  const centres = Array.from({ length: 3 * 24 + 12 }, (_, i) => 10 * 10 ** (i / 24)).filter((ns) => ns <= 30_000)
  const shapes: Record<string, (r: () => number, c: number) => number> = {
    'one latency': (_r, c) => c,
    'two latencies a bin apart': (r, c) => (r() < 0.5 ? c : c * 1.13),
    'uniform over ±20 %': (r, c) => c * (0.8 + 0.4 * r()),
    'log-normal, σ 0.1': (r, c) => c * Math.exp(0.1 * normal(r)),
    'log-normal, σ 0.3': (r, c) => c * Math.exp(0.3 * normal(r)),
  }

  function errors(shape: (r: () => number, c: number) => number) {
    const out: Array<{ ns: number; q: string; rel: number }> = []
    centres.forEach((ns, i) => {
      const r = rng(1000 + i)
      const reads = Array.from({ length: 2000 }, () => Math.max(1, Math.round(shape(r, ns / NS))))
      const sorted = [...reads].sort((a, b) => a - b)
      const p = estimate(reads)
      for (const [q, got] of [
        ['p50', p.p50],
        ['p99', p.p99],
      ] as const) {
        const want = truth(sorted, q === 'p50' ? 0.5 : 0.99)
        if (want >= binEdge(SPEC, SPEC.bins) || want * NS > 30_000) continue // past the overflow edge: a lower bound only
        out.push({ ns: want * NS, q, rel: Math.abs(got / NS - want) / want })
      }
    })
    return out
  }

  it.each(Object.keys(shapes))('%s: within one sub-bin (< 1/S = 12.5 %) everywhere', (name) => {
    const e = errors(shapes[name]!)
    expect(e.length).toBeGreaterThan(centres.length)
    expect(Math.min(...e.map((x) => x.ns))).toBeLessThanOrEqual(12)
    expect(Math.max(...e.map((x) => x.ns))).toBeGreaterThan(20_000)
    for (const x of e) expect(x.rel, `${x.q} at ${x.ns.toFixed(0)} ns`).toBeLessThan(BOUND)
  })

  // measured, not derived: with the reads spread over several bins the interpolation beats the
  // bound; p99 rests on the few reads of its bin, so it keeps more of it
  it('reads spread over several bins: p50 within 3 %, p99 within 6.25 % (half the bound) everywhere', () => {
    for (const name of ['uniform over ±20 %', 'log-normal, σ 0.1', 'log-normal, σ 0.3']) {
      for (const x of errors(shapes[name]!))
        expect(x.rel, `${name}: ${x.q} at ${x.ns.toFixed(0)} ns`).toBeLessThan(x.q === 'p50' ? 0.03 : BOUND / 2)
    }
  })

  it('flags a p99 past the overflow edge as a lower bound at that edge', () => {
    const p = estimate(Array.from({ length: 100 }, (_, i) => (i < 90 ? 5000 : 9000)))
    expect(p.overflow).toBe(true)
    expect(p.p99).toBe(8192 * NS)
  })
})

const counters = (o: Partial<Counters>): Counters => ({ ...(Object.fromEntries(COUNTERS.map((c) => [c.key, 0])) as Counters), ...o })

describe('observedLatency', () => {
  it('bounds a histogram with its kind’s min and max', () => {
    const c = counters({ latLastCount: 10, latLastMin: 200, latLastMax: 300, latFirstCount: 10, latFirstMin: 100, latFirstMax: 150 })
    expect(observedLatency(c, 'last', 10)).toEqual({ minClocks: 200, maxClocks: 300 })
    expect(observedLatency(c, 'first', 8)).toEqual({ minClocks: 100, maxClocks: 150 })
  })

  it('gives none before a read completed or when the counters hold fewer reads (a clear between)', () => {
    expect(observedLatency(counters({ latLastMin: 2 ** 64 - 1 }), 'last', 0)).toBeUndefined()
    expect(observedLatency(counters({ latLastCount: 5, latLastMin: 200, latLastMax: 300 }), 'last', 10)).toBeUndefined()
  })

  it('turns p50 894 ns of reads that took at least 1016 ns into one inside what was seen', () => {
    const bins = empty()
    bins[3] = 100 // [768, 1024) ns at 250 MHz
    expect(latencyPercentilesNs(bins, LINEAR, 250e6)?.p50).toBe(894)
    const c = counters({ latLastCount: 100, latLastMin: 254, latLastMax: 255 })
    expect(latencyPercentilesNs(bins, LINEAR, 250e6, observedLatency(c, 'last', 100))?.p50).toBe(1018)
  })
})
