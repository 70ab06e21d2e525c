import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { IntervalRecord, Snapshot } from '../../host/src/core/probe.js'
import type { RecordingsListing, RunReport, ServerMessage, ServerStatus } from '../../host/src/core/wire.js'
import { AppState } from '../../web/state.js'
import { TestAppState } from '../../web/test-hook.js'
import { shownRuns } from '../../web/run-history.js'
import { HISTOGRAM_WORDS } from '../../host/src/core/generated.js'
import { SIZE_KEYS } from '../../host/src/core/size-classes.js'
import { CLOCK_HZ, FakeClient, fakeInfo } from '../host/server/fake-session.js'
import { SPEC_HISTOGRAM_LAYOUT } from '../../host/src/core/latency-histogram.js'

const PERIOD = 25_000_000 // 100 ms of probe clock

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

function started() {
  // the test build's state: the same page, and the run box's history readable
  const state = new TestAppState('tok')
  state.feedOpened()
  const c = new FakeClient()
  c.enabled = true
  const hello: ServerMessage = {
    type: 'hello',
    source: 'twin',
    path: '/dev/pts/x',
    info: fakeInfo(),
    pcieLink: null,
    tagBudget: 256,
    twinMode: 'endpoint',
    counters: [],
    recent: [],
    latencyHistograms: { last: null, first: null },
    taps: {},
    lastRun: null,
  }
  state.apply(hello, 0)
  state.apply(
    {
      type: 'status',
      connected: true,
      streaming: { periodMs: 100 },
      hostStats: null,
      wsDrops: 0,
      lastSnapshot: null,
    } as unknown as ServerMessage,
    0,
  )
  let wall = 1_000
  /** one streamed snapshot after `cycles` of counting, arriving `ms` later */
  const tick = (opts: { cycles?: number; mrd128?: number; ms?: number } = {}): Snapshot => {
    c.counters.mrd128 += opts.mrd128 ?? 100
    c.counters.cpldCount += opts.mrd128 ?? 100
    c.counters.cpldBytes += 128 * (opts.mrd128 ?? 100)
    c.counters.mrdBytes += 128 * (opts.mrd128 ?? 100)
    const s = c.tick(opts.cycles ?? PERIOD)
    wall += opts.ms ?? 100
    s.receivedAt = wall
    state.apply({ type: 'snapshot', snapshots: [s], hostStats: null, wsDrops: 0 }, wall)
    return s
  }
  return { state, c, tick, now: () => wall }
}

const report = (id: number, origin: 'demo' | 'manual', from: Snapshot, to: Snapshot, pattern = 'strided'): RunReport =>
  ({
    id,
    origin,
    result: { workload: { pattern, bytes: 4096, offset: 0 }, issued: { count: 128, bytes: 4096 }, simCycles: 2_500 },
    probe: { ...to.counters, mrd32: 128, mrd128: 0, mrdBytes: 4096, cpldBytes: 4096 },
    countersEnabled: to.enabled,
    probeWindow: { from: from.counters.timestamp, to: to.counters.timestamp },
    finishedAt: 1_700_000_000_000 + id,
  }) as unknown as RunReport

describe('AppState rates', () => {
  it('plots MRd/s and completed payload on the probe clock', () => {
    const { state, tick } = started()
    tick()
    tick()
    const p = state.payloadRate.last()
    expect(p?.x).toBeCloseTo((2 * PERIOD) / CLOCK_HZ)
    expect(p?.y).toBeCloseTo((100 * 128) / 0.1)
    expect(state.mrdRate.last()?.y).toBeCloseTo(1_000)
    expect(state.gaps).toBe(0)
  })

  it('breaks the line with a NaN point across a clear, a stop and a quiet stream', () => {
    const { state, c, tick } = started()
    tick()
    tick()
    // clear: CYCLES goes back
    c.counters.cycles = 0
    tick()
    tick()
    expect(state.gaps).toBe(1)
    // stopped for a while: TIMESTAMP runs on, CYCLES does not
    c.counters.timestamp += 10 * PERIOD
    tick()
    tick()
    expect(state.gaps).toBe(2)
    // nothing for longer than the stale limit
    tick({ ms: 5_000 })
    tick()
    expect(state.gaps).toBe(3)
    const ys = state.mrdRate.view().map((p) => p.y)
    expect(ys.filter((y) => Number.isNaN(y))).toHaveLength(3)
    const xs = state.mrdRate.view().map((p) => p.x)
    expect([...xs].sort((a, b) => a - b)).toEqual(xs) // still ordered for chart.js
  })

  it('starts a new time axis when the firmware restarts', () => {
    const { state, c, tick } = started()
    tick()
    tick()
    c.counters.timestamp = 0
    c.counters.cycles = 0
    c.index = 0
    tick()
    expect(state.last?.index).toBe(0)
    expect(state.mrdRate.length).toBe(0)
  })

  it('keeps its history when a run’s on-demand baseline arrives after a newer periodic snapshot', () => {
    const { state, c, tick } = started()
    tick()
    tick()
    state.apply({ type: 'run-start', id: 1, origin: 'demo', workload: { pattern: 'strided', bytes: 4096, offset: 0 }, baseline: tick() }, 0)
    // the server read the next run's baseline, then a periodic snapshot overtook it on the way
    c.counters.timestamp += 1_000
    const baseline = c.makeSnapshot(true)
    baseline.receivedAt = 1_250
    tick()
    const points = state.mrdRate.length
    expect(points).toBeGreaterThan(0)
    state.apply({ type: 'run-start', id: 2, origin: 'manual', workload: { pattern: 'strided', bytes: 4096, offset: 0 }, baseline }, 2_000)
    expect(state.mrdRate.length).toBe(points)
    expect(state.marks.map((m) => m.id)).toEqual([1, 2])
    expect(state.last?.index).toBe(baseline.index + 1)
  })

  it('counts intervals whose payload reads above the link ceiling', () => {
    const { state, tick } = started()
    state.pcieLink = { name: 'slow', tlpBytesPerSecond: 1e5 }
    tick()
    tick()
    expect(state.aboveCeilingCount).toBe(1)
  })
})

