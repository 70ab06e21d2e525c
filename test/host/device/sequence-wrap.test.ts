import { describe, expect, it } from 'vitest'
import type { IntervalBatch, IntervalRecord, Snapshot } from '../../../host/src/core/probe.js'
import { SequenceWrapWatch } from '../../../host/src/device/sequence-wrap.js'
import { SEQ_SPACE } from '../../../host/src/protocol/decoder.js'
import { zeroCounters } from '../protocol/device-codec.js'

const snap = (index: number, timestamp = index * 1000): Snapshot => ({
  seq: index & 0xffff,
  index,
  onDemand: false,
  enabled: true,
  counters: { ...zeroCounters(), timestamp },
  firmware: { rxFrames: 0, rxBadFrames: 0, rxOverflows: 0, unknownCommands: 0, txDropped: 0 },
  receivedAt: 0,
})

const rec = (ts: number): IntervalRecord => ({
  ts,
  cycles: 100,
  mrdCount: 0,
  mrdBytes: 0,
  cpldCount: 0,
  cpldBytes: 0,
  occSum: 0,
  occPeak: 0,
  latSum: 0,
  latCount: 0,
})

/** An INTERVAL batch of `n` records from record index `firstIndex` (ts 100 apart from there). */
const batch = (firstIndex: number, n: number, dropped = 0, ts0 = firstIndex * 100): IntervalBatch => ({
  seq: 0,
  firstIndex,
  dropped,
  overflow: 0,
  records: Array.from({ length: n }, (_, i) => rec(ts0 + i * 100)),
  receivedAt: 0,
})

describe('SequenceWrapWatch: SNAPSHOT index', () => {
  it('finds nothing while the snapshots come one after another, or the sequence accounts for the ones missing', () => {
    const w = new SequenceWrapWatch()
    expect(w.snapshot(snap(0), 0)).toBe(0)
    expect(w.snapshot(snap(1), 0)).toBe(0)
    // two snapshots and a few other frames lost: the sequence numbers said 5
    expect(w.snapshot(snap(4), 5)).toBe(0)
    expect(w.snapshot(snap(5), 5)).toBe(0)
  })

  it('finds a wrap where snapshots are missing but the sequence numbers looked contiguous', () => {
    const w = new SequenceWrapWatch()
    w.snapshot(snap(10), 0)
    expect(w.snapshot(snap(13), 0)).toBe(1) // 2 snapshots lost, no gap seen: 65 536 frames went
    // the window after it starts from the count with the wrap in it
    expect(w.snapshot(snap(14), SEQ_SPACE)).toBe(0)
    // more snapshots missing than one wrap holds frames: as many wraps as it takes
    expect(w.snapshot(snap(14 + 1 + 70_000), SEQ_SPACE)).toBe(2)
    // a gap the sequence did see, short of the snapshots missing: still a wrap over it
    const v = new SequenceWrapWatch()
    v.snapshot(snap(200_000), 0)
    expect(v.snapshot(snap(200_004), 2)).toBe(1)
  })

  it('takes a step back in index or probe time for a restarted device, not a loss', () => {
    const w = new SequenceWrapWatch()
    w.snapshot(snap(500), 0)
    expect(w.snapshot(snap(3, 10), 0)).toBe(0) // index and TIMESTAMP back to the start
    expect(w.snapshot(snap(9, 5), 0)).toBe(0) // index on, TIMESTAMP back: restarted again
    expect(w.snapshot(snap(10, 6), 0)).toBe(0)
    w.reset() // a new connection: the device may count from anywhere
    expect(w.snapshot(snap(900), 0)).toBe(0)
  })
})

describe('SequenceWrapWatch: INTERVAL firstIndex', () => {
  it('finds nothing for back-to-back batches, records the firmware dropped, or a loss the sequence saw', () => {
    const w = new SequenceWrapWatch()
    expect(w.interval(batch(0, 4), 0)).toBe(0)
    expect(w.interval(batch(4, 4), 0)).toBe(0)
    expect(w.interval(batch(11, 4, 3), 0)).toBe(0) // 3 dropped on the device, said so in the frame
    expect(w.interval(batch(30, 4), 1)).toBe(0) // one frame lost, and the sequence number said so
    expect(w.interval(batch(34, 0), 1)).toBe(0) // no records: nothing to go by
  })

  it('finds a wrap where records went missing on the way with no gap in the sequence', () => {
    const w = new SequenceWrapWatch()
    w.interval(batch(0, 4), 0)
    expect(w.interval(batch(20, 4, 3), 0)).toBe(1)
    expect(w.interval(batch(24, 4), SEQ_SPACE)).toBe(0)
  })

  it('takes records going back in probe time for a restarted device', () => {
    const w = new SequenceWrapWatch()
    w.interval(batch(1000, 4), 0)
    expect(w.interval(batch(2000, 4, 0, 50), 0)).toBe(0)
  })
})
