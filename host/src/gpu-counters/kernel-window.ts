/**
 * Where a run's kernels lie on the counter source's clock. The runner reports its phases on the
 * host's clock; the samples carry the source's (the GPU's global timer, or NVML's host clock).
 * Each batch arrives after its last sample ended, so arrival − that end is the offset between the
 * clocks plus a delay of at most one decode period: the smallest over the run bounds the offset
 * from above within that period. Pure: host/src/cli/capture-counters.ts feeds it.
 */
import type { GpuCounterSample } from './samples.js'

export interface BatchArrival {
  /** host ns when the batch reached the JS thread */
  hostNs: number
  /** the source's ns (since its origin) where the batch's last sample ended */
  lastEndNs: number
}

/** host ns = source ns + offsetNs, within the decode period (offset an upper bound). */
export const clockOffsetNs = (arrivals: readonly BatchArrival[]): number | null =>
  arrivals.length === 0 ? null : Math.min(...arrivals.map((a) => a.hostNs - a.lastEndNs))

/** The samples whose middle lies in [fromHostNs, toHostNs] on the host's clock. */
export const samplesWithin = (
  samples: readonly GpuCounterSample[],
  offsetNs: number,
  fromHostNs: number,
  toHostNs: number,
): GpuCounterSample[] =>
  samples.filter((s) => {
    const mid = (s.startNs + s.endNs) / 2 + offsetNs
    return mid >= fromHostNs && mid <= toHostNs
  })
