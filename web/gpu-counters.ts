/**
 * The GPU's own PCIe counters card (`serve --gpu-counters`), DOM-free: what it shows from the
 * server's status (the source) and the newest streamed interval (read GB/s, request rate, mean
 * request size). views/gpu-counters.ts draws it.
 */
import type { GpuCounterInterval, GpuCountersStatus } from '../host/src/core/wire.js'

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
