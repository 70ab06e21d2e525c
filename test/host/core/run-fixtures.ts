/** Runs made to order for the summary, compare and report tests: the probe's counters of a run of known shape. */
import { COUNTERS, type CounterKey } from '../../../host/src/core/generated.js'
import type { Counters } from '../../../host/src/core/probe.js'
import type { PcieLinkInfo } from '../../../host/src/core/link.js'
import { summarizeRun, type RunEntry, type RunSummaryInput } from '../../../host/src/core/run-summary.js'

export const CLOCK_HZ = 250e6
/** gen3x16 as the twin models it (docs/pcie.md: 14.21 GB/s of TLPs) */
export const GEN3X16: PcieLinkInfo = { name: 'gen3x16', tlpBytesPerSecond: 14.21e9 }

export const zeroCounters = (): Counters => Object.fromEntries(COUNTERS.map((c) => [c.key, 0])) as Counters

/**
 * A run of `reads` reads of `size` B over `micros` µs of probe time, `inFlight` reads in flight on
 * average and every read taking `latencyNs` (so Little's law holds when the numbers agree).
 */
export function runCounters(o: {
  reads: number
  size: 32 | 64 | 128 | 256
  micros: number
  inFlight: number
  latencyNs: number
  peak?: number
}): Counters {
  const c = zeroCounters()
  const cycles = Math.round(o.micros * 1e-6 * CLOCK_HZ)
  const latClocks = Math.round((o.latencyNs * CLOCK_HZ) / 1e9)
  const sizeKey = `mrd${o.size}` as CounterKey
  Object.assign(c, {
    cycles,
    trackerCycles: cycles,
    timestamp: cycles,
    [sizeKey]: o.reads,
    mrdBytes: o.reads * o.size,
    cpldCount: o.reads,
    cpldBytes: o.reads * o.size,
    outstandingSum: Math.round(o.inFlight * cycles),
    outstandingPeak: o.peak ?? Math.ceil(o.inFlight),
    latLastCount: o.reads,
    latLastSum: o.reads * latClocks,
    latLastMin: latClocks,
    latLastMax: latClocks,
    latFirstCount: o.reads,
    latFirstSum: o.reads * latClocks,
    latFirstMin: latClocks,
    latFirstMax: latClocks,
  })
  return c
}

export const input = (counters: Counters, o: Partial<RunSummaryInput> = {}): RunSummaryInput => ({
  counters,
  clockHz: CLOCK_HZ,
  tagBudget: 256,
  link: GEN3X16,
  ...o,
})

export const entry = (
  id: number,
  counters: Counters,
  o: Partial<RunSummaryInput> = {},
  pattern: 'strided' | 'merged-aligned' = 'merged-aligned',
): RunEntry => ({
  key: `rec-${id}#1`,
  recording: `rec-${id}`,
  id: 1,
  origin: 'capture',
  source: 'twin',
  workload: { pattern, bytes: 1 << 20, offset: 0 },
  at: 1_700_000_000_000 + id,
  summary: summarizeRun(input(counters, o)),
})
