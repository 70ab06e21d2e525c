/**
 * The time charts' x range and the figures of a stretch of time (DOM-free, unit-tested). The
 * rate and in-flight charts share one range: following the newest point (null), or a window the
 * user zoomed or panned to. A selected stretch reports what the probe counted in it: GB/s,
 * requests, reads in flight and latency, summed from the per-interval counter deltas the rate
 * points were made of (exact, never an average of averages).
 */

export interface XRange {
  from: number
  to: number
}

/** narrowest window a zoom may reach, seconds of probe time (a few clocks at 250 MHz) */
export const MIN_SPAN_S = 1e-7

/** The counter deltas of one rate interval, ending at probe time `t` (seconds). */
export interface IntervalDelta {
  t: number
  /** the interval's length, seconds of probe time */
  seconds: number
  mrd: number
  payloadBytes: number
  /** ΔOUTSTANDING_SUM and ΔTRACKER_CYCLES: reads in flight = their ratio */
  outstandingSum: number
  trackerCycles: number
  /** Δ of the last-completion latency sum (clocks) and count */
  latencySum: number
  latencyCount: number
}

export interface RangeFigures {
  /** probe seconds covered by the intervals inside the range */
  seconds: number
  intervals: number
  requests: number
  payloadBytes: number
  /** payload GB/s over the covered time */
  gbps: number | null
  mrdPerSec: number | null
  /** reads in flight on average over the covered time */
  inFlight: number | null
  /** mean last-completion latency of the reads completed in it, ns */
  meanLatencyNs: number | null
  latencyReads: number
}

/** A window ordered and at least MIN_SPAN_S wide. */
export function normalRange(a: number, b: number): XRange {
  const from = Math.min(a, b)
  const to = Math.max(a, b)
  return to - from >= MIN_SPAN_S ? { from, to } : { from: (from + to) / 2 - MIN_SPAN_S / 2, to: (from + to) / 2 + MIN_SPAN_S / 2 }
}

/** Zoom by `factor` (< 1 narrows) keeping `at` where it is on the axis. */
export function zoomAround(r: XRange, at: number, factor: number): XRange {
  const f = Number.isFinite(factor) && factor > 0 ? factor : 1
  return normalRange(at - (at - r.from) * f, at + (r.to - at) * f)
}

/** Shift the window by `dx` seconds. */
export const panBy = (r: XRange, dx: number): XRange => ({ from: r.from + dx, to: r.to + dx })

/**
 * The figures of the intervals that end inside [from, to] (an interval is the stretch before its
 * point, as a rate point is plotted at its end).
 */
export function rangeFigures(deltas: Iterable<IntervalDelta>, r: XRange, clockHz: number): RangeFigures {
  let seconds = 0
  let intervals = 0
  let requests = 0
  let payloadBytes = 0
  let outstandingSum = 0
  let trackerCycles = 0
  let latencySum = 0
  let latencyCount = 0
  for (const d of deltas) {
    if (d.t < r.from || d.t > r.to) continue
    intervals++
    seconds += d.seconds
    requests += d.mrd
    payloadBytes += d.payloadBytes
    outstandingSum += d.outstandingSum
    trackerCycles += d.trackerCycles
    latencySum += d.latencySum
    latencyCount += d.latencyCount
  }
  return {
    seconds,
    intervals,
    requests,
    payloadBytes,
    gbps: seconds > 0 ? payloadBytes / seconds / 1e9 : null,
    mrdPerSec: seconds > 0 ? requests / seconds : null,
    inFlight: trackerCycles > 0 ? outstandingSum / trackerCycles : null,
    meanLatencyNs: latencyCount > 0 && clockHz > 0 ? (latencySum / latencyCount / clockHz) * 1e9 : null,
    latencyReads: latencyCount,
  }
}

/** A run's band widened by a margin either side, so its edges show; a run still going ends at `newest`. */
export function runWindow(m: { from: number; to: number | undefined }, newest: number | undefined): XRange | null {
  const to = m.to ?? newest
  if (to === undefined || !(to >= m.from)) return null
  const margin = Math.max((to - m.from) * 0.05, MIN_SPAN_S)
  return normalRange(m.from - margin, to + margin)
}

/** A fixed-capacity FIFO (oldest dropped first), iterable oldest to newest. */
export class Ring<T> implements Iterable<T> {
  private readonly buf: T[] = []
  private head = 0
  constructor(readonly capacity: number) {}
  get length(): number {
    return this.buf.length
  }
  push(v: T): void {
    if (this.buf.length < this.capacity) this.buf.push(v)
    else {
      this.buf[this.head] = v
      this.head = (this.head + 1) % this.capacity
    }
  }
  clear(): void {
    this.buf.length = 0
    this.head = 0
  }
  *[Symbol.iterator](): Iterator<T> {
    const n = this.buf.length
    for (let i = 0; i < n; i++) yield this.buf[(this.head + i) % n] as T
  }
}
