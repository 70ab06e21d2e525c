import { describe, expect, it } from 'vitest'
import { HISTOGRAM_WORDS } from '../../../host/src/core/generated.js'
import { histogramQuantile, histogramTotal, latencyPercentilesNs } from '../../../host/src/core/latency-histogram.js'

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
