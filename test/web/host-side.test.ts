import { describe, expect, it } from 'vitest'
import type { Snapshot, TapSnapshot } from '../../host/src/core/probe.js'
import type { ServerMessage } from '../../host/src/core/wire.js'
import type { TwinMode } from '../../host/src/core/twin-mode.js'
import { HostSide } from '../../web/host-side.js'
import { AppState } from '../../web/state.js'
import { TestAppState } from '../../web/test-hook.js'
import { CLOCK_HZ, FAKE_LATENCY_CLOCKS, FakeClient, fakeInfo, SWITCH_CLOCKS } from '../host/server/fake-session.js'

const NS_PER_CLOCK = 1e9 / CLOCK_HZ

/** A fake device in switch mode, counting: what it emits, as the server would forward it. */
function device(switchMode = true) {
  const c = new FakeClient()
  c.switchMode = switchMode
  c.enabled = true
  const out: ServerMessage[] = []
  c.on('snapshot', (s: Snapshot) => out.push({ type: 'snapshot', snapshots: [s], hostStats: null, wsDrops: 0 }))
  // as the hub: the tap snapshot rides in the batch of the snapshot it names
  c.on('tap-snapshot', (t: TapSnapshot) => {
    const m = out.at(-1)
    if (m?.type === 'snapshot') m.tapSnapshots = [...(m.tapSnapshots ?? []), t]
  })
  c.on('histogram', (histogram) => out.push({ type: 'latency-histogram', histogram }))
  c.on('tap-histogram', (histogram) => out.push({ type: 'tap-histogram', histogram }))
  return { c, out }
}

function page(opts: { taps?: Extract<ServerMessage, { type: 'hello' }>['taps']; recent?: Snapshot[]; twinMode?: TwinMode | null } = {}) {
  const state = new TestAppState('tok')
  state.apply(
    {
      type: 'hello',
      source: 'twin',
      path: '/dev/pts/x',
      info: fakeInfo(),
      pcieLink: null,
      tagBudget: 256,
      twinMode: opts.twinMode === undefined ? 'switch' : opts.twinMode,
      counters: [],
      recent: opts.recent ?? [],
      latencyHistograms: { last: null, first: null },
      taps: opts.taps ?? {},
      lastRun: null,
    },
    0,
  )
  return state
}

