// Placing a run's kernels on the counters' clock: the offset from batch arrivals, the samples in a window.
import { describe, expect, it } from 'vitest'
import { clockOffsetNs, samplesWithin } from '../../../host/src/gpu-counters/kernel-window.js'

describe('kernel-window', () => {
  it('takes the smallest arrival − end as the offset and keeps the samples whose middle lies in the window', () => {
    expect(clockOffsetNs([])).toBeNull()
    expect(
      clockOffsetNs([
        { hostNs: 1000, lastEndNs: 100 },
        { hostNs: 1500, lastEndNs: 700 },
        { hostNs: 2000, lastEndNs: 1000 },
      ]),
    ).toBe(800)
    const s = [0, 1, 2, 3].map((k) => ({ startNs: k * 10, endNs: k * 10 + 10, readBytes: k, writeBytes: 0 }))
    expect(samplesWithin(s, 100, 112, 120).map((x) => x.readBytes)).toEqual([1])
    expect(samplesWithin(s, 100, 105, 135).map((x) => x.readBytes)).toEqual([0, 1, 2, 3])
  })
})
