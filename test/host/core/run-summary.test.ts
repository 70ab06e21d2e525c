import { describe, expect, it } from 'vitest'
import { HISTOGRAM_WORDS } from '../../../host/src/core/generated.js'
import { histogramDelta, LIMIT_FRACTION, summarizeRun, summaryRows } from '../../../host/src/core/run-summary.js'
import { CLOCK_HZ, input, runCounters, zeroCounters } from './run-fixtures.js'
import { binOf, SPEC_HISTOGRAM_LAYOUT } from '../../../host/src/core/latency-histogram.js'

describe('summarizeRun', () => {
  it('gives GB/s of payload, request rate, wire efficiency and reads in flight against the tag budget', () => {
    // 128-B reads, 12.1 GB/s over 1 ms
    const reads = 94_531
    const s = summarizeRun(input(runCounters({ reads, size: 128, micros: 1000, inFlight: 94.5, latencyNs: 1000, peak: 120 })))
    expect(s.seconds).toBeCloseTo(1e-3)
    expect(s.gbPerSecond).toBeCloseTo((reads * 128) / 1e-3 / 1e9, 6)
    expect(s.requests.perSecond).toBeCloseTo(reads / 1e-3)
    expect(s.requests.meanBytes).toBe(128)
    // a CplD of 128 B costs 148 B on the wire; an MRd 24 B the other way (docs/pcie.md)
    expect(s.wire.efficiency).toBeCloseTo(128 / 148, 6)
    expect(s.wire.completionBytes).toBe(reads * 148)
    expect(s.wire.requestBytes).toBe(reads * 24)
    expect(s.inFlight).toMatchObject({ avg: 94.5, peak: 120, tagBudget: 256 })
    expect(s.inFlight.avgOfBudget).toBeCloseTo(94.5 / 256)
    expect(s.ceiling.gbPerSecond).toBeCloseTo((14.21 * 128) / 148, 6)
    expect(s.latencyNs.mean).toBeCloseTo(1000)
  })

  it('takes p50 / p99 from the run histogram, clamped to the observed min / max', () => {
    const c = runCounters({ reads: 1000, size: 128, micros: 100, inFlight: 10, latencyNs: 1000 })
    c.latLastMin = 250
    c.latLastMax = 255 // 1000..1020 ns
    const bins = new Array<number>(HISTOGRAM_WORDS).fill(0)
    bins[binOf(SPEC_HISTOGRAM_LAYOUT, 250)] = 1000 // [240, 256) clocks
    const s = summarizeRun(input(c, { histograms: { last: { bins, layout: SPEC_HISTOGRAM_LAYOUT } } }))
    expect(s.latencyNs.p50).toBeGreaterThanOrEqual(1000)
    expect(s.latencyNs.p99).toBeLessThanOrEqual(1020)
    expect(s.latencyNs.p50).toBeCloseTo(1010) // mid-way through the observed span, not the bin's middle (990 ns)
    expect(s.latencyNs.atLeast).toBe(false)
  })

  it('ignores a histogram that does not hold the run’s reads', () => {
    const c = runCounters({ reads: 1000, size: 128, micros: 100, inFlight: 10, latencyNs: 1000 })
    const bins = new Array<number>(HISTOGRAM_WORDS).fill(0)
    bins[binOf(SPEC_HISTOGRAM_LAYOUT, 250)] = 999
    expect(summarizeRun(input(c, { histograms: { last: { bins, layout: SPEC_HISTOGRAM_LAYOUT } } })).latencyNs).toMatchObject({
      p50: null,
      p99: null,
    })
  })

  it('subtracts the baseline histogram from the end one (the probe counts since its clear)', () => {
    const l8 = { subBins: 2, firstEdgeClocks: 8, bins: 2 }
    expect(histogramDelta({ bins: [5, 7, 1], layout: l8 }, { bins: [2, 7, 0], layout: l8 })).toEqual({ bins: [3, 0, 1], layout: l8 })
    // a baseline of another shape cannot be subtracted: the end one stands
    const l16 = { subBins: 2, firstEdgeClocks: 16, bins: 1 }
    const l8b = { subBins: 2, firstEdgeClocks: 8, bins: 1 }
    expect(histogramDelta({ bins: [5, 7], layout: l8b }, { bins: [2, 7], layout: l16 })).toEqual({ bins: [5, 7], layout: l8b })
  })

  it('compares the model with the probe', () => {
    const c = runCounters({ reads: 100, size: 128, micros: 10, inFlight: 5, latencyNs: 500 })
    expect(summarizeRun(input(c, { issued: { count: 100, bytes: 12_800 } })).model).toEqual({
      issued: 100,
      issuedBytes: 12_800,
      matchesProbe: true,
    })
    expect(summarizeRun(input(c, { issued: { count: 99, bytes: 12_672 } })).model?.matchesProbe).toBe(false)
    expect(summarizeRun(input(c)).model).toBeNull()
  })
})

