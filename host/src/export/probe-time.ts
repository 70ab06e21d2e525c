/**
 * Probe time for exports: the probe's free-running TIMESTAMP in clock cycles, turned into a time
 * axis that never goes backwards, and the rates between two snapshots.
 */
import type { Snapshot } from '../core/probe.js'
import { intervalRates } from '../core/rates.js'
import type { SizeKey } from '../core/size-classes.js'

/**
 * Microseconds of probe time (TIMESTAMP / clockHz). TIMESTAMP restarts only when the probe does
 * (a board reset, a restarted twin: a new epoch of the recording, or a TIMESTAMP gone backwards);
 * the axis then carries on from where it was, plus the host time that passed, so that an export
 * stays in order.
 */
export class ProbeTimeline {
  private offset = 0
  private last: { ts: number; at: number; epoch: number } | undefined

  constructor(private readonly clockHz: number) {}

  /** Take a snapshot's TIMESTAMP into account; its time on the axis, in µs. */
  observe(s: Pick<Snapshot, 'counters' | 'receivedAt'>, epoch = 0): number {
    const ts = s.counters.timestamp
    if (this.last && (ts < this.last.ts || epoch !== this.last.epoch)) {
      const hostCycles = (Math.max(0, s.receivedAt - this.last.at) * this.clockHz) / 1000
      this.offset += this.last.ts - ts + hostCycles
    }
    this.last = { ts, at: s.receivedAt, epoch }
    return this.us(ts)
  }

  /** A TIMESTAMP of the current probe epoch, in µs. */
  us(ts: number): number {
    return ((ts + this.offset) / this.clockHz) * 1e6
  }

  /** The time of the last snapshot observed, in µs (undefined before the first). */
  get lastUs(): number | undefined {
    return this.last === undefined ? undefined : this.us(this.last.ts)
  }
}

export interface IntervalRates {
  mrdPerSecond: number
  /** completed payload (CPLD_BYTES) in GB/s: what crossed the wire */
  payloadGbPerSecond: number
  bySizePerSecond: Record<SizeKey, number>
}

/** Rates between two snapshots (core/rates.ts, the live page's rule), payload in GB/s. */
export const ratesBetween = (
  prev: Pick<Snapshot, 'counters'>,
  cur: Pick<Snapshot, 'counters'>,
  clockHz: number,
): IntervalRates | undefined => {
  const r = intervalRates(prev, cur, clockHz)
  return r && { mrdPerSecond: r.mrdPerSecond, payloadGbPerSecond: r.payloadPerSecond / 1e9, bySizePerSecond: r.bySizePerSecond }
}
