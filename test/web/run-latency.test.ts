import { describe, expect, it } from 'vitest'
import { AppState } from '../../web/state.js'
import type { LatencyHistogram, Snapshot } from '../../host/src/core/probe.js'
import type { RunReport, ServerMessage } from '../../host/src/core/wire.js'
import { HISTOGRAM_WORDS } from '../../host/src/core/generated.js'
import { fakeInfo } from '../host/server/fake-session.js'
import { snap, WORKLOAD } from '../host/recording/fixtures.js'

const HZ = fakeInfo().clockHz
/** a snapshot at probe second t, counting since 0 */
const at = (index: number, t: number, over: Record<string, number> = {}): Snapshot =>
  snap(index, { timestamp: t * HZ, cycles: t * HZ, trackerCycles: t * HZ, ...over })
const hist = (index: number, fill: Record<number, number>): LatencyHistogram => {
  const bins = Array<number>(HISTOGRAM_WORDS).fill(0)
  for (const [k, n] of Object.entries(fill)) bins[Number(k)] = n
  return { seq: index, reason: 'periodic', kind: 'last', snapshotIndex: index, binClocks: 64, bins, receivedAt: 0 }
}

function streamed(): AppState {
  const state = new AppState('tok')
  const hello = {
    type: 'hello',
    source: 'twin',
    path: '/dev/pts/1',
    info: fakeInfo(),
    pcieLink: null,
    tagBudget: 256,
    twinMode: 'endpoint',
    counters: [],
    recent: [],
    latencyHistograms: { first: null, last: null },
    taps: {},
    lastRun: null,
  } as ServerMessage
  const snapshot = (s: Snapshot): ServerMessage => ({ type: 'snapshot', snapshots: [s], hostStats: null, wsDrops: 0 })
  const s1 = at(1, 1, { latLastCount: 100, latLastMin: 200, latLastMax: 250 })
  const report = {
    id: 7,
    origin: 'manual',
    result: {
      workload: WORKLOAD,
      issued: { count: 50, bySize: {}, bytes: 0 },
      completions: 50,
      payloadErrors: 0,
      simCycles: HZ,
      wallSeconds: 1,
    },
    probe: {},
    countersEnabled: true,
    probeWindow: { from: 1 * HZ, to: 2 * HZ },
    startedAt: 0,
    finishedAt: 0,
  } as unknown as RunReport
  const steps: ServerMessage[] = [
    hello,
    snapshot(s1),
    { type: 'latency-histogram', histogram: hist(1, { 3: 100 }) },
    { type: 'run-start', id: 7, origin: 'manual', workload: WORKLOAD, baseline: s1 },
    snapshot(at(2, 2, { latLastCount: 150, latLastMin: 200, latLastMax: 300 })),
    { type: 'run', report, result: report.result, demo: { enabled: false, runs: 0, current: null } },
    snapshot(at(3, 3, { latLastCount: 150, latLastMin: 200, latLastMax: 300 })),
    { type: 'latency-histogram', histogram: hist(3, { 3: 100, 4: 50 }) },
  ]
  for (const m of steps) state.apply(m, 0)
  return state
}

describe("a run's latency", () => {
  it('is the difference of the histograms around it, its percentiles within what was observed', () => {
    const state = streamed()
    expect(state.shownLatency('last')?.bins.slice(0, 6)).toEqual([0, 0, 0, 100, 50, 0])
    state.setLatencyOf(7)
    const run = state.shownLatency('last')!
    expect(run.bins.slice(0, 6)).toEqual([0, 0, 0, 0, 50, 0])
    expect([run.from, run.to]).toEqual([1, 3])
    // its 50 reads lie in 256..319 clocks, the slowest read of all 300 clocks: p99 stops there
    const p = state.latencyPercentiles('last')!
    expect(p.p50).toBeCloseTo(((256 + 300) / 2) * 4, 6)
    expect(p.p99).toBeLessThanOrEqual(300 * 4)
  })

  it('waits for the histogram after the run, and knows no run it does not hold', () => {
    const state = streamed()
    state.setLatencyOf(8)
    expect(state.shownLatency('last')).toBeNull()
    expect(state.latencyPercentiles('last')).toBeNull()
  })
})
