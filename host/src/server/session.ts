/**
 * What the server needs from a device session: the DeviceSession / ProbeClient contract of
 * docs/contracts.md §4, written structurally so that tests can inject a fake and the server
 * does not depend on the device module's internals.
 */
import type { RawFrame } from '../device/client.js'
import type { HostLinkStats, LatencyHistograms, ProbeInfo, Snapshot } from '../core/probe.js'
import type { PcieLinkInfo } from '../core/link.js'
import type { WorkloadRunner } from '../core/workload.js'
import type { SupervisionStatus, TwinFailure } from '../core/wire.js'
import type { TwinSegments } from '../transport/twin.js'
import type { TwinMode } from '../core/twin-mode.js'
import type { Trace, TraceArmOptions, TraceStatus } from '../core/trace.js'
import type { TapsReading } from '../core/tap-counters.js'

/** What the server sees of a twin supervisor (device/supervisor.ts). */
export interface ServerTwinSupervisor {
  supervision(): SupervisionStatus
  on(event: 'failure', listener: (f: TwinFailure) => void): unknown
  on(event: 'restarted', listener: () => void): unknown
  off(event: 'failure', listener: (f: TwinFailure) => void): unknown
  off(event: 'restarted', listener: () => void): unknown
}

/** The client events the server listens to. */
export type ClientEvent =
  'snapshot' | 'histogram' | 'interval' | 'tap-snapshot' | 'tap-histogram' | 'disconnect' | 'reconnect' | 'link-error'

export interface ServerProbeClient {
  // events: 'snapshot' (Snapshot), 'histogram' (LatencyHistogram), 'interval' (IntervalBatch), 'tap-snapshot' (TapSnapshot),
  // 'tap-histogram' (TapHistogram), 'disconnect' (PsError), 'reconnect' (), 'link-error' (PsError)
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any[] is what lets EventEmitter/ws overloads match structurally
  on(event: ClientEvent, listener: (...args: any[]) => void): unknown
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any[] is what lets EventEmitter/ws overloads match structurally
  off(event: ClientEvent, listener: (...args: any[]) => void): unknown
  start(periodMs?: number): Promise<void>
  /** interval sampler period in probe clocks (SET_SAMPLE_PERIOD; 0 = off) */
  setSamplePeriod(cycles: number): Promise<void>
  /** the completer's latency in probe clocks (SET_BAR_LATENCY); absent where the client cannot set it */
  setBarLatency?(cycles: number): Promise<void>
  stop(): Promise<void>
  clear(): Promise<void>
  snapshot(): Promise<Snapshot>
  /**
   * an on-demand snapshot with the latency histograms read with it (ProbeClient has it): a run's
   * bench summary then has its latency percentiles; without it the run has its mean latency alone
   */
  latencyHistograms?(): Promise<{ snapshot: Snapshot; histograms: LatencyHistograms; taps?: TapsReading['taps'] }>
  hostStats(): HostLinkStats
  lastSnapshot(): Snapshot | undefined
  /** every raw frame of the link until unwatched (ProbeClient has it; `serve --record-frames` needs it) */
  watchRawFrames?(watcher: (f: RawFrame) => void): () => void
  /** the TLP trace (docs/trace.md; ProbeClient has it; POST /api/trace needs it) */
  traceArm?(o: TraceArmOptions): Promise<{ depth: number }>
  traceForce?(tap?: number): Promise<void>
  traceStop?(tap?: number): Promise<void>
  traceStatus?(tap?: number): Promise<TraceStatus>
  readTrace?(tap?: number): Promise<Trace>
}

export interface ServerSession {
  readonly source: 'twin' | 'serial'
  readonly path: string
  readonly info: ProbeInfo
  readonly client: ServerProbeClient
  readonly runner: WorkloadRunner | undefined
  readonly pcieLink?: PcieLinkInfo
  /** reads the requester may have outstanding, when the source knows it (the twin does) */
  readonly tagBudget?: number
  /** the twin's design (switch or endpoint); absent for a serial device */
  readonly twinMode?: TwinMode
  /** a supervised twin: restarts it when it exits or hangs (absent for a serial device) */
  readonly supervisor?: ServerTwinSupervisor
  close(): Promise<void>
}

/** Supervision tuning of a twin session (device/supervisor.ts has the defaults). */
export interface SupervisionOptions {
  minBackoffMs?: number
  maxBackoffMs?: number
  healthyMs?: number
  hangTimeoutMs?: number
  checkEveryMs?: number
}

export type OpenSessionOptions =
  | {
      twin: true
      latencyCycles?: number
      link?: string
      mode?: TwinMode
      segments?: TwinSegments
      supervision?: SupervisionOptions
    }
  | { port: string; baudRate?: number }

/**
 * Opens the real session through host/src/device/session.ts. Loaded lazily so that the server
 * (and its unit tests, which inject a session) do not load serialport or the twin launcher.
 */
export async function openDeviceSession(opts: OpenSessionOptions): Promise<ServerSession> {
  const { openSession } = await import('../device/session.js')
  if ('twin' in opts) {
    const { link, mode, segments, supervision, ...rest } = opts
    const twinOptions = {
      ...(link !== undefined ? { link } : {}),
      ...(mode !== undefined ? { mode } : {}),
      ...(segments !== undefined ? { segments } : {}),
    }
    const { SupervisedTwin } = await import('../device/supervisor.js')
    // every twin the server runs is supervised: a crashed or hung one is restarted
    return SupervisedTwin.open({
      open: () => openSession({ ...rest, twinOptions }),
      ...supervision,
    })
  }
  return openSession(opts)
}
