/**
 * The UI's arithmetic, free of DOM and chart.js so it can be unit-tested in Node:
 * a fixed-capacity ring buffer for chart series, the request-size histogram and rates
 * computed from counter deltas over the probe's own clock.
 */
import type { PcieLinkInfo } from '../host/src/core/link.js'
import { intervalRates } from '../host/src/core/rates.js'
import type { Snapshot } from '../host/src/core/probe.js'
import type { CounterKey } from '../host/src/core/generated.js'
import { SIZE_CLASSES, SIZE_COUNTER_KEYS } from '../host/src/core/size-classes.js'

export interface Point {
  x: number
  y: number
}

/** Fixed-capacity FIFO of points; `view()` fills one reused array in order (no per-frame garbage). */
export class RingSeries {
  private readonly buf: Point[] = []
  private head = 0
  private readonly out: Point[] = []
  constructor(readonly capacity: number) {}

  get length(): number {
    return this.buf.length
  }
  push(p: Point): void {
    if (this.buf.length < this.capacity) this.buf.push(p)
    else {
      this.buf[this.head] = p
      this.head = (this.head + 1) % this.capacity
    }
  }
  clear(): void {
    this.buf.length = 0
    this.head = 0
    this.out.length = 0
  }
  last(): Point | undefined {
    if (this.buf.length === 0) return undefined
    return this.buf[(this.head + this.buf.length - 1) % this.buf.length]
  }
  /** Ordered oldest → newest; the same array object on every call. */
  view(): Point[] {
    const n = this.buf.length
    this.out.length = n
    for (let i = 0; i < n; i++) this.out[i] = this.buf[(this.head + i) % n] as Point
    return this.out
  }
}

/** Counter keys, bar labels and colours of the histogram, from the spec's size-class table. */
export const SIZE_KEYS = SIZE_COUNTER_KEYS
export const SIZE_LABELS = SIZE_CLASSES.map((c) => c.label)

/**
 * One colour per size class: exact sizes from red (the smallest, slowest) to teal (the largest),
 * the catch-all grey; adding a class to the spec adds a colour.
 */
export const SIZE_COLOURS: readonly string[] = (() => {
  const exact = SIZE_CLASSES.filter((c) => c.bytes !== null).length
  let i = 0
  return SIZE_CLASSES.map((c) => (c.bytes === null ? '#a0aec0' : `hsl(${Math.round((170 * i++) / Math.max(1, exact - 1))}, 70%, 60%)`))
})()

type CounterSet = Readonly<Record<CounterKey, number>>

export function histogram(s: Snapshot | CounterSet): number[] {
  const c = 'counters' in s ? s.counters : s
  return SIZE_KEYS.map((k) => c[k] as number)
}

export const totalRequests = (s: Snapshot): number => SIZE_KEYS.reduce((a, k) => a + s.counters[k], 0)

export interface RatePoint {
  /** simulated seconds on the free-running probe clock (TIMESTAMP / clockHz) */
  t: number
  mrdPerSec: number
  /** completed payload bytes/s (CPLD_BYTES): what crossed the wire (core/rates.ts) */
  payloadPerSec: number
  /** payload bytes/s the link allows for this interval's completion mix; undefined if unknown */
  ceilingBytesPerSec: number | undefined
}

/** The page's rate point between two snapshots: core/rates.ts, the rule the exports use too. */
export function rateBetween(prev: Snapshot, cur: Snapshot, clockHz: number, link?: PcieLinkInfo | null): RatePoint | undefined {
  const r = intervalRates(prev, cur, clockHz, link)
  return r && { t: r.t, mrdPerSec: r.mrdPerSecond, payloadPerSec: r.payloadPerSecond, ceilingBytesPerSec: r.ceilingPerSecond }
}

/**
 * A payload rate above the ceiling cannot come from the wire: the link serialises every CplD.
 * One means the probe clock or the link the server reports is wrong (a board whose INFO clock
 * does not match its real clock, a link trained at another width), so the page says so.
 * 2 % allows for a completion straddling a snapshot boundary in a short interval.
 */
export const aboveCeiling = (r: RatePoint): boolean => r.ceilingBytesPerSec !== undefined && r.payloadPerSec > r.ceilingBytesPerSec * 1.02

const SI = ['n', 'µ', 'm', '', 'k', 'M', 'G', 'T', 'P']
const UNIT = 3
/** 1234567 → "1.23 M", 0.000012 → "12.0 µ"; integers below 1000 without decimals */
export function si(v: number, unit = ''): string {
  if (!Number.isFinite(v)) return '–'
  let i = UNIT
  let x = Math.abs(v)
  while (x >= 1000 && i < SI.length - 1) {
    x /= 1000
    i++
  }
  while (x > 0 && x < 1 && i > 0) {
    x *= 1000
    i--
  }
  const digits = (i === UNIT && Number.isInteger(x)) || x >= 100 ? 0 : x >= 10 ? 1 : 2
  return `${v < 0 ? '-' : ''}${x.toFixed(digits)} ${SI[i]}${unit}`.trim()
}

const intFmt = new Intl.NumberFormat('en-US')
export const int = (v: number): string => intFmt.format(v)

export interface InflightPoint {
  t: number
  /** reads in flight on average over the interval: ΔOUTSTANDING_SUM / ΔTRACKER_CYCLES */
  avgOutstanding: number
  /** mean last-completion latency of the reads that completed in it, seconds; undefined if none */
  meanLatency: number | undefined
}

/** Reads in flight and their latency between two snapshots, from the tracker's counters. */
export function inflightBetween(prev: Snapshot, cur: Snapshot, clockHz: number): InflightPoint | undefined {
  const dc = cur.counters.trackerCycles - prev.counters.trackerCycles
  if (!(dc > 0) || !(clockHz > 0)) return undefined
  const dSum = cur.counters.outstandingSum - prev.counters.outstandingSum
  const dDone = cur.counters.latLastCount - prev.counters.latLastCount
  const dLat = cur.counters.latLastSum - prev.counters.latLastSum
  if (dSum < 0 || dDone < 0) return undefined
  return { t: cur.counters.timestamp / clockHz, avgOutstanding: dSum / dc, meanLatency: dDone > 0 ? dLat / dDone / clockHz : undefined }
}

export type Limit = 'wire' | 'tags' | 'latency'

/**
 * Which limit a steady stream of reads hits, by Little's law (payload rate = outstanding ×
 * request size / latency). The wire, when the payload sits at the link's ceiling (extra reads in
 * flight only queue, so the latency rises above the bare one); else the tags, when nearly the
 * whole budget is in flight: the requester cannot issue more, whatever the latency is (a strided
 * walk holds 250 of 256 tags with its latency above the bare one from queueing in the responder,
 * and more tags or larger requests are still what would buy rate); otherwise latency: too few
 * reads in flight to cover the round trip. Undefined while nothing moves.
 */
export function limitOf(x: {
  payloadPerSec: number | undefined
  ceilingPerSec: number | undefined
  avgOutstanding: number | undefined
  tagBudget: number | null
}): Limit | undefined {
  const { payloadPerSec, ceilingPerSec, avgOutstanding, tagBudget } = x
  if (payloadPerSec === undefined || !(payloadPerSec > 0) || avgOutstanding === undefined) return undefined
  if (ceilingPerSec !== undefined && payloadPerSec >= 0.9 * ceilingPerSec) return 'wire'
  if (tagBudget !== null && avgOutstanding >= 0.85 * tagBudget) return 'tags'
  return 'latency'
}
