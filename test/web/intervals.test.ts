import { describe, expect, it } from 'vitest'
import type { IntervalBatch, IntervalRecord } from '../../host/src/core/probe.js'
import { intervalBatchPoints, intervalLimit, intervalPoint } from '../../web/intervals.js'

const CLOCK_HZ = 250e6
// about 14.5 GB/s of TLP bytes: gen3 x16 after coding and DLLPs, as the twin models it
const GEN3X16 = { name: 'gen3x16', tlpBytesPerSecond: 14.5e9 }

/** 2 500 clocks (10 µs) with `reads` 128-B reads, `avg` in flight on average, latency `lat` clocks. */
const rec = (ts: number, reads: number, avg: number, lat: number, peak = Math.ceil(avg)): IntervalRecord => ({
  ts,
  cycles: 2500,
  mrdCount: reads,
  mrdBytes: reads * 128,
  cpldCount: reads,
  cpldBytes: reads * 128,
  occSum: avg * 2500,
  occPeak: peak,
  latSum: reads * lat,
  latCount: reads,
})

const batch = (firstIndex: number, records: IntervalRecord[], dropped = 0): IntervalBatch => ({
  seq: 0,
  firstIndex,
  dropped,
  overflow: 0,
  records,
  receivedAt: 0,
})

describe('interval records as in-flight points', () => {
  it('gives average and peak outstanding, rates and Little’s law per interval at the probe clock', () => {
    // 800 reads in 10 µs at 1 µs each: 80 in flight by Little's law, 80 measured
    const p = intervalPoint(rec(10_000, 800, 80, 250, 96), CLOCK_HZ, GEN3X16)!
    expect(p.t).toBeCloseTo(10_000 / CLOCK_HZ)
    expect(p.avgOutstanding).toBe(80)
    expect(p.peakOutstanding).toBe(96)
    expect(p.meanLatency).toBeCloseTo(1e-6)
    expect(p.mrdPerSec).toBeCloseTo(80e6)
    expect(p.payloadPerSec).toBeCloseTo(80e6 * 128)
    expect(p.littleOutstanding).toBeCloseTo(80)
    expect(p.ceilingPerSec).toBeGreaterThan(p.payloadPerSec)
  })

  it('has no latency and no Little prediction for an interval without completions, and no point for an empty one', () => {
    const p = intervalPoint({ ...rec(5000, 0, 3, 0), latCount: 0, latSum: 0 }, CLOCK_HZ, null)!
    expect(p.meanLatency).toBeUndefined()
    expect(p.littleOutstanding).toBeUndefined()
    expect(p.ceilingPerSec).toBeUndefined()
    expect(intervalPoint({ ...rec(5000, 1, 1, 1), cycles: 0 }, CLOCK_HZ, null)).toBeUndefined()
    expect(intervalPoint(rec(5000, 1, 1, 1), 0, null)).toBeUndefined()
  })

  it('says where records are missing: dropped by the firmware, or a first index that does not follow', () => {
    const a = intervalBatchPoints(batch(0, [rec(2500, 10, 1, 250), rec(5000, 10, 1, 250)]), CLOCK_HZ, null, undefined)
    expect(a.points).toHaveLength(2)
    expect(a.gapBefore).toBe(false)
    expect(a.nextIndex).toBe(2)
    expect(intervalBatchPoints(batch(2, [rec(7500, 10, 1, 250)]), CLOCK_HZ, null, a.nextIndex).gapBefore).toBe(false)
    expect(intervalBatchPoints(batch(5, [rec(15_000, 10, 1, 250)]), CLOCK_HZ, null, a.nextIndex).gapBefore).toBe(true)
    expect(intervalBatchPoints(batch(2, [rec(7500, 10, 1, 250)], 3), CLOCK_HZ, null, a.nextIndex).gapBefore).toBe(true)
    // the firmware's index wraps at 2^32
    expect(intervalBatchPoints(batch(2 ** 32 - 1, [rec(1, 1, 1, 1), rec(2, 1, 1, 1)]), CLOCK_HZ, null, undefined).nextIndex).toBe(1)
  })

  it('names the limit of an interval: tags, wire or latency', () => {
    // 240 of 256 tags in flight at 4 µs each: 600 reads of 128 B in 10 µs, 7.7 GB/s, under the
    // wire's ceiling: tag-bound, whatever the latency
    const tags = intervalPoint(rec(2500, 600, 240, 1000), CLOCK_HZ, GEN3X16)!
    expect(intervalLimit(tags, 256)).toBe('tags')
    // payload at the gen3 x16 ceiling, latency queued above the bare one: wire-bound
    const ceiling = intervalPoint(rec(2500, 10, 1, 250), CLOCK_HZ, GEN3X16)!.ceilingPerSec!
    const reads = Math.ceil((ceiling * 1e-5) / 128)
    const wire = intervalPoint(rec(2500, reads, 200, 500), CLOCK_HZ, GEN3X16)!
    expect(intervalLimit(wire, 256)).toBe('wire')
    // few reads in flight, far from both: latency-bound
    const latency = intervalPoint(rec(2500, 100, 10, 250), CLOCK_HZ, GEN3X16)!
    expect(intervalLimit(latency, 256)).toBe('latency')
  })
})
