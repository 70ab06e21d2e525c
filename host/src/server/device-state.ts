/**
 * What the server knows about its device: the session, whether it is connected (and why not),
 * the recent snapshots, the further taps' newest readings (the switch design's host side), link errors by code, and the streaming period to restore after a
 * reconnect. It assembles the status and hello messages from that; the parts owned elsewhere
 * (WebSocket counts, the demo, the last run) are passed in.
 *
 * A device that disconnects leaves the state readable (last snapshots kept); device commands
 * then fail fast with the disconnect's code.
 */
import { isPsError, PsError, type PsErrorCode } from '../core/errors.js'
import { COMMANDS, COUNTERS, type HistogramKindKey, type TapKey } from '../core/generated.js'
import { noLatencyHistograms } from '../core/latency-histogram.js'
import type { HostLinkStats, IntervalBatch, LatencyHistogram, ProbeInfo, Snapshot, TapHistogram, TapSnapshot } from '../core/probe.js'
import type { CounterMeta, DeviceError, RunReport, ServerMessage, ServerStatus, TapReadings } from '../core/wire.js'
import type { ServerSession } from './session.js'

/** snapshots kept in memory for /api/status and for clients that connect later */
export const RECENT_SNAPSHOTS = 600

const COUNTER_META: CounterMeta[] = COUNTERS.map((c) => ({ key: c.key, name: c.name, index: c.index, doc: c.doc }))

/** The status fields that belong to the server rather than the device. */
export type ServerSideStatus = Pick<ServerStatus, 'wsDrops' | 'wsClients' | 'wsClientsDropped' | 'demo' | 'sources'>

export interface DeviceStateEvents {
  /** every snapshot the device streams or answers */
  snapshot(s: Snapshot): void
  /** connected changed (disconnect or reconnect): the status is news */
  connection(connected: boolean): void
  /** START or STOP went through: the period now in force (the default resolved), or null */
  streaming?(periodMs: number | null): void
  /** CLEAR went through: counters restart from zero */
  cleared?(): void
  /** a latency histogram (once a second while streaming, at STOP, on demand) */
  histogram?(h: LatencyHistogram): void
  /** a batch of the sampler's interval records (only while a sample period is set) */
  intervals?(b: IntervalBatch): void
  /** a further tap's snapshot (the switch design's host side), after the snapshot it names */
  tapSnapshot?(s: TapSnapshot): void
  /** a further tap's latency histogram, after tap 0's of the same snapshot */
  tapHistogram?(h: TapHistogram): void
}

export class DeviceState {
  private isConnected = true
  private deviceError: DeviceError | null = null
  /** the streaming period the user (or the demo) asked for; restored after a reconnect */
  private streamingPeriod: number | undefined
  /** the interval sampler's period the server set (0 = off); restored after a reconnect */
  private samplePeriod = 0
  /** BAR_LATENCY set through the server (POST /api/latency); undefined: the device's own */
  private barLatency: number | undefined
  /** the START a reconnect re-issued failed: nothing streams although the user asked for it */
  private restoreFailed = false
  private readonly recent: Snapshot[] = []
  private readonly lastHistograms: Record<HistogramKindKey, LatencyHistogram | null> = noLatencyHistograms<LatencyHistogram>()
  /** the further taps' newest readings: only taps that sent something have an entry */
  private readonly taps: Partial<Record<TapKey, TapReadings>> = {}
  private readonly linkErrors: Record<string, number> = {}
  private readonly listeners: {
    snapshot: (s: Snapshot) => void
    histogram: (h: LatencyHistogram) => void
    interval: (b: IntervalBatch) => void
    'tap-snapshot': (s: TapSnapshot) => void
    'tap-histogram': (h: TapHistogram) => void
    disconnect: (e: unknown) => void
    reconnect: () => void
    'link-error': (e: unknown) => void
  }

