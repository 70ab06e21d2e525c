/**
 * Rates between two snapshots: the one rule the live page and the exports share. Time is the
 * cycles the counters were enabled (CYCLES delta / clockHz): simulated on the twin, wall time on a
 * board. Browser-safe: imports only core.
 */
import { payloadCeiling, type PcieLinkInfo } from './link.js'
import { COUNTERS, type CounterKey } from './generated.js'
import type { Snapshot } from './probe.js'
import { SIZE_CLASSES, type SizeKey } from './size-classes.js'

export interface IntervalRates {
  /** probe time of the later snapshot, seconds (TIMESTAMP / clockHz) */
  t: number
  mrdPerSecond: number
  bySizePerSecond: Record<SizeKey, number>
  /**
   * completed payload bytes/s (CPLD_BYTES): what crossed the wire. Requested bytes (MRD_BYTES)
   * run ahead of it by up to the tag budget and spike above the link in short intervals.
   */
  payloadPerSecond: number
  /** payload bytes/s the link allows for this interval's completion mix; undefined if unknown */
  ceilingPerSecond: number | undefined
}

/** Undefined when no enabled time passed, or a counter went backwards (cleared in between). */
export function intervalRates(
  prev: Pick<Snapshot, 'counters'>,
  cur: Pick<Snapshot, 'counters'>,
  clockHz: number,
  link?: PcieLinkInfo | null,
): IntervalRates | undefined {
  const dc = cur.counters.cycles - prev.counters.cycles
  if (!(dc > 0) || !(clockHz > 0)) return undefined
  const dPayload = cur.counters.cpldBytes - prev.counters.cpldBytes
  const dBySize = SIZE_CLASSES.map((c) => cur.counters[c.counter] - prev.counters[c.counter])
  if (dPayload < 0 || dBySize.some((d) => d < 0)) return undefined
  const seconds = dc / clockHz
  const ceiling = payloadCeiling(link ?? undefined, dPayload, cur.counters.cpldCount - prev.counters.cpldCount)
  return {
    t: cur.counters.timestamp / clockHz,
    mrdPerSecond: dBySize.reduce((a, b) => a + b, 0) / seconds,
    bySizePerSecond: Object.fromEntries(SIZE_CLASSES.map((c, i) => [c.key, dBySize[i]! / seconds])) as Record<SizeKey, number>,
    payloadPerSecond: dPayload / seconds,
    ceilingPerSecond: ceiling ?? undefined,
  }
}

/** Every counter's change from `before` to `after`: a run against its baseline snapshot. */
export function counterDeltas(before: Pick<Snapshot, 'counters'>, after: Pick<Snapshot, 'counters'>): Record<CounterKey, number> {
  const d = {} as Record<CounterKey, number>
  for (const c of COUNTERS) d[c.key] = after.counters[c.key] - before.counters[c.key]
  return d
}
