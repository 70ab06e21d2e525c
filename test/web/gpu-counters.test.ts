// The GPU counters card, DOM-free: hidden without `serve --gpu-counters`, the source as its badge
// (PM sampling / NVML), the newest interval's read GB/s, request rate and mean request size; the
// state keeps the newest interval the server streams.
import { describe, expect, it } from 'vitest'
import type { GpuCounterInterval, GpuCountersStatus, RunReport, RunStart } from '../../host/src/core/wire.js'
import { GpuCounterTimeline, gpuCountersCard, ranOnGpu } from '../../web/gpu-counters.js'
import { AppState } from '../../web/state.js'

const status = (over: Partial<GpuCountersStatus> = {}): GpuCountersStatus => ({
  source: 'pm-sampling',
  device: 0,
  chip: 'GH100',
  intervalNs: 100_000,
  fallbackReason: null,
  intervals: 0,
  lost: 0,
  error: null,
  ...over,
})

const interval: GpuCounterInterval = {
  counterSource: 'pm-sampling',
  device: 0,
  startNs: 0,
  endNs: 100e6,
  samples: 1000,
  lost: 3,
  readBytes: 5.4e9,
  writeBytes: 0.6e9,
  readGBps: 54.03,
  writeGBps: 6,
  requests: 3.7e7,
  requestsPerSecond: 375.2e6,
  payloadGBps: 48,
  meanRequestBytes: 127.94,
  inFlight: 469,
}

const values = (c: ReturnType<typeof gpuCountersCard>) => Object.fromEntries(c.rows.map((r) => [r.label, r.value]))

describe('gpuCountersCard', () => {
  it('is hidden when the server does not sample GPU counters', () => {
    expect(gpuCountersCard(undefined, undefined).visible).toBe(false)
    expect(gpuCountersCard(null, interval).visible).toBe(false)
  })

  it('names PM sampling with the chip, and shows the newest interval', () => {
    const c = gpuCountersCard(status(), interval)
    expect(c).toMatchObject({ visible: true, badge: 'PM sampling', badgeKind: 'ok', detail: 'device 0 (GH100), every 100 µs' })
    expect(values(c)).toEqual({ read: '54.03 GB/s', 'read requests': '375.2 M/s', 'mean request': '127.9 B', 'samples lost': '3' })
  })

  it('waits for the first interval; NVML with the reason PM sampling was refused', () => {
    const c = gpuCountersCard(
      status({ source: 'nvml', chip: 'NVIDIA H100', intervalNs: 20e6, fallbackReason: 'the driver refused profiling' }),
      undefined,
    )
    expect(c.badge).toBe('NVML')
    expect(c.badgeKind).toBe('wait')
    expect(c.detail).toBe('device 0 (NVIDIA H100), every 20000 µs; PM sampling refused: the driver refused profiling')
    expect(values(c)).toMatchObject({ read: '–', 'mean request': '–', 'samples lost': '0' })
  })

  it('an interval without requests has no mean size', () => {
    expect(values(gpuCountersCard(status(), { ...interval, meanRequestBytes: null }))['mean request']).toBe('–')
  })

  it('says why the counters stopped', () => {
    const c = gpuCountersCard(status({ source: null, error: { code: 'PS_GPU_COUNTERS_FAILED', message: 'decoding failed.' } }), interval)
    expect(c).toMatchObject({
      visible: true,
      badge: 'GPU counters stopped',
      badgeKind: 'bad',
      detail: 'PS_GPU_COUNTERS_FAILED: decoding failed.',
    })
  })
})

describe('AppState and gpu-counters messages', () => {
  it('keeps the newest interval', () => {
    const s = new AppState('tok')
    expect(s.gpuCounters).toBeUndefined()
    s.apply({ type: 'gpu-counters', interval }, 1000)
    s.apply({ type: 'gpu-counters', interval: { ...interval, startNs: 100e6, endNs: 200e6, readGBps: 10 } }, 1100)
    expect(s.gpuCounters?.readGBps).toBe(10)
  })
})

