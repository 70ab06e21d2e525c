/**
 * The GPU's own PCIe counters card (`serve --gpu-counters`), DOM-free: what it shows from the
 * server's status (the source) and the newest streamed interval (read GB/s, request rate, mean
 * request size), and the intervals over time with the GPU's runs. views/gpu-counters.ts draws it.
 */
import type { GpuCounterInterval, GpuCountersStatus, RunReport, RunStart } from '../host/src/core/wire.js'
import { RingSeries } from './model.js'
import { workloadLabel } from './run-history.js'
import type { RunMark } from './state.js'

/** The sources as the card names them. */
const GPU_COUNTER_SOURCE_LABELS = { 'pm-sampling': 'PM sampling', nvml: 'NVML' } as const

export interface GpuCountersCard {
  /** the server samples GPU counters (or did, until they failed) */
  visible: boolean
  /** the source, or why there is none */
  badge: string
  badgeKind: 'ok' | 'wait' | 'bad'
  /** the chip, device and interval; or the error's sentence */
  detail: string
  rows: { label: string; value: string; testid: string }[]
}

const fixed = (v: number, digits: number): string => (Number.isFinite(v) ? v.toFixed(digits) : '–')

export const gpuCountersCard = (status: GpuCountersStatus | null | undefined, last: GpuCounterInterval | undefined): GpuCountersCard => {
  if (!status) return { visible: false, badge: '', badgeKind: 'wait', detail: '', rows: [] }
  const rows = [
    { label: 'read', value: last ? `${fixed(last.readGBps, 2)} GB/s` : '–', testid: 'gpu-read' },
    { label: 'read requests', value: last ? `${fixed(last.requestsPerSecond / 1e6, 1)} M/s` : '–', testid: 'gpu-requests' },
    {
      label: 'mean request',
      value: last?.meanRequestBytes != null ? `${fixed(last.meanRequestBytes, 1)} B` : '–',
      testid: 'gpu-mean-request',
    },
    { label: 'samples lost', value: String(last?.lost ?? status.lost), testid: 'gpu-lost' },
  ]
  if (status.error || status.source === null)
    return {
      visible: true,
      badge: 'GPU counters stopped',
      badgeKind: 'bad',
      detail: status.error ? `${status.error.code}: ${status.error.message}` : 'no source',
      rows,
    }
  const interval = status.intervalNs === null ? '' : `, every ${status.intervalNs / 1000} µs`
  return {
    visible: true,
    badge: GPU_COUNTER_SOURCE_LABELS[status.source],
    badgeKind: last ? 'ok' : 'wait',
    detail:
      `device ${status.device}${status.chip ? ` (${status.chip})` : ''}${interval}` +
      (status.fallbackReason ? `; PM sampling refused: ${status.fallbackReason}` : ''),
    rows,
  }
}

/** Points kept per line: a minute of the server's 100-ms intervals. */
const GPU_POINTS = 600
/** GPU runs kept as bands */
const GPU_MAX_MARKS = 40

/** A run on this host's GPU: its report carries the kernel's own timings. */
export const ranOnGpu = (r: RunReport): boolean => r.result.gpu !== undefined || r.result.gpuGraph !== undefined

/**
 * The GPU's own counters over time, on the source's clock (seconds since its origin), and the
 * GPU runs as bands on that axis. A run's band opens at the newest interval when the run starts
 * and closes at the end of the first interval after its report, so the traffic still in the
 * sampler's pipeline when the report arrives (up to an interval) falls inside it. A hole in the
 * intervals (the sampler restarted) is a gap in every line.
 */
export class GpuCounterTimeline {
  readonly read = new RingSeries(GPU_POINTS)
  readonly payload = new RingSeries(GPU_POINTS)
  readonly requests = new RingSeries(GPU_POINTS)
  readonly meanRequest = new RingSeries(GPU_POINTS)
  readonly inFlight = new RingSeries(GPU_POINTS)
  readonly marks: RunMark[] = []
  last: GpuCounterInterval | undefined
  private readonly lines = [this.read, this.payload, this.requests, this.meanRequest, this.inFlight]
  private closing: RunMark[] = []

  newestX(): number | undefined {
    return this.last ? this.last.endNs / 1e9 : undefined
  }

  interval(i: GpuCounterInterval): void {
    if (this.last && i.startNs !== this.last.endNs) for (const l of this.lines) l.push({ x: i.startNs / 1e9, y: NaN })
    this.last = i
    const x = i.endNs / 1e9
    this.read.push({ x, y: i.readGBps * 1e9 })
    this.payload.push({ x, y: i.payloadGBps * 1e9 })
    this.requests.push({ x, y: i.requestsPerSecond })
    this.meanRequest.push({ x, y: i.meanRequestBytes ?? NaN })
    this.inFlight.push({ x, y: i.inFlight })
    for (const m of this.closing) m.to = x
    this.closing = []
  }

  /** A run starts: a band when the GPU runs it. */
  runStarted(r: RunStart): void {
    if (r.runner !== 'cuda') return
    this.marks.push({
      id: r.id,
      origin: r.origin,
      label: `${workloadLabel(r.workload)} on the GPU`,
      from: this.newestX() ?? 0,
      to: undefined,
    })
    if (this.marks.length > GPU_MAX_MARKS) this.marks.shift()
  }

  /** A run's report: its band closes with the next interval. */
  runEnded(r: RunReport): void {
    const m = this.marks.find((k) => k.id === r.id)
    if (m && m.to === undefined) this.closing.push(m)
  }

  /** A run that failed: its band closes where the counters are now. */
  runFailed(id: number): void {
    const m = this.marks.find((k) => k.id === id)
    if (m && m.to === undefined) m.to = this.newestX() ?? m.from
  }
}
