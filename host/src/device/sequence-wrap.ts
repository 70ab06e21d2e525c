/**
 * Frames lost where the 16-bit sequence number still looks contiguous: a run of exactly 65 536
 * (or any multiple) brings it back to the number expected, and the decoder sees no gap. The
 * frames' own numbering tells: a SNAPSHOT's index counts every snapshot the firmware queued (each
 * took a sequence number), an INTERVAL's firstIndex every record it took from the probe. Between
 * two received frames of a kind, a jump in that numbering says that at least so many frames were
 * sent and lost; where the sequence numbers of the same window account for fewer, they wrapped.
 * A step back in probe time (TIMESTAMP, a record's ts) is a restarted device, not a loss.
 */
import type { IntervalBatch, Snapshot } from '../core/probe.js'
import { SEQ_SPACE } from '../protocol/decoder.js'

const HALF_U32 = 0x8000_0000

/** The fewest wraps that make `seqLost` (what the sequence numbers said) cover `atLeast` lost frames. */
const wrapsFor = (atLeast: number, seqLost: number): number => (atLeast > seqLost ? Math.ceil((atLeast - seqLost) / SEQ_SPACE) : 0)

export class SequenceWrapWatch {
  /** the last SNAPSHOT received: its index and TIMESTAMP, and the frames counted lost by then */
  private snapshotAt: { index: number; timestamp: number; lost: number } | undefined
  /** the last INTERVAL received: the record index after it, its last record's ts, the frames counted lost by then */
  private intervalAt: { next: number; ts: number; lost: number } | undefined

  /**
   * A SNAPSHOT arrived; `lost` is every frame counted lost so far (wraps included). Returns the
   * wraps of the sequence number since the previous SNAPSHOT that nothing else counted.
   */
  snapshot(s: Snapshot, lost: number): number {
    const prev = this.snapshotAt
    let wraps = 0
    if (prev && s.counters.timestamp >= prev.timestamp) {
      const jump = (s.index - prev.index) >>> 0
      // each snapshot in between was sent with a sequence number of its own
      if (jump >= 1 && jump < HALF_U32) wraps = wrapsFor(jump - 1, lost - prev.lost)
    }
    this.snapshotAt = { index: s.index, timestamp: s.counters.timestamp, lost: lost + wraps * SEQ_SPACE }
    return wraps
  }

  /** An INTERVAL arrived: as snapshot(), from its firstIndex. */
  interval(b: IntervalBatch, lost: number): number {
    const first = b.records[0]
    const last = b.records.at(-1)
    if (!first || !last) return 0
    const prev = this.intervalAt
    let wraps = 0
    if (prev && first.ts >= prev.ts) {
      const skipped = (b.firstIndex - prev.next) >>> 0
      // records the firmware took that neither came here nor were dropped by it (`dropped` starts
      // again with every frame it sends) went in at least one INTERVAL frame lost on the way
      if (skipped > b.dropped && skipped < HALF_U32) wraps = wrapsFor(1, lost - prev.lost)
    }
    this.intervalAt = { next: (b.firstIndex + b.records.length) >>> 0, ts: last.ts, lost: lost + wraps * SEQ_SPACE }
    return wraps
  }

  /** A new connection: the device may have restarted its numbering. */
  reset(): void {
    this.snapshotAt = undefined
    this.intervalAt = undefined
  }
}
