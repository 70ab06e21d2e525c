/**
 * The probe's interval records (INTERVAL frames, one record per SAMPLE_PERIOD clocks) as the
 * page's requests-in-flight series: outstanding average and peak per interval at microsecond
 * resolution, next to the tag budget, with Little's law and the limit per interval. DOM-free:
 * the in-flight view draws it, test/web/intervals.test.ts checks it.
 *
 * Little's law per interval: reads in flight = read rate × latency. The sampler's latency is
 * the first-completion one (SMP_LAT_*), the only latency its records carry; for reads answered by
 * one completion that is the whole round trip.
 */
import { payloadCeiling, type PcieLinkInfo } from '../host/src/core/link.js'
import type { IntervalBatch, IntervalRecord } from '../host/src/core/probe.js'
import { limitOf, type Limit } from './model.js'

export interface IntervalPoint {
  /** end of the interval, probe seconds */
  t: number
  /** OCC_SUM / CYCLES */
  avgOutstanding: number
  /** most reads outstanding at the end of one of its clocks */
  peakOutstanding: number
  /** mean first-completion latency of the reads that had one in it, seconds; undefined if none */
  meanLatency: number | undefined
  /** reads started per second */
  mrdPerSec: number
  /** completed payload bytes per second */
  payloadPerSec: number
  /** the payload the link allows for its completion mix, bytes/s; undefined without a link or completions */
  ceilingPerSec: number | undefined
  /** read rate × mean latency: the reads in flight Little's law predicts; undefined without a latency */
  littleOutstanding: number | undefined
}

/** One record as a point at `clockHz`; undefined for an empty interval (0 cycles) or no clock. */
export function intervalPoint(r: IntervalRecord, clockHz: number, link: PcieLinkInfo | null): IntervalPoint | undefined {
  if (!(r.cycles > 0) || !(clockHz > 0)) return undefined
  const seconds = r.cycles / clockHz
  const meanLatency = r.latCount > 0 ? r.latSum / r.latCount / clockHz : undefined
  const mrdPerSec = r.mrdCount / seconds
  const ceiling = payloadCeiling(link, r.cpldBytes, r.cpldCount)
  return {
    t: r.ts / clockHz,
    avgOutstanding: r.occSum / r.cycles,
    peakOutstanding: r.occPeak,
    meanLatency,
    mrdPerSec,
    payloadPerSec: r.cpldBytes / seconds,
    ceilingPerSec: ceiling ?? undefined,
    littleOutstanding: meanLatency === undefined ? undefined : mrdPerSec * meanLatency,
  }
}

export interface IntervalPoints {
  points: IntervalPoint[]
  /**
   * the batch does not follow the one before it: records were dropped (by the firmware, on the
   * UART) or its first index is not the next one, so no line may join across
   */
  gapBefore: boolean
}

/**
 * The points of one INTERVAL batch. `nextIndex` is the index the previous batch's records ended
 * at (undefined before the first batch); returns the index this one ends at, for the next call.
 */
export function intervalBatchPoints(
  batch: IntervalBatch,
  clockHz: number,
  link: PcieLinkInfo | null,
  nextIndex: number | undefined,
): IntervalPoints & { nextIndex: number } {
  const points: IntervalPoint[] = []
  for (const r of batch.records) {
    const p = intervalPoint(r, clockHz, link)
    if (p) points.push(p)
  }
  const gapBefore = batch.dropped > 0 || (nextIndex !== undefined && batch.firstIndex !== nextIndex)
  return { points, gapBefore, nextIndex: (batch.firstIndex + batch.records.length) % 2 ** 32 }
}

/** The limit an interval hits (model.ts limitOf: wire, tags or latency). */
export const intervalLimit = (p: IntervalPoint, tagBudget: number | null): Limit | undefined =>
  limitOf({ payloadPerSec: p.payloadPerSec, ceilingPerSec: p.ceilingPerSec, avgOutstanding: p.avgOutstanding, tagBudget })
