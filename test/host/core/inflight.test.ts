import { describe, expect, it } from 'vitest'
import { COUNTERS } from '../../../host/src/core/generated.js'
import { binEdges, linearLayout } from '../../../host/src/core/latency-histogram.js'
import type { Counters } from '../../../host/src/core/probe.js'
import { inflightSummary } from '../../../host/src/core/inflight.js'

const zero = (): Counters => Object.fromEntries(COUNTERS.map((c) => [c.key, 0])) as Counters
const EMPTY_MIN = 2 ** 64 - 1 // what an empty minimum decodes to
// 64 equal bins of 64 clocks (a layout of one linear part): easy edges to reason about
const LINEAR = linearLayout(64, 65)

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
    const bins = Array<number>(LINEAR.bins + 1).fill(0)
    bins[3] = 100
    const s = inflightSummary(c, 250e6, null, { last: { bins, layout: LINEAR } })
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
    const bins = Array<number>(LINEAR.bins + 1).fill(0)
    bins[4] = 98 // [256, 320) clocks
    bins[6] = 2 // [384, 448)
    const firstBins = Array<number>(LINEAR.bins + 1).fill(0)
    firstBins[3] = 100 // [192, 256) clocks
    const s = inflightSummary(c, 250e6, null, { last: { bins, layout: LINEAR }, first: { bins: firstBins, layout: LINEAR } })
    // inside the bins narrowed to the counted min (260) and max (400) clocks
    expect(s.latencyNs.last.p50).toBeCloseTo(((260 + 59 * (50 / 98)) * 1e9) / 250e6)
    expect(s.latencyNs.last.p99).toBeCloseTo(((384 + 16 * 0.5) * 1e9) / 250e6)
    expect(s.latencyNs.first.p50).toBeCloseTo(((192 + 31.5) * 1e9) / 250e6)
    expect(s.latencyNs.first.p99).toBeCloseTo(((192 + 63 * 0.99) * 1e9) / 250e6)
    expect(s.latencyHistograms).toEqual({
      last: { edgesNs: binEdges(LINEAR).map((e) => e * 4), bins, overflow: false },
      first: { edgesNs: binEdges(LINEAR).map((e) => e * 4), bins: firstBins, overflow: false },
    })
    // a histogram of another snapshot (its total differs from its kind's count) is not mixed in
    const other = inflightSummary(c, 250e6, null, {
      last: { bins: bins.map((b) => b * 2), layout: LINEAR },
      first: { bins, layout: LINEAR },
    })
    expect(other.latencyNs.last.p50).toBeNull()
    expect(other.latencyNs.first.p50).toBeCloseTo(((256 + 63 * (50 / 98)) * 1e9) / 250e6) // the first kind's min/max are 0: no bounds
    expect(other.latencyHistograms.last).toBeNull()
    // each histogram is checked against its own kind's count: the last's bins do not stand in for the first's
    const swapped = inflightSummary({ ...c, latFirstCount: 99 }, 250e6, null, { first: { bins, layout: LINEAR } })
    expect(swapped.latencyHistograms.first).toBeNull()
  })
})