describe('AppState runs', () => {
  it('marks each run on the time axis and shows the current run or the total', () => {
    const { state, tick } = started()
    const base = tick()
    state.apply({ type: 'run-start', id: 7, origin: 'demo', workload: { pattern: 'strided', bytes: 4096, offset: 0 }, baseline: base }, 0)
    expect(state.marks.at(-1)).toMatchObject({ id: 7, label: 'strided', to: undefined })
    tick({ mrd128: 3 })
    state.setHistogramMode('run')
    expect(state.shownHistogram().caption).toBe('run #7 strided (running)')
    expect(state.shownHistogram().counts[3]).toBe(3)
    const end = tick({ mrd128: 0 })
    state.apply(
      {
        type: 'run',
        report: report(7, 'demo', base, end),
        result: report(7, 'demo', base, end).result,
        demo: { enabled: true, runs: 1, current: null },
      },
      0,
    )
    expect(state.marks.at(-1)?.to).toBeCloseTo(end.counters.timestamp / CLOCK_HZ)
    expect(state.shownHistogram()).toMatchObject({
      caption: 'run #7 strided',
      counts: SIZE_KEYS.map((k) => (k === '32' ? 128 : 0)),
      bytes: 4096,
    })
    state.setHistogramMode('total')
    expect(state.shownHistogram().caption).toBe('since last clear')
    expect(state.shownHistogram().counts[3]).toBe(end.counters.mrd128)
  })

  it('keeps demo results out of the result box while a run from the form is pending', () => {
    const { state, tick } = started()
    const a = tick()
    const b = tick()
    state.manualStarted('running merged-misaligned…')
    state.apply(
      {
        type: 'run',
        report: report(1, 'demo', a, b),
        result: report(1, 'demo', a, b).result,
        demo: { enabled: true, runs: 1, current: null },
      },
      0,
    )
    expect(state.runBox).toEqual({ kind: 'pending', text: 'running merged-misaligned…' })
    state.manualFinished({ report: report(2, 'manual', a, b, 'merged-misaligned') })
    expect(state.runBox.kind).toBe('report')
    expect(state.runBoxHistory).toEqual(['running merged-misaligned…', 'run #2 (manual) merged-misaligned'])
    // the manual result stays while the demo loop goes on, until the user closes it
    state.apply(
      {
        type: 'run',
        report: report(3, 'demo', a, b),
        result: report(3, 'demo', a, b).result,
        demo: { enabled: true, runs: 2, current: null },
      },
      0,
    )
    expect(state.runBoxHistory.at(-1)).toBe('run #2 (manual) merged-misaligned')
    state.dismissRunBox()
    expect(state.runBoxHistory.at(-1)).toBe('run #3 (demo) strided')
    state.apply(
      {
        type: 'run',
        report: report(4, 'demo', a, b),
        result: report(4, 'demo', a, b).result,
        demo: { enabled: true, runs: 3, current: null },
      },
      0,
    )
    expect(state.runBoxHistory.at(-1)).toBe('run #4 (demo) strided')
    // a manual run's error stays as well
    state.manualStarted('running strided…')
    state.manualFinished({ error: 'PS_X: no' })
    state.apply(
      {
        type: 'run',
        report: report(5, 'demo', a, b),
        result: report(5, 'demo', a, b).result,
        demo: { enabled: true, runs: 4, current: null },
      },
      0,
    )
    expect(state.runBox).toEqual({ kind: 'error', text: 'PS_X: no' })
  })

  it('lists every run once, with its pattern, GB/s, requests and when it finished', () => {
    const { state, tick } = started()
    const a = tick()
    const b = tick()
    const manual = report(1, 'manual', a, b, 'merged-aligned')
    state.manualStarted('running merged-aligned…')
    state.apply({ type: 'run', report: manual, result: manual.result, demo: { enabled: true, runs: 0, current: null } }, 0)
    state.manualFinished({ report: manual }) // the POST reply brings the same run again
    state.apply(
      {
        type: 'run',
        report: report(2, 'demo', a, b),
        result: report(2, 'demo', a, b).result,
        demo: { enabled: true, runs: 1, current: null },
      },
      0,
    )
    expect(state.runHistory).toEqual([
      // 4096 B of payload in 2500 clocks (10 µs at 250 MHz): 0.41 GB/s
      { id: 1, origin: 'manual', label: 'merged-aligned', gbps: 4096 / 10e-6 / 1e9, requests: 128, at: 1_700_000_000_001, counted: true },
      { id: 2, origin: 'demo', label: 'strided', gbps: 4096 / 10e-6 / 1e9, requests: 128, at: 1_700_000_000_002, counted: true },
    ])
    expect(shownRuns(state.runHistory, false).map((e) => e.id)).toEqual([1])
    expect(shownRuns(state.runHistory, true).map((e) => e.id)).toEqual([2, 1])
  })

  it('leaves no named band for a run made while the counters were stopped', () => {
    const { state, c, tick } = started()
    tick()
    c.enabled = false
    const a = tick()
    state.apply({ type: 'run-start', id: 9, origin: 'manual', workload: { pattern: 'strided', bytes: 4096, offset: 0 }, baseline: a }, 0)
    const b = tick()
    state.manualFinished({ report: report(9, 'manual', a, b) })
    expect(state.marks).toEqual([])
    expect(state.runHistory.map((e) => [e.id, e.counted, e.gbps])).toEqual([[9, false, null]])
    // and one whose start was seen while counting, then stopped before its end, loses its band too
    c.enabled = true
    const d = tick()
    state.apply({ type: 'run-start', id: 10, origin: 'demo', workload: { pattern: 'strided', bytes: 4096, offset: 0 }, baseline: d }, 0)
    expect(state.marks.map((m) => m.id)).toEqual([10])
    c.enabled = false
    const e = tick()
    state.apply(
      {
        type: 'run',
        report: report(10, 'demo', d, e),
        result: report(10, 'demo', d, e).result,
        demo: { enabled: true, runs: 1, current: null },
      },
      0,
    )
    expect(state.marks).toEqual([])
  })

  it('drops the demo line ("now: …") once the server is gone', () => {
    const { state, now } = started()
    state.apply({ type: 'status', ...(state.status as ServerStatus), demo: { enabled: true, runs: 4, current: 'strided' } }, now())
    expect(state.demoLine()).toBe('demo loop: 4 runs · now: strided')
    state.feedLost()
    expect(state.demoLine()).toBe('')
  })

  it('reports a live state from the status and the newest snapshot', () => {
    const { state, tick, now } = started()
    tick()
    expect(state.live(now()).key).toBe('live')
    expect(state.live(now() + 3_000).key).toBe('stale')
    state.apply({ type: 'status', ...(state.status as ServerStatus), streaming: null }, now())
    expect(state.live(now()).key).toBe('stopped')
  })
})

