import { describe, expect, it } from 'vitest'
import { SIZE_CLASSES } from '../../host/src/core/size-classes.js'
import {
  aboveCeiling,
  histogram,
  inflightBetween,
  limitOf,
  rateBetween,
  RingSeries,
  si,
  SIZE_COLOURS,
  SIZE_LABELS,
  totalRequests,
} from '../../web/model.js'
import { FakeClient } from '../host/server/fake-session.js'

describe('RingSeries', () => {
  it('keeps the newest `capacity` points in order, reusing one view array', () => {
    const r = new RingSeries(3)
    const v0 = r.view()
    for (let i = 0; i < 5; i++) r.push({ x: i, y: i * 10 })
    const v = r.view()
    expect(v).toBe(v0)
    expect(v.map((p) => p.x)).toEqual([2, 3, 4])
    expect(r.last()).toEqual({ x: 4, y: 40 })
    r.clear()
    expect(r.view()).toEqual([])
    expect(r.last()).toBeUndefined()
  })
})

describe('histogram and rates', () => {
  it('computes MRd/s and completed payload/s over CYCLES / clockHz, not wall time', () => {
    const c = new FakeClient()
    const a = c.tick(1_000)
    c.counters.mrd32 += 10
    c.counters.mrd128 += 5
    c.counters.mrdBytes += 10 * 32 + 5 * 128
    // requested bytes run ahead of completions: the payload rate counts only what completed
    c.counters.cpldBytes += 10 * 32 + 4 * 128
    const b = c.tick(250_000) // 1 ms at 250 MHz
    b.receivedAt = a.receivedAt + 10_000 // wall time must not matter
    expect(histogram(b)).toEqual(SIZE_CLASSES.map((s) => (s.bytes === 32 ? 10 : s.bytes === 128 ? 5 : 0)))
    expect(totalRequests(b)).toBe(15)
    const r = rateBetween(a, b, 250_000_000)
    expect(r?.mrdPerSec).toBeCloseTo(15_000)
    expect(r?.payloadPerSec).toBeCloseTo(((10 * 32 + 4 * 128) / 250_000) * 250e6)
    expect(r?.t).toBeCloseTo(251_000 / 250e6)
    expect(r?.ceilingBytesPerSec).toBeUndefined() // no link known
  })

  it('puts the link ceiling for the completion mix of the interval next to the rate', () => {
    const c = new FakeClient()
    const a = c.tick(1_000)
    c.counters.cpldCount += 100
    c.counters.cpldBytes += 100 * 32
    const b = c.tick(250_000)
    const link = { name: 'gen3x16', tlpBytesPerSecond: 14.2125e9 }
    // 32-B completions: 52 wire bytes each → 14.21 GB/s × 32 / 52
    expect(rateBetween(a, b, 250e6, link)?.ceilingBytesPerSec).toBeCloseTo((14.2125e9 * 32) / 52, -3)
    expect(rateBetween(a, b, 250e6, { name: 'ideal', tlpBytesPerSecond: null })?.ceilingBytesPerSec).toBeUndefined()
  })

  it('flags a payload rate above the ceiling, which the wire cannot carry', () => {
    const base = { t: 0, mrdPerSec: 1 }
    expect(aboveCeiling({ ...base, payloadPerSec: 12.2e9, ceilingBytesPerSec: 12.29e9 })).toBe(false)
    expect(aboveCeiling({ ...base, payloadPerSec: 12.5e9, ceilingBytesPerSec: 12.29e9 })).toBe(false) // within 2 %
    expect(aboveCeiling({ ...base, payloadPerSec: 16e9, ceilingBytesPerSec: 12.29e9 })).toBe(true)
    expect(aboveCeiling({ ...base, payloadPerSec: 16e9, ceilingBytesPerSec: undefined })).toBe(false)
  })

  it('derives labels and one distinct colour per size class from the spec table', () => {
    expect(SIZE_LABELS).toEqual(SIZE_CLASSES.map((c) => c.label))
    expect(SIZE_COLOURS).toHaveLength(SIZE_CLASSES.length)
    expect(new Set(SIZE_COLOURS).size).toBe(SIZE_CLASSES.length)
  })

  it('gives no rate without enabled cycles or across a clear', () => {
    const c = new FakeClient()
    const a = c.tick(1_000)
    const same = { ...a, counters: { ...a.counters } }
    expect(rateBetween(a, same, 250e6)).toBeUndefined()
    const cleared = { ...a, counters: { ...a.counters, cycles: 0, timestamp: a.counters.timestamp + 5 } }
    expect(rateBetween(a, cleared, 250e6)).toBeUndefined()
  })

  it('formats with SI prefixes', () => {
    expect(si(0)).toBe('0')
    expect(si(1234)).toBe('1.23 k')
    expect(si(2.5e9, 'B/s')).toBe('2.50 GB/s')
    expect(si(NaN)).toBe('–')
    expect(si(8.192e-6, 's')).toBe('8.19 µs')
    expect(si(0.25, 's')).toBe('250 ms')
    expect(si(12)).toBe('12')
    expect(si(2.5)).toBe('2.50')
  })
})

describe('in flight', () => {
  it('averages the reads in flight and the latency per interval from the tracker counters', () => {
    const c = new FakeClient()
    const a = c.tick(1_000)
    c.counters.trackerCycles += 1_000
    c.counters.outstandingSum += 200_000 // 200 in flight on average
    c.counters.latLastCount += 800
    c.counters.latLastSum += 800 * 250
    const b = c.tick(1_000)
    expect(inflightBetween(a, b, 250e6)).toEqual({ t: b.counters.timestamp / 250e6, avgOutstanding: 200, meanLatency: 1e-6 })
    expect(inflightBetween(b, b, 250e6)).toBeUndefined()
  })

  it('names the limit: the wire at the ceiling, else the tags when nearly all are in flight, else latency', () => {
    const base = { tagBudget: 256, ceilingPerSec: 8.75e9 }
    // strided: 250 of 256 tags, 7.79 of 8.75 GB/s (under 90 %): tag-bound, not wire-bound
    expect(limitOf({ ...base, payloadPerSec: 7.79e9, avgOutstanding: 250 })).toBe('tags')
    // merged: tags full (their reads queue), payload at the ceiling: the wire comes first
    expect(limitOf({ ...base, ceilingPerSec: 12.29e9, payloadPerSec: 12.2e9, avgOutstanding: 254 })).toBe('wire')
    // few reads in flight
    expect(limitOf({ ...base, payloadPerSec: 2e9, avgOutstanding: 60 })).toBe('latency')
    expect(limitOf({ ...base, payloadPerSec: 0, avgOutstanding: 0 })).toBeUndefined()
  })
})