  constructor(
    readonly session: ServerSession,
    private readonly on: DeviceStateEvents,
  ) {
    this.listeners = {
      snapshot: (s) => this.onSnapshot(s),
      histogram: (h) => {
        this.lastHistograms[h.kind] = h
        this.on.histogram?.(h)
      },
      interval: (b) => this.on.intervals?.(b),
      'tap-snapshot': (t) => {
        this.tap(t.tap).snapshot = t
        this.on.tapSnapshot?.(t)
      },
      'tap-histogram': (h) => {
        this.tap(h.tap).histograms[h.kind] = h
        this.on.tapHistogram?.(h)
      },
      disconnect: (e) => this.onDisconnect(e),
      reconnect: () => this.onReconnect(),
      'link-error': (e) => this.onLinkError(e),
    }
    for (const [event, fn] of Object.entries(this.listeners)) session.client.on(event as keyof typeof this.listeners, fn)
    const seeded = session.client.lastSnapshot()
    if (seeded) this.recent.push(seeded)
    // a probe already streaming (a board a previous session started) streams now: say so
    if (session.info.streaming) this.streamingPeriod = session.info.periodMs
  }

  get connected(): boolean {
    return this.isConnected
  }

  /** Stop listening to the session's client (the session itself is not closed). */
  detach(): void {
    for (const [event, fn] of Object.entries(this.listeners)) this.session.client.off(event as keyof typeof this.listeners, fn)
  }

  /** Device commands fail fast with the disconnect's code once the device is gone. */
  async command<T>(fn: () => Promise<T>): Promise<T> {
    if (!this.isConnected) {
      throw new PsError(deviceErrorCode(this.deviceError), `device disconnected: ${this.deviceError?.message ?? ''}`)
    }
    return fn()
  }

  /** SET_SAMPLE_PERIOD, remembered so that a reconnect restores it (a board that reset forgot it). */
  async setSamplePeriod(cycles: number): Promise<void> {
    await this.command(() => this.session.client.setSamplePeriod(cycles))
    this.samplePeriod = cycles
  }

  /** SET_BAR_LATENCY (the completer's latency), remembered so that INFO and a reconnect show and restore it. */
  async setBarLatency(cycles: number): Promise<void> {
    const { client } = this.session
    if (!client.setBarLatency) throw new PsError('PS_WORKLOAD_UNSUPPORTED', 'this device cannot set the completer latency')
    await this.command(() => client.setBarLatency!(cycles))
    this.barLatency = cycles
  }

  /** START, remembered so that a reconnect restores it. */
  async start(periodMs: number | undefined): Promise<void> {
    await this.command(() => this.session.client.start(periodMs))
    this.streamingPeriod = periodMs ?? 0
    this.restoreFailed = false
    this.on.streaming?.(this.periodInForce())
  }

  /** STOP: a reconnect leaves streaming off. */
  async stop(): Promise<void> {
    await this.command(() => this.session.client.stop())
    this.streamingPeriod = undefined
    this.on.streaming?.(null)
  }

  /** The snapshot period in force (START's 0 is the firmware's default), or null when stopped. */
  private periodInForce(): number | null {
    return this.streamingPeriod === undefined ? null : this.streamingPeriod || COMMANDS.START.args[0].default
  }

  /** CLEAR, said to the listeners (a recording marks it: rates cannot span it). */
  async clear(): Promise<void> {
    await this.command(() => this.session.client.clear())
    this.on.cleared?.()
  }

  hostStats(): HostLinkStats | null {
    try {
      return this.session.client.hostStats()
    } catch {
      return null
    }
  }

  /**
   * The device's INFO as it is now: the hello's INFO says what streamed when the session (or a
   * restarted twin) said hello, before START or the reconnect's restore; what streams now is what
   * this state put in force.
   */
  private infoNow(): ProbeInfo {
    const { info } = this.session
    const streaming = this.streamingPeriod !== undefined && this.isConnected && !this.restoreFailed
    return {
      ...info,
      streaming,
      periodMs: streaming ? this.periodInForce()! : info.periodMs,
      barLatencyCycles: this.barLatency ?? info.barLatencyCycles,
    }
  }