describe('GpuCounterTimeline: the intervals over GPU time, and the GPU runs as bands', () => {
  const at = (k: number, over: Partial<GpuCounterInterval> = {}): GpuCounterInterval => ({
    ...interval,
    startNs: k * 100e6,
    endNs: (k + 1) * 100e6,
    ...over,
  })
  const start = (id: number, runner: 'twin' | 'cuda'): RunStart =>
    ({
      id,
      origin: 'manual',
      workload: { pattern: 'merged-aligned', bytes: 1 << 26, offset: 0 },
      baseline: {},
      runner,
    }) as unknown as RunStart
  const report = (id: number, gpu: boolean): RunReport =>
    ({
      id,
      origin: 'manual',
      result: { workload: { pattern: 'merged-aligned' }, issued: { count: 1, bytes: 128 }, wallSeconds: 1, ...(gpu ? { gpu: {} } : {}) },
      probe: {},
      finishedAt: 0,
    }) as unknown as RunReport

  it('plots each interval at its end on the source clock, every line, and breaks the lines where intervals are missing', () => {
    const t = new GpuCounterTimeline()
    t.interval(at(0))
    t.interval(at(1, { meanRequestBytes: null }))
    t.interval(at(5))
    expect(t.requests.view().map((p) => p.x)).toEqual([0.1, 0.2, 0.5, 0.6])
    expect(t.requests.view().map((p) => p.y)).toEqual([375.2e6, 375.2e6, NaN, 375.2e6])
    expect(t.payload.last()).toEqual({ x: 0.6, y: 48e9 })
    expect(t.read.last()?.y).toBeCloseTo(54.03e9)
    expect(t.meanRequest.view().map((p) => p.y)).toEqual([127.94, NaN, NaN, 127.94])
    expect(t.inFlight.last()?.y).toBe(469)
    expect(t.newestX()).toBeCloseTo(0.6)
  })

  it('opens a band for a GPU run at the newest interval and closes it with the first interval after its report', () => {
    const t = new GpuCounterTimeline()
    t.interval(at(0))
    t.runStarted(start(3, 'cuda'))
    t.runStarted(start(4, 'twin'))
    expect(t.marks).toEqual([{ id: 3, origin: 'manual', label: 'merged-aligned on the GPU', from: 0.1, to: undefined }])
    t.interval(at(1))
    t.runEnded(report(3, true))
    expect(t.marks[0]?.to).toBeUndefined()
    t.interval(at(2))
    expect(t.marks[0]?.to).toBeCloseTo(0.3)
    t.interval(at(3))
    expect(t.marks[0]?.to).toBeCloseTo(0.3)
  })

  it('closes a failed run’s band where the counters are', () => {
    const t = new GpuCounterTimeline()
    t.interval(at(0))
    t.runStarted(start(1, 'cuda'))
    t.interval(at(1))
    t.runFailed(1)
    expect(t.marks[0]).toMatchObject({ from: 0.1, to: 0.2 })
  })

  it('tells a GPU run’s report by its kernel timings', () => {
    expect(ranOnGpu(report(1, true))).toBe(true)
    expect(ranOnGpu(report(1, false))).toBe(false)
  })

  it('is fed by the state: intervals, a GPU run’s band there and none on the probe’s time axis', () => {
    const state = new AppState('t')
    state.apply({ type: 'gpu-counters', interval: at(0) }, 0)
    state.apply({ type: 'run-start', ...start(9, 'cuda'), baseline: { enabled: true, counters: { timestamp: 0 } } as never }, 0)
    expect(state.gpu.marks.map((m) => m.id)).toEqual([9])
    expect(state.marks).toEqual([])
    const done = { ...report(9, true), countersEnabled: true, probeWindow: { from: 0, to: 10 } }
    state.apply({ type: 'run', report: done, result: done.result, demo: null as never }, 0)
    state.apply({ type: 'gpu-counters', interval: at(1) }, 0)
    expect(state.marks).toEqual([])
    expect(state.gpu.marks[0]).toMatchObject({ id: 9, from: 0.1, to: 0.2 })
    expect(state.gpu.requests.length).toBe(2)
  })
})