describe('the host side next to the GPU side (web/host-side.ts)', () => {
  it('pairs each side by snapshot: the mean latency differs by the switch’s 2 clocks, 8 ns at 250 MHz', () => {
    const { c, out } = device()
    const state = page()
    for (let i = 0; i < 10; i++) c.tick()
    for (const m of out) state.apply(m, 1_000)
    expect(state.hostSide.seen).toBe(true)
    const cmp = state.hostSideComparison()!
    expect(cmp.snapshotIndex).toBe(9)
    expect(cmp.gpu.meanNs).toBeCloseTo(FAKE_LATENCY_CLOCKS * NS_PER_CLOCK, 9) // 1008 ns
    expect(cmp.host.meanNs).toBeCloseTo((FAKE_LATENCY_CLOCKS - SWITCH_CLOCKS) * NS_PER_CLOCK, 9) // 1000 ns
    expect(cmp.diff.meanNs).toBeCloseTo(8, 9)
    expect(cmp.meanDiffClocks).toBeCloseTo(2, 9)
    // the histograms of the same snapshot give p50/p99, good to one 256-ns bin: both reads land in one
    expect(cmp.histogramSnapshotIndex).toBe(9)
    expect(cmp.gpu.p50Ns).toBeGreaterThan(0)
    expect(cmp.host.p50Ns).toBe(cmp.gpu.p50Ns)
    expect(cmp.diff.p99Ns).toBe(0)
    // 40 reads in flight on the GPU side; each one 2 clocks shorter on the host side
    expect(cmp.gpu.outstandingAvg).toBeCloseTo(40, 9)
    expect(cmp.host.outstandingAvg!).toBeLessThan(40)
    expect(cmp.diff.outstandingAvg).toBeCloseTo((100 * SWITCH_CLOCKS) / 25_000_000, 12)
    expect(cmp.gpu.outstandingInterval).toBeCloseTo(40, 9)
    expect(cmp.host.reads).toBe(cmp.gpu.reads)
    expect(state.hook(1_000).hostSide).toEqual(cmp)
  })

  it('in endpoint mode nothing changes: no host side, no comparison, no card', () => {
    const { c, out } = device(false)
    const state = page({ twinMode: 'endpoint' })
    for (let i = 0; i < 10; i++) c.tick()
    for (const m of out) state.apply(m, 1_000)
    expect(state.hostSide.seen).toBe(false)
    expect(state.hostSideComparison()).toBeNull()
    expect(state.hook(1_000).hostSide).toBeNull()
    expect(state.showHostSide).toBe(false)
  })

  it('shows the card as soon as the twin says it runs the switch, and for a host side from a board', () => {
    // the twin's default design: the card is there before the first host-side snapshot arrives
    const sw = page()
    expect(sw.twinMode).toBe('switch')
    expect(sw.hostSide.seen).toBe(false)
    expect(sw.showHostSide).toBe(true)
    // a board says no design (twinMode null): its host-side frames alone show the card
    const { c, out } = device()
    const board = page({ twinMode: null })
    expect(board.showHostSide).toBe(false)
    for (let i = 0; i < 10; i++) c.tick()
    for (const m of out) board.apply(m, 1_000)
    expect(board.showHostSide).toBe(true)
    // a status names the design too (a server's twin restarted with another one)
    const status = {
      type: 'status',
      twinMode: 'endpoint',
      connected: true,
      streaming: null,
      hostStats: null,
      wsDrops: 0,
      lastSnapshot: null,
    }
    sw.apply(status as unknown as ServerMessage, 2_000)
    expect(sw.showHostSide).toBe(false)
  })

  it('a reloaded page restores the host side from hello', () => {
    const { c } = device()
    const recent: Snapshot[] = []
    const taps: TapSnapshot[] = []
    c.on('snapshot', (s: Snapshot) => recent.push(s))
    c.on('tap-snapshot', (t: TapSnapshot) => taps.push(t))
    for (let i = 0; i < 9; i++) c.tick()
    const { gpu, host } = c.emitHistograms(recent.at(-1)!)
    const state = new AppState('tok')
    state.apply(
      {
        type: 'hello',
        source: 'twin',
        path: '/dev/pts/x',
        info: fakeInfo(),
        pcieLink: null,
        tagBudget: 256,
        twinMode: 'switch',
        counters: [],
        recent,
        latencyHistograms: { last: gpu.find((h) => h.kind === 'last')!, first: gpu.find((h) => h.kind === 'first')! },
        taps: {
          hostSide: {
            snapshot: taps.at(-1)!,
            histograms: { last: host.find((h) => h.kind === 'last')!, first: host.find((h) => h.kind === 'first')! },
          },
        },
        lastRun: null,
      },
      1_000,
    )
    const cmp = state.hostSideComparison()!
    expect(cmp.snapshotIndex).toBe(8)
    expect(cmp.histogramSnapshotIndex).toBe(8)
    expect(cmp.diff.meanNs).toBeCloseTo(8, 9)
  })

  it('leaves a host-side snapshot whose GPU-side partner never came unpaired, and keeps the last pair', () => {
    const { c } = device()
    const h = new HostSide()
    const s0 = c.tick()
    h.gpuSnapshot(s0)
    h.tapSnapshot(c.tapSnapshotOf(s0))
    const s1 = c.tick() // its SNAPSHOT skipped (a slow client's batch)
    h.tapSnapshot(c.tapSnapshotOf(s1))
    expect(h.seen).toBe(true)
    expect(h.comparison(CLOCK_HZ)?.snapshotIndex).toBe(0)
    // a histogram of another snapshot than the GPU side's newest is not compared
    const { gpu, host } = c.emitHistograms(s1)
    h.tapHistogram(host[0]!, { ...gpu[0]!, snapshotIndex: 0 })
    expect(h.comparison(CLOCK_HZ)?.histogramSnapshotIndex).toBeNull()
    h.reset()
    expect(h.seen).toBe(false)
    expect(h.comparison(CLOCK_HZ)).toBeNull()
  })
})
