import { describe, expect, it } from 'vitest'
import { COUNTERS } from '../../../host/src/core/generated.js'
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
      readTimeouts: 1,
    })
    const s = inflightSummary(c, 250e6, 256)
    expect(s.durationNs).toBeCloseTo(4e6)
    expect(s.outstanding).toEqual({ avg: 200, peak: 230, tagBudget: 256 })
    expect(s.latencyNs.last).toEqual({ min: 1000, mean: 1000, max: 1040, count: 800_000 })
    expect(s.latencyNs.first.mean).toBeCloseTo(1000)
    expect(s.littlesLaw).toEqual({ rateTimesLatency: 200, measuredOutstanding: 200, errorPercent: 0 })
    expect(s.completions).toMatchObject({ count: 800_000, bytes: 800_000 * 128, byStatus: { ur: 2, ca: 0, other: 0 }, timeouts: 1 })
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
    expect(s.latencyNs.last).toEqual({ min: null, mean: null, max: null, count: 0 })
    expect(s.latencyNs.first.min).toBeNull()
    expect(s.littlesLaw).toBeNull()
    expect(s.outstanding.avg).toBe(0)
  })
})
