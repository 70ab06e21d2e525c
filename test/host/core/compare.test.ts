import { describe, expect, it } from 'vitest'
import { changeText, compareRuns, explainChange, littleFactors, SAME_SPEED } from '../../../host/src/core/compare.js'
import { entry, runCounters, zeroCounters } from './run-fixtures.js'

// 32-B reads, tag-bound: 250 reads in flight at 2 µs = 4 GB/s
const tagBound32 = () =>
  entry(1, runCounters({ reads: 125_000, size: 32, micros: 1000, inFlight: 250, latencyNs: 2000, peak: 256 }), {}, 'strided')
// 128-B reads at the same tags and latency: 4× the payload a read, link-bound near 12 GB/s
const linkBound128 = () => entry(2, runCounters({ reads: 94_531, size: 128, micros: 1000, inFlight: 189, latencyNs: 2000 }))

describe('explainChange: why a run was faster (docs/bench.md)', () => {
  it('names the payload per read when that factor of Little’s law moved most, with both limits', () => {
    const s = explainChange(tagBound32(), linkBound128())
    expect(s).toMatch(/^rec-2 #1 \(merged-aligned 1048576 B\) is 3× faster than rec-1 #1 \(strided 1048576 B\) \(4 → 12.1 GB\/s\)/)
    expect(s).toMatch(/each read carries 128 B against 32 B \(wire efficiency 61.5 % → 86.5 %\)/)
    expect(s).toMatch(
      /rec-1 #1 \(strided 1048576 B\) was held by the tags \(Little's law\), rec-2 #1 \(merged-aligned 1048576 B\) by the link ceiling\.$/,
    )
  })

  it('names the reads in flight when they moved most, and says slower the other way round', () => {
    const few = entry(1, runCounters({ reads: 20_000, size: 64, micros: 1000, inFlight: 20, latencyNs: 1000 }))
    const many = entry(2, runCounters({ reads: 60_000, size: 64, micros: 1000, inFlight: 60, latencyNs: 1000 }))
    expect(explainChange(few, many)).toMatch(/is 3× faster .*: it keeps 60 reads in flight against 20; both held by the latency\.$/)
    expect(explainChange(many, few)).toMatch(/is 3× slower .*: it keeps 20 reads in flight against 60;/)
  })

  it('names the latency when it moved most', () => {
    const slow = entry(1, runCounters({ reads: 20_000, size: 64, micros: 1000, inFlight: 40, latencyNs: 2000 }))
    const fast = entry(2, runCounters({ reads: 40_000, size: 64, micros: 1000, inFlight: 40, latencyNs: 1000 }))
    expect(explainChange(slow, fast)).toMatch(/is 2× faster .*: its reads take 1000 ns against 2000 ns; both held by the latency\.$/)
  })

  it(`calls rates within ${100 * SAME_SPEED} % the same speed`, () => {
    const a = entry(1, runCounters({ reads: 20_000, size: 64, micros: 1000, inFlight: 20, latencyNs: 1000 }))
    const b = entry(2, runCounters({ reads: 20_400, size: 64, micros: 1000, inFlight: 20.4, latencyNs: 1000 }))
    expect(explainChange(a, b)).toMatch(/runs at the speed of .* within 5 %\); both held by the latency\.$/)
  })

  it('has no rate to compare where a run completed no read', () => {
    const empty = zeroCounters()
    empty.cycles = 100
    expect(explainChange(tagBound32(), entry(3, empty))).toMatch(/^rec-3 #1 .* completed no read, so there is no rate to compare\.$/)
  })
})

describe('compareRuns', () => {
  it('puts every metric side by side with its change against the first run', () => {
    const c = compareRuns([tagBound32(), linkBound128()])
    const gb = c.metrics.find((m) => m.key === 'gbPerSecond')!
    expect(gb.values[0]).toBeCloseTo(4)
    expect(gb.changes[0]).toBe(0)
    expect(gb.changes[1]).toBeCloseTo(12.1 / 4 - 1, 2)
    expect(c.metrics.map((m) => m.key)).toEqual([
      'gbPerSecond',
      'requestsPerSecond',
      'meanRequestBytes',
      'efficiency',
      'inFlightAvg',
      'inFlightPeak',
      'latencyP50',
      'latencyP99',
      'ceilingFraction',
    ])
    // no histogram in these runs: p50 is unknown, and so is its change
    expect(c.metrics.find((m) => m.key === 'latencyP50')!.changes).toEqual([null, null])
    expect(c.limits).toEqual(["tags (Little's law)", 'link ceiling'])
    expect(c.sentences).toHaveLength(1)
  })

  it('needs two runs', () => {
    expect(() => compareRuns([tagBound32()])).toThrow(RangeError)
  })

  it('Little’s law factors multiply to the ratio of the rates', () => {
    const [a, b] = [littleFactors(tagBound32().summary)!, littleFactors(linkBound128().summary)!]
    const r = ((b.inFlight / a.inFlight) * (b.perRead / a.perRead) * a.latency) / b.latency
    expect(r).toBeCloseTo(linkBound128().summary.gbPerSecond / tagBound32().summary.gbPerSecond, 1)
  })

  it('writes changes as a reader reads them', () => {
    expect(changeText(0.123)).toBe('+12 %')
    expect(changeText(-0.034)).toBe('−3.4 %')
    expect(changeText(0)).toBe('0 %')
    expect(changeText(null)).toBe('–')
  })
})