describe('AppState latency histogram', () => {
  it('keeps the newest HISTOGRAM frame of each kind and derives p50 / p99 with the host’s rule', () => {
    const { state, now } = started()
    expect(state.latencyPercentiles()).toBeNull()
    expect(state.hook(now()).latencyP50Ns).toBeNull()
    const bins = Array<number>(HISTOGRAM_WORDS).fill(0)
    bins[56] = 100 // [512, 576) clocks = [2048, 2304) ns at 250 MHz
    state.apply(
      {
        type: 'latency-histogram',
        histogram: { seq: 1, reason: 'periodic', kind: 'last', snapshotIndex: 4, layout: SPEC_HISTOGRAM_LAYOUT, bins, receivedAt: 0 },
      },
      now(),
    )
    let hook = state.hook(now())
    expect(hook.latencyReads).toBe(100)
    expect(hook.latencyP50Ns).toBeCloseTo(((512 + 63 / 2) * 1e9) / CLOCK_HZ)
    expect(hook.latencyP99Ns).toBeCloseTo(((512 + 63 * 0.99) * 1e9) / CLOCK_HZ)
    expect(hook.latencyFirstReads).toBe(0)
    expect(hook.latencyFirstP50Ns).toBeNull()
    // the first-completion frame of the same snapshot fills its own slot, the last's stays
    const first = Array<number>(HISTOGRAM_WORDS).fill(0)
    first[40] = 100 // [128, 144) clocks
    state.apply(
      {
        type: 'latency-histogram',
        histogram: {
          seq: 2,
          reason: 'periodic',
          kind: 'first',
          snapshotIndex: 4,
          layout: SPEC_HISTOGRAM_LAYOUT,
          bins: first,
          receivedAt: 0,
        },
      },
      now(),
    )
    hook = state.hook(now())
    expect(hook.latencyFirstReads).toBe(100)
    expect(hook.latencyFirstP50Ns).toBeCloseTo(((128 + 15 / 2) * 1e9) / CLOCK_HZ)
    expect(hook.latencyP50Ns).toBeCloseTo(((512 + 63 / 2) * 1e9) / CLOCK_HZ)
  })
})

