import { afterEach, describe, expect, it } from 'vitest'
import { measureRun } from '../../../host/src/measure/run.js'
import type { Snapshot } from '../../../host/src/core/probe.js'
import { closeSessions, fakeSession } from './fake-session.js'
import { zeroBySize } from '../../../host/src/core/size-classes.js'

afterEach(closeSessions)

describe('measureRun', () => {
  it('takes requests and bytes from the probe snapshot, with the model as a cross-check', async () => {
    const { s, device, order } = await fakeSession()
    device.counters.mrd32 = 999 // stale counts from before: CLEAR must zero them
    const r = await measureRun(s, { pattern: 'merged-aligned', bytes: 1 << 20, offset: 0 })
    expect(order).toEqual(['run while enabled=true'])
    expect(device.received.map((c) => c.name)).toEqual([
      'PING',
      'INFO',
      'PING',
      'INFO',
      'LINK_INFO',
      'STOP',
      'CLEAR',
      'START',
      'LATENCY_HISTOGRAM',
      'STOP',
    ])
    expect(r).toMatchObject({
      source: 'twin',
      pattern: 'merged-aligned',
      offset: 0,
      requests: { count: 8192, bySize: { ...zeroBySize(), '128': 8192 } },
      bytes: { requested: 1 << 20, completed: 1 << 20 },
      completions: {
        count: 8192,
        bytes: 1 << 20,
        withoutData: 0,
        byStatus: { ur: 0, ca: 0, other: 0 },
        unexpected: 0,
        mismatch: 0,
        timeouts: 0,
      },
      writes: { count: 0, bytes: 0 },
      poisoned: 0,
      cycles: 32768,
      outstanding: { avg: (8192 * 250) / 32768, peak: 64, tagBudget: null },
      latencyNs: {
        last: { min: 1000, mean: 1000, p50: 1000, p99: 1000, max: 1000, count: 8192 },
        first: { min: null, p50: null, count: 0 },
      },
      latencyHistograms: { last: { overflow: false }, first: { overflow: false } },
      littlesLaw: { errorPercent: 0 },
      clockHz: 250e6,
      model: { matchesProbe: true, issued: { count: 8192 } },
      link: { host: { badFrames: 0, crcErrors: 0 }, firmware: { rxBadFrames: 0 } },
    })
    expect(r.seconds).toBeCloseTo(32768 / 250e6, 12)
    expect(r.rates.mrdPerSecond).toBeCloseTo(8192 / r.seconds, 3)
    expect(r.rates.gbPerSecond).toBeCloseTo((1 << 20) / r.seconds / 1e9, 6)
    expect(r.wallSeconds).toBeGreaterThan(0)
    expect(JSON.parse(JSON.stringify(r))).toEqual(r)
  })

  it('reports completions without data, memory writes and poisoned TLPs from their counters', async () => {
    const { s } = await fakeSession({ extra: { cplCount: 3, mwrCount: 5, mwrBytes: 300, poisoned: 2 } })
    const r = await measureRun(s, { pattern: 'merged-aligned', bytes: 4096, offset: 0 })
    expect(r.completions.withoutData).toBe(3)
    expect(r.writes).toEqual({ count: 5, bytes: 300 })
    expect(r.poisoned).toBe(2)
  })

  it('gives the probe window: from START (TIMESTAMP − CYCLES) to the final snapshot', async () => {
    const { s, device } = await fakeSession()
    device.counters.timestamp = 1_000_000
    const r = await measureRun(s, { pattern: 'merged-aligned', bytes: 4096, offset: 0 })
    expect(r.probeWindow).toEqual({ from: 1_000_000, to: 1_000_000 + r.cycles })
  })

  it('for a recording, reads a baseline of the cleared counters before START, leaving the result alone', async () => {
    const { s, device } = await fakeSession()
    device.counters.mrd32 = 999
    const baselines: Snapshot[] = []
    const r = await measureRun(s, { pattern: 'merged-aligned', bytes: 4096, offset: 0 }, { onRunStart: (b) => baselines.push(b) })
    expect(device.received.map((c) => c.name).slice(4)).toEqual([
      'LINK_INFO',
      'STOP',
      'CLEAR',
      'SNAPSHOT',
      'START',
      'LATENCY_HISTOGRAM',
      'STOP',
    ])
    expect(baselines).toHaveLength(1)
    expect(baselines[0]).toMatchObject({ onDemand: true, enabled: false, counters: { mrd32: 0, cycles: 0 } })
    expect(r.requests.count).toBe(32)
    expect(r.cycles).toBe(4096 / 32)
  })

  it('flags a model that disagrees with the probe', async () => {
    const { s } = await fakeSession({ lie: true })
    const r = await measureRun(s, { pattern: 'merged-aligned', bytes: 4096, offset: 0 })
    expect(r.requests.count).toBe(32)
    expect(r.model.issued.count).toBe(33)
    expect(r.model.matchesProbe).toBe(false)
  })

  it('needs a workload runner', async () => {
    const { s } = await fakeSession({ runner: false })
    await expect(measureRun(s, { pattern: 'strided', bytes: 128, offset: 0 })).rejects.toMatchObject({ code: 'PS_WORKLOAD_UNSUPPORTED' })
  })

  it('validates the workload first', async () => {
    const { s, device } = await fakeSession()
    const before = device.received.length
    await expect(measureRun(s, { pattern: 'strided', bytes: 102, offset: 0 })).rejects.toMatchObject({ code: 'PS_WORKLOAD_INVALID' })
    expect(device.received.length).toBe(before)
  })
})
