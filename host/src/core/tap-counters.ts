/**
 * One tap's counters out of a reading of every tap: tap 0's travel in the SNAPSHOT frame, the
 * further taps' (the switch design's host side) in TAP_SNAPSHOT frames of the same snapshot.
 */
import { TAPS, type TapKey } from './generated.js'
import type { Counters } from './probe.js'

/** An on-demand reading, as `ProbeClient.latencyHistograms` gives it (a design with one tap has no `taps`). */
export interface TapsReading {
  snapshot: { counters: Counters }
  taps?: Partial<Record<TapKey, { snapshot: { counters: Counters } }>>
}

/** Tap `tap`'s counters in `reading`; undefined when that tap's frames are not in it. */
export const tapCounters = (reading: TapsReading, tap: number): Counters | undefined => {
  if (tap === 0) return reading.snapshot.counters
  const key = TAPS[tap]?.key
  return key === undefined ? undefined : reading.taps?.[key]?.snapshot.counters
}
