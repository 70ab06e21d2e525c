import { describe, expect, it } from 'vitest'
import { counterDeltas, intervalRates } from '../../../host/src/core/rates.js'
import { FakeClient } from '../server/fake-session.js'

describe('intervalRates (the page and the exports share it)', () => {
  it('gives MRd/s by size class, completed payload and the ceiling over enabled cycles', () => {
    const c = new FakeClient()
    const a = c.tick(1_000)
    c.counters.mrd32 += 100
    c.counters.mrd96 += 50
    c.counters.cpldCount += 150
    c.counters.cpldBytes += 100 * 32 + 50 * 96
    const b = c.tick(250_000) // 1 ms at 250 MHz
    const r = intervalRates(a, b, 250e6, { name: 'gen3x16', tlpBytesPerSecond: 14.2125e9 })
    expect(r?.mrdPerSecond).toBeCloseTo(150_000)
    expect(r?.bySizePerSecond['32']).toBeCloseTo(100_000)
    expect(r?.bySizePerSecond['96']).toBeCloseTo(50_000)
    expect(r?.payloadPerSecond).toBeCloseTo(8_000 * 1_000)
    expect(r?.ceilingPerSecond).toBeCloseTo((14.2125e9 * 8000) / (8000 + 20 * 150), -3)
    expect(r?.t).toBeCloseTo(b.counters.timestamp / 250e6)
  })

  it('gives nothing across a clear or without enabled time', () => {
    const c = new FakeClient()
    const a = c.tick(1_000)
    expect(intervalRates(a, a, 250e6)).toBeUndefined()
    const cleared = { ...a, counters: { ...a.counters, mrd32: 0, cycles: a.counters.cycles + 10 } }
    const before = { ...a, counters: { ...a.counters, mrd32: 5 } }
    expect(intervalRates(before, cleared, 250e6)).toBeUndefined()
  })

  it('takes counter deltas against a baseline', () => {
    const c = new FakeClient()
    const a = c.tick(1_000)
    c.counters.mrd64 += 7
    const b = c.tick(1_000)
    expect(counterDeltas(a, b).mrd64).toBe(7)
    expect(counterDeltas(a, b).cycles).toBe(1_000)
  })
})
