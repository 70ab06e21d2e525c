import { describe, expect, it } from 'vitest'
import { HISTOGRAM_WORDS } from '../../../host/src/core/generated.js'
import {
  binEdges,
  histogramQuantile,
  histogramTotal,
  latencyPercentilesNs,
  observedLatency,
} from '../../../host/src/core/latency-histogram.js'
import { COUNTERS } from '../../../host/src/core/generated.js'
import type { Counters } from '../../../host/src/core/probe.js'

const empty = (): number[] => Array<number>(HISTOGRAM_WORDS).fill(0)

describe('histogramQuantile', () => {
  it('interpolates linearly inside the bin where the running count reaches q × total', () => {
    const bins = empty()
    bins[2] = 10 // [128, 192) at 64 clocks a bin
    bins[3] = 30 // [192, 256)
    expect(histogramTotal(bins)).toBe(40)
    // rank 20: 10 before bin 3, 10 of its 30 → a third into it
    expect(histogramQuantile(bins, 64, 0.5)).toEqual({ clocks: 192 + 64 / 3, atLeast: false })
    // rank 4: 4 of bin 2's 10
    expect(histogramQuantile(bins, 64, 0.1)).toEqual({ clocks: 128 + 64 * 0.4, atLeast: false })
    // q = 1 is the upper edge of the last non-empty bin
    expect(histogramQuantile(bins, 64, 1)).toEqual({ clocks: 256, atLeast: false })
  })

  it('puts p50 of reads that all share one bin in its middle', () => {
    const bins = empty()
    bins[18] = 1000
    expect(histogramQuantile(bins, 64, 0.5)?.clocks).toBe(18.5 * 64)
  })

  it('skips empty bins at the rank boundary (a quantile never lands in an empty bin)', () => {
    const bins = empty()
    bins[0] = 50
    bins[5] = 50
    expect(histogramQuantile(bins, 64, 0.5)).toEqual({ clocks: 64, atLeast: false })
    expect(histogramQuantile(bins, 64, 0.51)?.clocks).toBeCloseTo(5 * 64 + 64 * (1 / 50))
  })

  it('reports a quantile in the overflow bin as its lower edge, at least', () => {
    const bins = empty()
    bins[1] = 90
    bins[HISTOGRAM_WORDS - 1] = 10
    expect(histogramQuantile(bins, 64, 0.99)).toEqual({ clocks: (HISTOGRAM_WORDS - 1) * 64, atLeast: true })
    expect(histogramQuantile(bins, 64, 0.5)?.atLeast).toBe(false)
  })

  it('narrows the bin to the observed min and max before interpolating', () => {
    const bins = empty()
    bins[3] = 100 // [192, 256) clocks; every read took 254 or 255
    const observed = { minClocks: 254, maxClocks: 255 }
    expect(histogramQuantile(bins, 64, 0.5, observed)).toEqual({ clocks: 254.5, atLeast: false })
    expect(histogramQuantile(bins, 64, 1, observed)?.clocks).toBe(255)
    // the overflow bin's lower edge is raised to the minimum, never past the maximum
    const over = empty()
    over[HISTOGRAM_WORDS - 1] = 10
    expect(histogramQuantile(over, 64, 0.5, { minClocks: 5000, maxClocks: 6000 })).toEqual({ clocks: 5000, atLeast: true })
  })

  it('is null for an empty histogram and refuses a quantile outside (0, 1]', () => {
    expect(histogramQuantile(empty(), 64, 0.5)).toBeNull()
    expect(() => histogramQuantile(empty(), 64, 0)).toThrow(RangeError)
    expect(() => histogramQuantile(empty(), 64, 1.5)).toThrow(RangeError)
  })
})

describe('latencyPercentilesNs', () => {
  it('converts p50 and p99 to ns at the probe clock', () => {
    const bins = empty()
    bins[18] = 100 // [1152, 1216) clocks = [4608, 4864) ns at 250 MHz
    const p = latencyPercentilesNs(bins, 64, 250e6)
    expect(p?.p50).toBeCloseTo(4736)
    expect(p?.p99).toBeCloseTo((1152 + 64 * 0.99) * 4)
    expect(p?.overflow).toBe(false)
    expect(latencyPercentilesNs(empty(), 64, 250e6)).toBeNull()
  })
})

describe('observedLatency', () => {
  const counters = (o: Partial<Counters>): Counters => ({ ...(Object.fromEntries(COUNTERS.map((c) => [c.key, 0])) as Counters), ...o })

  it('bounds a histogram with its kind’s min and max', () => {
    const c = counters({ latLastCount: 10, latLastMin: 200, latLastMax: 300, latFirstCount: 10, latFirstMin: 100, latFirstMax: 150 })
    expect(observedLatency(c, 'last', 10)).toEqual({ minClocks: 200, maxClocks: 300 })
    expect(observedLatency(c, 'first', 8)).toEqual({ minClocks: 100, maxClocks: 150 })
  })

  it('gives none before a read completed or when the counters hold fewer reads (a clear between)', () => {
    expect(observedLatency(counters({ latLastMin: 2 ** 64 - 1 }), 'last', 0)).toBeUndefined()
    expect(observedLatency(counters({ latLastCount: 5, latLastMin: 200, latLastMax: 300 }), 'last', 10)).toBeUndefined()
  })

  it('turns p50 896 ns of reads that took at least 1016 ns into one inside what was seen', () => {
    const bins = empty()
    bins[3] = 100 // [768, 1024) ns at 250 MHz
    expect(latencyPercentilesNs(bins, 64, 250e6)?.p50).toBe(896)
    const c = counters({ latLastCount: 100, latLastMin: 254, latLastMax: 255 })
    expect(latencyPercentilesNs(bins, 64, 250e6, observedLatency(c, 'last', 100))?.p50).toBe(1018)
  })
})

describe('binEdges', () => {
  it("gives each bin's lower edge in clocks: equal widths today", () => {
    expect(binEdges(4, 64)).toEqual([0, 64, 128, 192])
    expect(binEdges(0, 64)).toEqual([])
  })
})
