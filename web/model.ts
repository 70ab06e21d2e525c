/**
 * The UI's arithmetic, free of DOM and chart.js so it can be unit-tested in Node:
 * a fixed-capacity ring buffer for chart series, the request-size histogram and rates
 * computed from counter deltas over the probe's own clock.
 */
import { payloadCeiling, type PcieLinkInfo } from '../host/src/core/link.js'
import type { Snapshot } from '../host/src/core/probe.js'
import { SIZE_CLASSES, SIZE_COUNTER_KEYS } from '../host/src/core/size-classes.js'
import type { RunReport } from '../host/src/core/wire.js'

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

/** Counter keys and bar labels of the histogram, from the spec's size-class table. */
export const SIZE_KEYS = SIZE_COUNTER_KEYS
export const SIZE_LABELS = SIZE_CLASSES.map((c) => c.label)

export function histogram(s: Snapshot): number[] {
  return SIZE_KEYS.map((k) => s.counters[k])
}

export const totalRequests = (s: Snapshot): number => SIZE_KEYS.reduce((a, k) => a + s.counters[k], 0)

export interface RatePoint {
  /** simulated seconds on the free-running probe clock (TIMESTAMP / clockHz) */
  t: number
  mrdPerSec: number
  bytesPerSec: number
  /** payload bytes/s the link allows for this interval's completion mix; undefined if unknown */
  ceilingBytesPerSec: number | undefined
}

/**
 * Rate between two snapshots over the cycles the counters were enabled (CYCLES delta / clockHz),
 * i.e. simulated time on the twin, wall time on a board. Undefined when no enabled time passed
 * or the counters were cleared in between (CYCLES went backwards).
 */
export function rateBetween(prev: Snapshot, cur: Snapshot, clockHz: number, link?: PcieLinkInfo | null): RatePoint | undefined {
  const dc = cur.counters.cycles - prev.counters.cycles
  if (!(dc > 0) || !(clockHz > 0)) return undefined
  const dMrd = totalRequests(cur) - totalRequests(prev)
  const dBytes = cur.counters.mrdBytes - prev.counters.mrdBytes
  if (dMrd < 0 || dBytes < 0) return undefined
  const dt = dc / clockHz
  const ceiling = payloadCeiling(
    link ?? undefined,
    cur.counters.cpldBytes - prev.counters.cpldBytes,
    cur.counters.cpldCount - prev.counters.cpldCount,
  )
  return { t: cur.counters.timestamp / clockHz, mrdPerSec: dMrd / dt, bytesPerSec: dBytes / dt, ceilingBytesPerSec: ceiling ?? undefined }
}

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

/** What tests read from `window.__pcieScope` (test/e2e/browser.e2e.test.ts). */
export interface TestHook {
  histogram: number[]
  total: number
  snapshots: number
  ratePoints: number
  wsOpen: boolean
  connected: boolean
  lastRun: RunReport | null
}
