import { describe, expect, it } from 'vitest'
import { AppState } from '../../web/state.js'
import type { LatencyHistogram, Snapshot } from '../../host/src/core/probe.js'
import type { RunReport, ServerMessage } from '../../host/src/core/wire.js'
import { HISTOGRAM_WORDS } from '../../host/src/core/generated.js'
import { binEdge, binOf, SPEC_HISTOGRAM_LAYOUT } from '../../host/src/core/latency-histogram.js'
import { fakeInfo } from '../host/server/fake-session.js'
import { snap, WORKLOAD } from '../host/recording/fixtures.js'

const HZ = fakeInfo().clockHz
const L = SPEC_HISTOGRAM_LAYOUT
/** the bins of reads of 200 and of 256 clocks */
const B200 = binOf(L, 200)
const B256 = binOf(L, 256)
/** a snapshot at probe second t, counting since 0 */
const at = (index: number, t: number, over: Record<string, number> = {}): Snapshot =>
  snap(index, { timestamp: t * HZ, cycles: t * HZ, trackerCycles: t * HZ, ...over })
const hist = (index: number, fill: Record<number, number>): LatencyHistogram => {
  const bins = Array<number>(HISTOGRAM_WORDS).fill(0)
  for (const [k, n] of Object.entries(fill)) bins[Number(k)] = n
  return { seq: index, reason: 'periodic', kind: 'last', snapshotIndex: index, layout: L, bins, receivedAt: 0 }
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
    { type: 'latency-histogram', histogram: hist(1, { [B200]: 100 }) },
    { type: 'run-start', id: 7, origin: 'manual', workload: WORKLOAD, baseline: s1 },
    snapshot(at(2, 2, { latLastCount: 150, latLastMin: 200, latLastMax: 300 })),
    { type: 'run', report, result: report.result, demo: { enabled: false, runs: 0, current: null } },
    snapshot(at(3, 3, { latLastCount: 150, latLastMin: 200, latLastMax: 300 })),
    { type: 'latency-histogram', histogram: hist(3, { [B200]: 100, [B256]: 50 }) },
  ]
  for (const m of steps) state.apply(m, 0)
  return state
}

describe("a run's latency", () => {
  it('is the difference of the histograms around it, its percentiles within what was observed', () => {
    const state = streamed()
    const all = state.shownLatency('last')!.bins
    expect([all[B200], all[B256]]).toEqual([100, 50])
    state.setLatencyOf(7)
    const run = state.shownLatency('last')!
    expect([run.bins[B200], run.bins[B256]]).toEqual([0, 50])
    expect(run.bins.reduce((a, b) => a + b, 0)).toBe(50)
    expect([run.from, run.to]).toEqual([1, 3])
    // its 50 reads lie in the bin from 256 clocks; the slowest read of all is 300 clocks: p99 stops by then
    const top = Math.min(binEdge(L, B256 + 1) - 1, 300)
    const p = state.latencyPercentiles('last')!
    expect(p.p50).toBeCloseTo(((256 + top) / 2) * 4, 6)
    expect(p.p99).toBeLessThanOrEqual(300 * 4)
  })

  it('waits for the histogram after the run, and knows no run it does not hold', () => {
    const state = streamed()
    state.setLatencyOf(8)
    expect(state.shownLatency('last')).toBeNull()
    expect(state.latencyPercentiles('last')).toBeNull()
  })
})