  status(server: ServerSideStatus): ServerStatus {
    const { session } = this
    return {
      source: session.source,
      path: session.path,
      connected: this.isConnected,
      error: this.deviceError,
      info: this.infoNow(),
      pcieLink: session.pcieLink ?? null,
      tagBudget: session.tagBudget ?? null,
      twinMode: session.twinMode ?? null,
      runner: session.runner?.kind ?? null,
      sources: { twin: { ...server.sources.twin }, gpu: { ...server.sources.gpu, devices: [...server.sources.gpu.devices] } },
      hostStats: this.hostStats(),
      lastSnapshot: this.recent.at(-1) ?? null,
      wsDrops: server.wsDrops,
      wsClients: server.wsClients,
      wsClientsDropped: server.wsClientsDropped,
      linkErrors: { ...this.linkErrors },
      demo: { ...server.demo },
      // as it is now: a device that is down streams nothing, whatever START asked for
      streaming: this.streamingPeriod === undefined || !this.isConnected || this.restoreFailed ? null : { periodMs: this.periodInForce()! },
      wantStreaming: this.streamingPeriod === undefined ? null : { periodMs: this.periodInForce()! },
      supervision: session.supervisor?.supervision() ?? null,
    }
  }

  hello(lastRun: RunReport | null): ServerMessage {
    const { session } = this
    return {
      type: 'hello',
      source: session.source,
      path: session.path,
      info: this.infoNow(),
      pcieLink: session.pcieLink ?? null,
      tagBudget: session.tagBudget ?? null,
      twinMode: session.twinMode ?? null,
      counters: COUNTER_META,
      recent: this.recent.slice(-RECENT_SNAPSHOTS),
      latencyHistograms: { ...this.lastHistograms },
      taps: Object.fromEntries(
        Object.entries(this.taps).map(([k, r]) => [k, { snapshot: r.snapshot, histograms: { ...r.histograms } }]),
      ) as Partial<Record<TapKey, TapReadings>>,
      lastRun,
    }
  }

  private tap(key: TapKey): TapReadings {
    return (this.taps[key] ??= { snapshot: null, histograms: noLatencyHistograms<TapHistogram>() })
  }

  private onSnapshot(s: Snapshot): void {
    this.recent.push(s)
    if (this.recent.length > RECENT_SNAPSHOTS) this.recent.splice(0, this.recent.length - RECENT_SNAPSHOTS)
    this.on.snapshot(s)
  }

  private onDisconnect(e: unknown): void {
    if (!this.isConnected) return
    this.isConnected = false
    this.deviceError = {
      code: isPsError(e) ? e.code : 'PS_SERIAL_DISCONNECTED',
      message: e instanceof Error ? e.message : 'device disconnected',
    }
    this.on.connection(false)
  }

  private onReconnect(): void {
    this.isConnected = true
    this.deviceError = null
    this.on.connection(true)
    // a board that reset forgot START: ask again, as the user last did
    this.restoreFailed = false
    if (this.samplePeriod > 0) this.session.client.setSamplePeriod(this.samplePeriod).catch((e: unknown) => this.onLinkError(e))
    if (this.barLatency !== undefined) this.session.client.setBarLatency?.(this.barLatency).catch((e: unknown) => this.onLinkError(e))
    if (this.streamingPeriod !== undefined) {
      this.session.client.start(this.streamingPeriod).catch((e: unknown) => {
        this.restoreFailed = true
        this.onLinkError(e)
        this.on.streaming?.(null)
      })
    }
  }

  private onLinkError(e: unknown): void {
    const code = isPsError(e) ? e.code : 'PS_INTERNAL'
    this.linkErrors[code] = (this.linkErrors[code] ?? 0) + 1
  }
}

function deviceErrorCode(e: DeviceError | null): PsErrorCode {
  const c = e?.code
  return c === 'PS_TWIN_EXITED' || c === 'PS_TWIN_HUNG' || c === 'PS_SERIAL_DISCONNECTED' || c === 'PS_DEVICE_CLOSED'
    ? c
    : 'PS_SERIAL_DISCONNECTED'
}
