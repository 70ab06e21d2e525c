import { describe, expect, it } from 'vitest'
import { COUNTERS, HISTOGRAM_WORDS } from '../../../host/src/core/generated.js'
import type { Counters } from '../../../host/src/core/probe.js'
import { inflightSummary } from '../../../host/src/core/inflight.js'

const zero = (): Counters => Object.fromEntries(COUNTERS.map((c) => [c.key, 0])) as Counters
const EMPTY_MIN = 2 ** 64 - 1 // what an empty minimum decodes to

describe('inflightSummary', () => {
  it('derives average outstanding, latencies in ns and Little’s law from the tracker counters', () => {
    const c = zero()
    Object.assign(c, {
      cycles: 1_000_000,
      trackerCycles: 1_000_000,
      outstandingSum: 200_000_000, // 200 on average
      outstandingPeak: 230,
      latFirstCount: 800_000,
      latFirstSum: 800_000 * 250,
      latFirstMin: 250,
      latFirstMax: 260,
      latLastCount: 800_000,
      latLastSum: 800_000 * 250, // rate 0.8/clock × 250 clocks = 200
      latLastMin: 250,
      latLastMax: 260,
      cpldCount: 800_000,
      cpldBytes: 800_000 * 128,
      cplUr: 2,
      cplCount: 2,
      readTimeouts: 1,
    })
    const s = inflightSummary(c, 250e6, 256)
    expect(s.durationNs).toBeCloseTo(4e6)
    expect(s.outstanding).toEqual({ avg: 200, peak: 230, tagBudget: 256 })
    expect(s.latencyNs.last).toEqual({ min: 1000, mean: 1000, p50: null, p99: null, max: 1040, count: 800_000 })
    expect(s.latencyHistograms).toEqual({ first: null, last: null })
    expect(s.latencyNs.first.mean).toBeCloseTo(1000)
    expect(s.littlesLaw).toEqual({ rateTimesLatency: 200, measuredOutstanding: 200, errorPercent: 0 })
    expect(s.completions).toMatchObject({
      count: 800_000,
      bytes: 800_000 * 128,
      withoutData: 2,
      byStatus: { ur: 2, ca: 0, other: 0 },
      timeouts: 1,
    })
  })

  it('reports Little’s law off when reads leave the window unfinished', () => {
    const c = zero()
    Object.assign(c, { trackerCycles: 1000, outstandingSum: 100_000, latLastCount: 300, latLastSum: 90_000 })
    expect(inflightSummary(c, 250e6, null).littlesLaw?.errorPercent).toBeCloseTo(-10)
  })

  it('says nothing about latency before a read completes (an empty minimum reads all ones)', () => {
    const c = zero()
    Object.assign(c, { latFirstMin: EMPTY_MIN, latLastMin: EMPTY_MIN })
    const s = inflightSummary(c, 250e6, null)
    expect(s.latencyNs.last).toEqual({ min: null, mean: null, p50: null, p99: null, max: null, count: 0 })
    expect(s.latencyNs.first.min).toBeNull()
    expect(s.littlesLaw).toBeNull()
    expect(s.outstanding.avg).toBe(0)
  })

  it('keeps p50 and p99 within the smallest and largest latency the probe counted', () => {
    const c = zero()
    // every read took 254 or 255 clocks (1016–1020 ns): all in the [192, 256)-clock bin
    Object.assign(c, { trackerCycles: 1000, latLastCount: 100, latLastSum: 100 * 254.5, latLastMin: 254, latLastMax: 255 })
    const bins = Array<number>(HISTOGRAM_WORDS).fill(0)
    bins[3] = 100
    const s = inflightSummary(c, 250e6, null, { last: { bins, binClocks: 64 } })
    expect(s.latencyNs.last.min).toBe(1016)
    expect(s.latencyNs.last.p50).toBeCloseTo(1018)
    expect(s.latencyNs.last.p99).toBeGreaterThanOrEqual(s.latencyNs.last.p50!)
    expect(s.latencyNs.last.p99).toBeLessThanOrEqual(s.latencyNs.last.max!)
  })

  it('takes p50/p99 of each kind from its histogram of the same snapshot', () => {
    const c = zero()
    Object.assign(c, {
      trackerCycles: 1000,
      latLastCount: 100,
      latLastSum: 100 * 300,
      latLastMin: 260,
      latLastMax: 400,
      latFirstCount: 100,
      latFirstSum: 100 * 200,
    })
    const bins = Array<number>(HISTOGRAM_WORDS).fill(0)
    bins[4] = 98 // [256, 320) clocks
    bins[6] = 2 // [384, 448)
    const firstBins = Array<number>(HISTOGRAM_WORDS).fill(0)
    firstBins[3] = 100 // [192, 256) clocks
    const s = inflightSummary(c, 250e6, null, { last: { bins, binClocks: 64 }, first: { bins: firstBins, binClocks: 64 } })
    // inside the bins narrowed to the counted min (260) and max (400) clocks
    expect(s.latencyNs.last.p50).toBeCloseTo(((260 + 60 * (50 / 98)) * 1e9) / 250e6)
    expect(s.latencyNs.last.p99).toBeCloseTo(((384 + 16 * 0.5) * 1e9) / 250e6)
    expect(s.latencyNs.first.p50).toBeCloseTo(((192 + 32) * 1e9) / 250e6)
    expect(s.latencyNs.first.p99).toBeCloseTo(((192 + 64 * 0.99) * 1e9) / 250e6)
    expect(s.latencyHistograms).toEqual({
      last: { binNs: 256, bins, overflow: false },
      first: { binNs: 256, bins: firstBins, overflow: false },
    })
    // a histogram of another snapshot (its total differs from its kind's count) is not mixed in
    const other = inflightSummary(c, 250e6, null, { last: { bins: bins.map((b) => b * 2), binClocks: 64 }, first: { bins, binClocks: 64 } })
    expect(other.latencyNs.last.p50).toBeNull()
    expect(other.latencyNs.first.p50).toBeCloseTo(((256 + 64 * (50 / 98)) * 1e9) / 250e6) // the first kind's min/max are 0: no bounds
    expect(other.latencyHistograms.last).toBeNull()
    // each histogram is checked against its own kind's count: the last's bins do not stand in for the first's
    const swapped = inflightSummary({ ...c, latFirstCount: 99 }, 250e6, null, { first: { bins, binClocks: 64 } })
    expect(swapped.latencyHistograms.first).toBeNull()
  })
})
