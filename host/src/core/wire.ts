/**
 * Shapes that cross the server ↔ browser boundary (REST bodies and WebSocket messages).
 * Types only: the web UI imports this file too, so it must not pull in Node modules.
 */
import type { HostLinkStats, IntervalBatch, LatencyHistogram, ProbeInfo, Snapshot, TapHistogram, TapSnapshot } from './probe.js'
import type { PatternName, AnyWorkload, WorkloadResult } from './workload.js'
import type { PcieLinkInfo } from './link.js'
import type { TwinMode } from './twin-mode.js'
import type { RunEntry, RunSummary } from './run-summary.js'
import type { CounterKey, HistogramKindKey, TapKey } from './generated.js'

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

/**
 * One interval of the GPU's own PCIe counters as the server streams and records it (`serve
 * --gpu-counters`; docs/gpu-counters.md): the counters' sums over `startNs..endNs` of the
 * source's clock and what host/src/gpu-counters/derive.ts makes of them.
 */
export interface GpuCounterInterval {
  /** the counters' source: CUPTI PM sampling, or NVML where PM sampling was refused */
  counterSource: 'pm-sampling' | 'nvml'
  /** CUDA device ordinal */
  device: number
  /** ns since the source's origin */
  startNs: number
  endNs: number
  /** samples summed, and samples known lost since sampling began */
  samples: number
  lost: number
  /** TLP bytes into and out of the GPU, as counted */
  readBytes: number
  writeBytes: number
  readGBps: number
  writeGBps: number
  /** MRds derived from the outgoing bytes (an upper bound where the GPU also writes) */
  requests: number
  requestsPerSecond: number
  payloadGBps: number
  /** payload per request; null without requests */
  meanRequestBytes: number | null
  /** Little's law with the idle round trip (a lower bound under load) */
  inFlight: number
}

/** GET /api/status `gpuCounters`: the GPU counter source of `serve --gpu-counters`. */
export interface GpuCountersStatus {
  /** the source in use, or null when it failed (then `error` says why) */
  source: 'pm-sampling' | 'nvml' | null
  device: number
  /** the chip (PM sampling) or the NVML device name */
  chip: string | null
  intervalNs: number | null
  /** why PM sampling was not used, when the source is nvml */
  fallbackReason: string | null
  /** intervals streamed, and samples known lost */
  intervals: number
  lost: number
  error: DeviceError | null
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
  /** the twin's design: switch (its default: the host side is tapped too) or endpoint; null for a board */
  twinMode: TwinMode | null
  runner: 'twin' | 'cuda' | null
  /** the sources POST /api/run accepts now; gpu also names the GPUs found */
  sources: { twin: SourceAvailability; gpu: SourceAvailability & { devices: string[] } }
  hostStats: HostLinkStats | null
  lastSnapshot: Snapshot | null
  /** WebSocket snapshot batches skipped for slow clients, summed over all clients */
  wsDrops: number
  wsClients: number
  /** WebSocket clients terminated because they stopped reading (their send buffer passed its bound) */
  wsClientsDropped: number
  /** link errors the probe client reported, by PsError code */
  linkErrors: Record<string, number>
  demo: DemoState
  /**
   * snapshots streaming at this period now, or null: never started, STOP, or the device is down
   * (then `wantStreaming` says what is restored when it comes back)
   */
  streaming: { periodMs: number } | null
  /** the period START asked for and a reconnect restores, whether or not snapshots flow now */
  wantStreaming: { periodMs: number } | null
  /** the twin's supervisor: restarts, the last failure in words; null for a serial device */
  supervision: SupervisionStatus | null
  /** the GPU's own PCIe counters beside the probe (`serve --gpu-counters`); null or absent when not asked for */
  gpuCounters?: GpuCountersStatus | null
}

/** How a supervised twin last failed: what the terminal and the page tell the user. */
export interface TwinFailure {
  /** host wall-clock ms */
  at: number
  /**
   * exit: the process ended by itself or by a signal; hang: a PING went unanswered within the hang
   * timeout (the twin was then SIGKILLed); killed: the server ended it (a run past its deadline or
   * cancelled mid-run); start: a restart attempt failed
   */
  reason: 'exit' | 'hang' | 'killed' | 'start'
  code: number | null
  signal: string | null
  /** the twin's last stderr lines */
  stderr: string[]
  /** the whole story in one sentence */
  message: string
}

export interface SupervisionStatus {
  /** up: a twin answers; restarting: waiting for or attempting the next start; closed: server closing */
  state: 'up' | 'restarting' | 'closed'
  /** successful restarts since the server started */
  restarts: number
  lastFailure: TwinFailure | null
  /** when the next restart attempt is due (ms), while restarting */
  nextAttemptAt: number | null
  /** the back-off before that attempt */
  backoffMs: number
  /** a PING unanswered this long is a hang */
  hangTimeoutMs: number
  /** since when the current twin has been up (ms), or null */
  upSince: number | null
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
  /** the bench summary of the run (core/run-summary.ts) from the counter deltas and the run's own latency histograms */
  summary: RunSummary
}