describe('AppState interval records', () => {
  const rec = (ts: number, avg: number): IntervalRecord => ({
    ts,
    cycles: 2500,
    mrdCount: 100,
    mrdBytes: 12_800,
    cpldCount: 100,
    cpldBytes: 12_800,
    occSum: avg * 2500,
    occPeak: avg + 5,
    latSum: 100 * 250,
    latCount: 100,
  })
  const batch = (firstIndex: number, records: IntervalRecord[], dropped = 0): ServerMessage => ({
    type: 'intervals',
    batch: { seq: 0, firstIndex, dropped, overflow: 0, records, receivedAt: 0 },
  })

  it('draws outstanding average and peak per interval, breaks the lines where records were lost, and names the limit', () => {
    const { state, now } = started()
    state.apply(batch(0, [rec(2500, 10), rec(5000, 12)]), now())
    expect(state.intervalAvg.view().map((p) => p.y)).toEqual([10, 12])
    expect(state.intervalPeak.view().map((p) => p.y)).toEqual([15, 17])
    // Little's law per interval: 100 reads in 10 µs at 1 µs each = 10 in flight
    expect(state.intervalLittle.view()[0]!.y).toBeCloseTo(10)
    expect(state.hook(now())).toMatchObject({ intervalPoints: 2, intervalGaps: 0, intervalLimit: 'latency' })
    // the firmware dropped 3 records: a NaN break, then the new points
    state.apply(batch(5, [rec(15_000, 11)], 3), now())
    expect(state.intervalAvg.view().map((p) => p.y)).toEqual([10, 12, NaN, 11])
    expect(state.hook(now())).toMatchObject({ intervalPoints: 3, intervalGaps: 1 })
    // a twin that restarted: time goes back, a new axis
    state.apply(batch(0, [rec(2500, 4)]), now())
    expect(state.intervalAvg.view().map((p) => p.y)).toEqual([4])
  })
})

describe('AppState controls', () => {
  it('changes on the page’s controls and the feed’s events only through its methods', () => {
    const state = new AppState('tok')
    expect(state.live(0).key).not.toBe('wrong-token')
    state.togglePaused()
    expect(state.paused).toBe(true)
    state.togglePaused()
    expect(state.paused).toBe(false)
    state.setHistogramMode('run')
    expect(state.histogramMode).toBe('run')
    const listing = { root: '/r', recording: null } as RecordingsListing
    state.setRecordings(listing)
    expect(state.recordings).toBe(listing)
    state.feedOpened()
    expect(state.feed).toBe('open')
    state.feedLost()
    expect(state.feed).toBe('unreachable')
    state.tokenRejected()
    expect(state.auth).toBe('rejected')
  })

  it('is the one writer of its fields: no view and not the feed assigns to the state', () => {
    const dir = join(root, 'web/views')
    const files = [...readdirSync(dir).map((f) => join(dir, f)), join(root, 'web/feed.ts'), join(root, 'web/app.ts')]
    // `state.x = …`, `state.x.y += …`, `state.x++`: a view calls an AppState method instead
    const write = /\bstate\.[\w.]+\s*(?:[-+*/|&]?=(?!=)|\+\+|--)/
    const offenders = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => write.test(l))
        .map((l) => `${f}: ${l.trim()}`),
    )
    expect(offenders).toEqual([])
    expect(write.test('ctx.state.paused = !ctx.state.paused')).toBe(true) // the rule sees what it forbids
  })
})