describe('the limit a run hit (docs/bench.md)', () => {
  it('link: payload at 90 % of the link ceiling or more', () => {
    const s = summarizeRun(input(runCounters({ reads: 94_531, size: 128, micros: 1000, inFlight: 94.5, latencyNs: 1000 })))
    expect(s.ceiling.fraction).toBeGreaterThanOrEqual(LIMIT_FRACTION)
    expect(s.limit.kind).toBe('link')
    expect(s.limit.why).toMatch(/of the gen3x16 ceiling/)
  })

  it('tags: 90 % of the tag budget in flight on average, below the link ceiling', () => {
    // 250 reads in flight at 2 µs: 125 M reads/s of 32 B = 4 GB/s, half the 32-B ceiling
    const s = summarizeRun(input(runCounters({ reads: 125_000, size: 32, micros: 1000, inFlight: 250, latencyNs: 2000, peak: 256 })))
    expect(s.ceiling.fraction).toBeLessThan(LIMIT_FRACTION)
    expect(s.limit.kind).toBe('tags')
    expect(s.tagBoundGbPerSecond).toBeCloseTo((256 * 32) / 2000, 6)
    expect(s.limit.why).toMatch(/250 of 256 tags/)
  })

  it('request rate: MRds at 90 % of one a probe clock, tags unknown and the link not full', () => {
    const s = summarizeRun(
      input(runCounters({ reads: 235_000, size: 32, micros: 1000, inFlight: 47, latencyNs: 200 }), { tagBudget: null }),
    )
    expect(s.ceiling.fraction).toBeLessThan(LIMIT_FRACTION)
    expect(s.requestRateCeiling).toBe(CLOCK_HZ)
    expect(s.limit.kind).toBe('request-rate')
  })

  it('the request rate ceiling is the link’s MRd rate where that is lower than the clock', () => {
    const slow = { name: 'gen1x1', tlpBytesPerSecond: 0.2e9 }
    const s = summarizeRun(input(runCounters({ reads: 100, size: 32, micros: 10, inFlight: 1, latencyNs: 100 }), { link: slow }))
    expect(s.requestRateCeiling).toBeCloseTo(0.2e9 / 24)
  })

  it('latency: none of the above; the reads in flight at their latency set the rate', () => {
    const s = summarizeRun(input(runCounters({ reads: 20_000, size: 64, micros: 1000, inFlight: 20, latencyNs: 1000 })))
    expect(s.limit.kind).toBe('latency')
    expect(s.limit.why).toMatch(/20 reads in flight of 256 tags at 1000 ns/)
  })

  it('none: no read completed', () => {
    const c = zeroCounters()
    c.cycles = 1000
    expect(summarizeRun(input(c)).limit.kind).toBe('none')
    // reads counted but no probe time: no rate to speak of
    const stopped = runCounters({ reads: 10, size: 64, micros: 1, inFlight: 1, latencyNs: 100 })
    stopped.cycles = 0
    expect(summarizeRun(input(stopped)).limit).toMatchObject({ kind: 'none', why: expect.stringMatching(/no probe time passed/) })
  })

  it('an unknown link has no ceiling, so a full-rate run is not called link-bound', () => {
    const s = summarizeRun(input(runCounters({ reads: 94_531, size: 128, micros: 1000, inFlight: 94.5, latencyNs: 1000 }), { link: null }))
    expect(s.ceiling).toEqual({ link: null, gbPerSecond: null, fraction: null })
    expect(s.limit.kind).toBe('latency')
  })
})

describe('summaryRows', () => {
  it('says each fact once, in words', () => {
    const rows = Object.fromEntries(
      summaryRows(summarizeRun(input(runCounters({ reads: 94_531, size: 128, micros: 1000, inFlight: 94.5, latencyNs: 1000 })))),
    )
    expect(Object.keys(rows)).toEqual([
      'payload',
      'requests',
      'wire efficiency',
      'reads in flight',
      'latency',
      'ceiling',
      'limit',
      'model vs probe',
    ])
    expect(rows['payload']).toBe('12.1 GB/s')
    expect(rows['wire efficiency']).toMatch(/^86.5 % payload/)
    expect(rows['limit']).toMatch(/^link ceiling: /)
    expect(rows['latency']).toBe('mean 1000 ns (no histogram of the run)')
  })
})