/** WS {type:'run-start'}: a workload is about to run; `baseline` is the snapshot taken before it. */
export interface RunStart {
  id: number
  origin: 'demo' | 'manual'
  workload: AnyWorkload
  baseline: Snapshot
  /** what runs it: the twin's traffic model (also when absent), or this host's GPU, whose own counters see it, not the probe */
  runner?: 'twin' | 'cuda'
}

/**
 * A further probe tap's newest readings (the switch design's host side): its newest TAP_SNAPSHOT
 * and the newest TAP_HISTOGRAM of each kind, each null before the first.
 */
export interface TapReadings {
  snapshot: TapSnapshot | null
  histograms: Record<HistogramKindKey, TapHistogram | null>
}

export type ServerMessage =
  | {
      type: 'hello'
      source: 'twin' | 'serial'
      path: string
      info: ProbeInfo
      pcieLink: PcieLinkInfo | null
      tagBudget: number | null
      /** the twin's design (switch or endpoint); null for a board */
      twinMode: TwinMode | null
      counters: CounterMeta[]
      /** the most recent snapshots (oldest first) so a reloaded page shows history */
      recent: Snapshot[]
      /** the newest latency histogram of each kind, so a reloaded page shows them (null before the first) */
      latencyHistograms: Record<HistogramKindKey, LatencyHistogram | null>
      /** the further taps' newest readings, by tap (empty with one tap: the BAR design) */
      taps: Partial<Record<TapKey, TapReadings>>
      lastRun: RunReport | null
    }
  | ({ type: 'status' } & ServerStatus)
  | {
      type: 'snapshot'
      snapshots: Snapshot[]
      /**
       * the further taps' TAP_SNAPSHOT frames of the same batch, in arrival order (each after the
       * SNAPSHOT it names, which is in this batch or an earlier one); absent when there are none
       */
      tapSnapshots?: TapSnapshot[]
      hostStats: HostLinkStats | null
      wsDrops: number
    }
  /** an INTERVAL frame: the sampler's records, as the firmware drained them (only while the server set a sample period) */
  | { type: 'intervals'; batch: IntervalBatch }
  /** a HISTOGRAM frame (one kind; every kind in turn): once a second while streaming, at STOP, on demand; after the snapshot it names */
  | { type: 'latency-histogram'; histogram: LatencyHistogram }
  /** a TAP_HISTOGRAM frame (a further tap's, the switch design's host side): after tap 0's HISTOGRAM frames of the same snapshot */
  | { type: 'tap-histogram'; histogram: TapHistogram }
  | ({ type: 'run-start' } & RunStart)
  | { type: 'run'; report: RunReport; result: WorkloadResult; demo: DemoState }
  | { type: 'run-error'; origin: 'demo' | 'manual'; error: DeviceError }
  /** the twin exited, hung or failed to restart: the story in words (a status follows on disconnect) */
  | { type: 'twin-failure'; failure: TwinFailure; supervision: SupervisionStatus | null }
  /** a new twin answers (a status with connected: true follows) */
  | { type: 'twin-restarted'; supervision: SupervisionStatus | null }
  /** an interval of the GPU's own PCIe counters (`serve --gpu-counters`), ~10 a second of GPU time */
  | { type: 'gpu-counters'; interval: GpuCounterInterval }

/** One recording as GET /api/recordings lists it (the part the page shows; the server sends more). */
export interface RecordingSummary {
  name: string
  status: 'recording' | 'complete' | 'interrupted'
  startedAt: string
  durationSeconds: number | null
  records: number
  runs: number
  /**
   * its records by type ('frame', 'interval', 'gpu-counters', …): which exports it can give;
   * null for a recording whose manifest does not count them (written before it did)
   */
  contents: Partial<Record<string, number>> | null
}

/** GET /api/recordings: the recordings under the server's recordings folder, and the one it writes. */
export interface RecordingsListing {
  root: string | null
  recording: string | null
  recordings: RecordingSummary[]
}

/**
 * GET /api/runs: the run history, newest first: this server's runs (`server:ID`) and the runs of the
 * recordings in its recordings folder (`NAME#ID`; the one it records into now is its own runs).
 */
export interface RunsListing {
  runs: RunEntry[]
  /** recordings that could not be read, and why */
  skipped: { name: string; code: string; message: string }[]
}

/** Every error body the REST API returns. */
export interface ApiErrorBody {
  error: { code: string; message: string; details?: unknown }
}

/**
 * How often, at most, snapshots reach a WebSocket client (one batch per interval). 25 ms: a
 * snapshot waits at most this long for its batch, so the page lags the probe by well under 50 ms
 * at the 99th percentile (bench/ws-latency.mjs; 50 ms gave a p99 just above 50 ms), while a
 * client gets at most 40 messages a second. `serve --ws-batch-ms` changes it.
 */
export const WS_BATCH_MS = 25
