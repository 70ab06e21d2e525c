/**
 * Shapes that cross the server ↔ browser boundary (REST bodies and WebSocket messages).
 * Types only: the web UI imports this file too, so it must not pull in Node modules.
 */
import type { HostLinkStats, ProbeInfo, Snapshot } from './probe.js'
import type { PatternName, Workload, WorkloadResult } from './workload.js'
import type { PcieLinkInfo } from './link.js'
import type { CounterKey } from './generated.js'

export interface CounterMeta {
  key: CounterKey
  name: string
  index: number
  doc: string
}

/** Why the device is not connected; `null` while it is. */
export interface DeviceError {
  code: string
  message: string
}

export interface DemoState {
  enabled: boolean
  /** runs the demo loop has completed since start */
  runs: number
  /** the pattern running now, or null between runs / when paused */
  current: PatternName | null
}

/** GET /api/status and WS {type:'status'}. */
/** Where POST /api/run can run a workload: the twin's traffic model, or this host's GPU. */
export const RUN_SOURCES = ['twin', 'gpu'] as const
export type RunSource = (typeof RUN_SOURCES)[number]

/** Whether a run source is usable on this server, and the one sentence why not. */
export interface SourceAvailability {
  available: boolean
  reason: string | null
}

export interface ServerStatus {
  source: 'twin' | 'serial'
  path: string
  connected: boolean
  error: DeviceError | null
  info: ProbeInfo
  /** the PCIe link the probe watches, when the source knows it (the twin does) */
  pcieLink: PcieLinkInfo | null
  /** reads the requester may have outstanding, when the source knows it (the twin does) */
  tagBudget: number | null
  runner: 'twin' | 'cuda' | null
  /** the sources POST /api/run accepts now; gpu also names the GPUs found */
  sources: { twin: SourceAvailability; gpu: SourceAvailability & { devices: string[] } }
  hostStats: HostLinkStats | null
  lastSnapshot: Snapshot | null
  /** WebSocket snapshot batches skipped for slow clients, summed over all clients */
  wsDrops: number
  wsClients: number
  /** link errors the probe client reported, by PsError code */
  linkErrors: Record<string, number>
  demo: DemoState
  /** snapshots streaming at this period (after START), or null (never started, or STOP) */
  streaming: { periodMs: number } | null
}

/** Counter deltas of the on-demand snapshots taken just before and just after a workload. */
export type CounterDeltas = Record<CounterKey, number>

/** POST /api/run reply and WS {type:'run'}. */
export interface RunReport {
  id: number
  origin: 'demo' | 'manual'
  result: WorkloadResult
  /** after − before of every probe counter */
  probe: CounterDeltas
  /** whether the probe counters were enabled while the workload ran */
  countersEnabled: boolean
  /** the probe's free-running TIMESTAMP (clock cycles) at the snapshots before and after */
  probeWindow: { from: number; to: number }
  startedAt: number
  finishedAt: number
}

/** WS {type:'run-start'}: a workload is about to run; `baseline` is the snapshot taken before it. */
export interface RunStart {
  id: number
  origin: 'demo' | 'manual'
  workload: Workload
  baseline: Snapshot
}

export type ServerMessage =
  | {
      type: 'hello'
      source: 'twin' | 'serial'
      path: string
      info: ProbeInfo
      pcieLink: PcieLinkInfo | null
      tagBudget: number | null
      counters: CounterMeta[]
      /** the most recent snapshots (oldest first) so a reloaded page shows history */
      recent: Snapshot[]
      lastRun: RunReport | null
    }
  | ({ type: 'status' } & ServerStatus)
  | { type: 'snapshot'; snapshots: Snapshot[]; hostStats: HostLinkStats | null; wsDrops: number }
  | ({ type: 'run-start' } & RunStart)
  | { type: 'run'; report: RunReport; result: WorkloadResult; demo: DemoState }
  | { type: 'run-error'; origin: 'demo' | 'manual'; error: DeviceError }

/** One recording as GET /api/captures lists it (the part the page shows; the server sends more). */
export interface RecordingSummary {
  name: string
  status: 'recording' | 'complete' | 'interrupted'
  startedAt: string
  durationSeconds: number | null
  records: number
  runs: number
}

/** GET /api/captures: the recordings under the server's capture root, and the one it writes. */
export interface RecordingsListing {
  root: string | null
  recording: string | null
  captures: RecordingSummary[]
}

/** Every error body the REST API returns. */
export interface ApiErrorBody {
  error: { code: string; message: string; details?: unknown }
}
