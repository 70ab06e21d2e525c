// TAP_SNAPSHOT and TAP_HISTOGRAM frames: a further probe tap's counters and latency histograms
// (the switch design's host side), decoded by the generated layouts.
import { describe, expect, it } from 'vitest'
import { decodeTapHistogram, decodeTapSnapshot } from '../../../host/src/protocol/messages.js'
import { COUNTERS, HISTOGRAM_WORDS, TAP_HISTOGRAM_LAYOUT, TAP_SNAPSHOT_LAYOUT, TAPS } from '../../../host/src/core/generated.js'
import { encodeTapHistogram, encodeTapSnapshot, zeroCounters } from './device-codec.js'
import { SPEC_HISTOGRAM_LAYOUT } from '../../../host/src/core/latency-histogram.js'

describe('probe taps in the spec', () => {
  it('lists the GPU side first (tap 0, the SNAPSHOT frame) and the host side as tap 1', () => {
    expect(TAPS.map((t) => t.key)).toEqual(['gpuSide', 'hostSide'])
    expect(TAP_SNAPSHOT_LAYOUT.fields.tap).toMatchObject({ type: 'u8', offset: 0 })
    expect(TAP_SNAPSHOT_LAYOUT.bytes).toBe(5 + 8 * COUNTERS.length)
    expect(TAP_HISTOGRAM_LAYOUT.bytes).toBe(11 + 8 * HISTOGRAM_WORDS)
  })
})

describe('TAP_SNAPSHOT frames', () => {
  it('round-trip every counter of the host side, above 2^32 too', () => {
    const counters = zeroCounters()
    COUNTERS.forEach((c, i) => (counters[c.key] = i * 0x1_0000_0001 + 3))
    const p = encodeTapSnapshot({ tap: 'hostSide', snapshotIndex: 77, counters })
    expect(p.length).toBe(TAP_SNAPSHOT_LAYOUT.bytes)
    expect(decodeTapSnapshot(9, p, 5)).toEqual({ ok: true, value: { seq: 9, tap: 'hostSide', snapshotIndex: 77, counters, receivedAt: 5 } })
  })

  it('refuses tap 0 (its counters travel as SNAPSHOT), an unknown tap and a wrong length', () => {
    const p = encodeTapSnapshot({ tap: 'hostSide', snapshotIndex: 1, counters: zeroCounters() })
    p.writeUInt8(0, 0)
    expect(decodeTapSnapshot(1, p)).toMatchObject({ ok: false, error: { code: 'PS_CMD_BAD_REPLY' } })
    p.writeUInt8(TAPS.length, 0)
    expect(decodeTapSnapshot(1, p)).toMatchObject({ ok: false })
    expect(decodeTapSnapshot(1, p.subarray(1))).toMatchObject({ ok: false })
  })
})

describe('TAP_HISTOGRAM frames', () => {
  it('round-trip a host-side histogram with its tap, reason, kind and snapshot', () => {
    const bins = Array.from({ length: HISTOGRAM_WORDS }, (_, k) => k * 0x1_0000_0003)
    const h = { tap: 'hostSide', reason: 'on-demand', kind: 'first', snapshotIndex: 12, bins } as const
    const p = encodeTapHistogram(h)
    expect(p.length).toBe(TAP_HISTOGRAM_LAYOUT.bytes)
    expect(decodeTapHistogram(4, p, 8)).toEqual({ ok: true, value: { seq: 4, ...h, layout: SPEC_HISTOGRAM_LAYOUT, bins, receivedAt: 8 } })
    // a cut frame: fewer bins than its layout says
    expect(decodeTapHistogram(4, p.subarray(0, p.length - 8))).toMatchObject({ ok: false, error: { code: 'PS_CMD_BAD_REPLY' } })
    p.writeUInt8(0, TAP_HISTOGRAM_LAYOUT.fields.tap.offset)
    expect(decodeTapHistogram(4, p)).toMatchObject({ ok: false, error: { code: 'PS_CMD_BAD_REPLY' } })
  })
})
