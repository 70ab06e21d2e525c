// The GPU counters card, DOM-free: hidden without `serve --gpu-counters`, the source as its badge
// (PM sampling / NVML), the newest interval's read GB/s, request rate and mean request size; the
// state keeps the newest interval the server streams.
import { describe, expect, it } from 'vitest'
import type { GpuCounterInterval, GpuCountersStatus } from '../../host/src/core/wire.js'
import { gpuCountersCard } from '../../web/gpu-counters.js'
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
