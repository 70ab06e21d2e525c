import { describe, expect, it } from 'vitest'
import { MIN_SPAN_S, normalRange, panBy, rangeFigures, Ring, runWindow, zoomAround, type IntervalDelta } from '../../web/time-range.js'

const HZ = 250e6

/** an interval of 0.1 s ending at t: 1000 reads of 128 B, 20 in flight, 1 µs each */
const delta = (t: number, over: Partial<IntervalDelta> = {}): IntervalDelta => ({
  t,
  seconds: 0.1,
  mrd: 1000,
  payloadBytes: 128_000,
  outstandingSum: 20 * 25e6,
  trackerCycles: 25e6,
  latencySum: 1000 * 250,
  latencyCount: 1000,
  ...over,
})

describe('time ranges', () => {
  it('orders a window and keeps it at least MIN_SPAN_S wide', () => {
    expect(normalRange(2, 1)).toEqual({ from: 1, to: 2 })
    const narrow = normalRange(1, 1)
    expect(narrow.to - narrow.from).toBeCloseTo(MIN_SPAN_S, 12)
    expect((narrow.from + narrow.to) / 2).toBe(1)
  })

  it('zooms around a point that stays put, and pans by a shift', () => {
    expect(zoomAround({ from: 0, to: 10 }, 5, 0.5)).toEqual({ from: 2.5, to: 7.5 })
    expect(zoomAround({ from: 0, to: 10 }, 0, 2)).toEqual({ from: 0, to: 20 })
    expect(zoomAround({ from: 0, to: 10 }, 5, NaN)).toEqual({ from: 0, to: 10 })
    expect(panBy({ from: 1, to: 2 }, 0.5)).toEqual({ from: 1.5, to: 2.5 })
  })

  it('sums the intervals ending inside a range: GB/s, requests, reads in flight, latency', () => {
    const ds = [delta(0.1), delta(0.2), delta(0.3, { payloadBytes: 256_000, mrd: 2000, latencyCount: 0, latencySum: 0 })]
    const f = rangeFigures(ds, { from: 0.15, to: 0.35 }, HZ)
    expect(f.intervals).toBe(2)
    expect(f.requests).toBe(3000)
    expect(f.seconds).toBeCloseTo(0.2)
    expect(f.gbps).toBeCloseTo(384_000 / 0.2 / 1e9, 12)
    expect(f.mrdPerSec).toBeCloseTo(15_000)
    expect(f.inFlight).toBe(20)
    // only the interval with completions counts toward the mean: 250 clocks = 1000 ns
    expect(f.meanLatencyNs).toBeCloseTo(1000)
    expect(f.latencyReads).toBe(1000)
  })

  it('says nothing of a range that holds no interval', () => {
    const f = rangeFigures([delta(1)], { from: 2, to: 3 }, HZ)
    expect(f).toMatchObject({ intervals: 0, gbps: null, mrdPerSec: null, inFlight: null, meanLatencyNs: null })
  })

  it("widens a run's band by a margin; a run still going ends at the newest point", () => {
    expect(runWindow({ from: 1, to: 2 }, undefined)).toEqual({ from: 0.95, to: 2.05 })
    expect(runWindow({ from: 1, to: undefined }, 3)).toEqual({ from: 0.9, to: 3.1 })
    expect(runWindow({ from: 1, to: undefined }, undefined)).toBeNull()
  })

  it('keeps the newest values of a ring, oldest first', () => {
    const r = new Ring<number>(3)
    for (const v of [1, 2, 3, 4, 5]) r.push(v)
    expect([...r]).toEqual([3, 4, 5])
    expect(r.length).toBe(3)
    r.clear()
    expect([...r]).toEqual([])
  })
})
