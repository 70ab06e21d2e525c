/**
 * SupervisedTwin: a twin session that outlives its twin. It holds one twin session at a time
 * (an "incarnation", opened by `open`) behind a client and a runner that stay the same object for
 * the server's whole life, so the server's listeners never need re-wiring.
 *
 *  - exit: the twin process ends (crash, signal) → the failure is described in words (exit code or
 *    signal, its last stderr lines), the client emits 'disconnect' with it, and a new twin is
 *    started after a back-off (minMs doubling to maxMs; back to minMs once a twin stayed up healthyMs).
 *    When it answers hello the client emits 'reconnect' (DeviceState then restores START).
 *  - hang: whenever nothing came from the twin for checkEveryMs (no snapshot, no answer), a PING
 *    is sent; a twin silent for hangTimeoutMs since it last spoke (the PING's wait counted from
 *    then, not from the PING) counts as hung, is SIGKILLed (a SIGSTOPped process dies too), and
 *    the exit path above follows.
 *  - one cause, one code: whatever was waiting on a twin that then failed (a command, a
 *    snapshot, a run) is rejected with that twin's failure (PS_TWIN_HUNG or PS_TWIN_EXITED, the
 *    message /api/status shows), not with what the dying link happened to say on the way
 *    (a closed port, a timeout).
 *  - a run cancelled (deadline, client gone) stops in the twin itself (`cancel ID`); a twin that
 *    does not answer the cancel in time is still busy with the run, so it is ended and restarted.
 *  - restart(why): ends a twin on purpose.
 *
 * Host link statistics are summed over incarnations, so counters never step back.
 */
import { EventEmitter } from 'node:events'
import { isPsError, PsError } from '../core/errors.js'
import type { HostLinkStats, IntervalBatch, LatencyHistogram, ProbeInfo, Snapshot, TapHistogram, TapSnapshot } from '../core/probe.js'
import type { PcieLinkInfo } from '../core/link.js'
import type { TwinMode } from '../core/twin-mode.js'
import type { Trace, TraceArmOptions, TraceStatus } from '../core/trace.js'
import type { SupervisionStatus, TwinFailure } from '../core/wire.js'
import type { AnyWorkload, WorkloadResult, WorkloadRunner } from '../core/workload.js'
import { createLogger } from '../util/log.js'
import { HangWatch, pingOf } from './hang-watch.js'
import { sleep } from '../util/sleep.js'
import type { ProbeClient, ProbeClientEvents } from './client.js'
import type { DeviceSession } from './session.js'

const log = createLogger('ps:device:supervisor')

export interface SupervisorOptions {
  /** opens one twin session (launch, PTY, hello) */
  open(): Promise<DeviceSession>
  /** first back-off before a restart (default 500 ms) */
  minBackoffMs?: number
  /** back-off cap (default 10 s) */
  maxBackoffMs?: number
  /** a twin up this long was healthy: the next failure starts the back-off again (default 30 s) */
  healthyMs?: number
  /** a PING unanswered this long is a hang (default 5 s) */
  hangTimeoutMs?: number
  /** quiet time before the watchdog PINGs (default 1 s) */
  checkEveryMs?: number
}

export interface SupervisorEvents {
  /** a twin failed (or a restart attempt did): the story in words */
  failure: [TwinFailure]
  /** a new twin answers; INFO of its probe */
  restarted: [ProbeInfo]
}

const STDERR_LINES = 5
/** how long a closed PTY waits for the twin's own exit before the supervisor ends the twin */
const LINK_GRACE_MS = 1_000

const zeroStats = (): HostLinkStats => ({
  frames: 0,
  badFrames: 0,
  crcErrors: 0,
  overflows: 0,
  seqGaps: 0,
  lostFrames: 0,
  unknownFrames: 0,
  bytes: 0,
})

const addStats = (a: HostLinkStats, b: HostLinkStats): HostLinkStats => {
  const out = { ...a }
  for (const k of Object.keys(out) as (keyof HostLinkStats)[]) out[k] += b[k]
  return out
}

/** "exited with code 1" / "was killed by SIGKILL", and the stderr tail when there is one. */
export const describeExit = (code: number | null, signal: string | null, stderr: string[]): string => {
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`
  return stderr.length ? `${how}; its last stderr lines: ${stderr.join(' | ')}` : how
}

/** The client the server holds: forwards to the twin of the moment, or fails fast while none is up. */
class SupervisedClient extends EventEmitter<ProbeClientEvents> {
  private target: ProbeClient | undefined
  private downError: PsError = new PsError('PS_TWIN_EXITED', 'the twin is not running')
  private retired = zeroStats()
  private last: Snapshot | undefined
  /** @internal how a twin's client ended, once it has: the supervisor's story of that twin */
  fateOf: (c: ProbeClient) => Promise<PsError | undefined> = () => Promise.resolve(undefined)

  /** @internal the supervisor switches the target */
  up(c: ProbeClient): void {
    this.target = c
  }

  /** @internal */
  down(e: PsError): void {
    if (this.target) this.retired = addStats(this.retired, this.target.hostStats())
    this.target = undefined
    this.downError = e
  }

  /** @internal */
  seen(s: Snapshot): void {
    this.last = s
  }

  private current(): ProbeClient {
    if (!this.target) throw this.downError
    return this.target
  }

  start(periodMs?: number): Promise<void> {
    return this.call((c) => c.start(periodMs))
  }
  stop(): Promise<void> {
    return this.call((c) => c.stop())
  }
  setSamplePeriod(cycles: number): Promise<void> {
    return this.call((c) => c.setSamplePeriod(cycles))
  }
  setBarLatency(cycles: number): Promise<void> {
    return this.call((c) => c.setBarLatency(cycles))
  }
  clear(): Promise<void> {
    return this.call((c) => c.clear())
  }
  snapshot(): Promise<Snapshot> {
    return this.call((c) => c.snapshot())
  }
  /** an on-demand snapshot with the latency histograms read with it: a run's own percentiles (server/runs.ts) */
  latencyHistograms(): ReturnType<ProbeClient['latencyHistograms']> {
    return this.call((c) => c.latencyHistograms())
  }
  /** the TLP trace (docs/trace.md): POST /api/trace */
  traceArm(o: TraceArmOptions = {}): Promise<{ depth: number }> {
    return this.call((c) => c.traceArm(o))
  }
  traceForce(tap = 0): Promise<void> {
    return this.call((c) => c.traceForce(tap))
  }
  traceStop(tap = 0): Promise<void> {
    return this.call((c) => c.traceStop(tap))
  }
  traceStatus(tap = 0): Promise<TraceStatus> {
    return this.call((c) => c.traceStatus(tap))
  }
  readTrace(tap = 0): Promise<Trace> {
    return this.call((c) => c.readTrace(tap))
  }
  hostStats(): HostLinkStats {
    return this.target ? addStats(this.retired, this.target.hostStats()) : { ...this.retired }
  }
  lastSnapshot(): Snapshot | undefined {
    return this.last
  }

  private async call<T>(fn: (c: ProbeClient) => Promise<T>): Promise<T> {
    const c = this.current()
    try {
      return await fn(c)
    } catch (e) {
      throw (isLinkSymptom(e) ? await this.fateOf(c) : undefined) ?? e
    }
  }
}

/** Errors a command meets when its twin dies or stops under it: symptoms, not the cause. */
const isLinkSymptom = (e: unknown): boolean =>
  isPsError(e, 'PS_SERIAL_DISCONNECTED') ||
  isPsError(e, 'PS_DEVICE_CLOSED') ||
  isPsError(e, 'PS_CMD_TIMEOUT') ||
  isPsError(e, 'PS_TWIN_EXITED')

export class SupervisedTwin extends EventEmitter<SupervisorEvents> {
  readonly source = 'twin' as const
  readonly client = new SupervisedClient()
  readonly runner: WorkloadRunner
  private current: DeviceSession | undefined
  private lastPath: string
  private lastInfo: ProbeInfo
  readonly pcieLink?: PcieLinkInfo
  readonly tagBudget?: number
  readonly twinMode?: TwinMode
  private readonly opts: Required<Omit<SupervisorOptions, 'open'>> & Pick<SupervisorOptions, 'open'>
  private state: SupervisionStatus['state'] = 'up'
  private restarts = 0
  private lastFailure: TwinFailure | null = null
  private nextAttemptAt: number | null = null
  private backoffMs = 0
  private upSince: number | null
  /** why the supervisor itself is ending the current twin (hang, deadline), read by the exit path */
  private ending: { reason: TwinFailure['reason']; message: string } | undefined
  private readonly closed = new AbortController()
  private unwire: () => void = () => {}
  private restarting: Promise<void> | undefined
  /** each twin's failure, settled when it ends (undefined: the server closed it) */
  private readonly fates = new WeakMap<object, { settle: (e: PsError | undefined) => void; fate: Promise<PsError | undefined> }>()

  private constructor(first: DeviceSession, opts: SupervisorOptions) {
    super()
    this.opts = {
      minBackoffMs: 500,
      maxBackoffMs: 10_000,
      healthyMs: 30_000,
      hangTimeoutMs: 5_000,
      checkEveryMs: 1_000,
      ...opts,
    }
    this.lastPath = first.path
    this.lastInfo = first.info
    if (first.pcieLink) this.pcieLink = first.pcieLink
    if (first.tagBudget !== undefined) this.tagBudget = first.tagBudget
    if (first.twinMode !== undefined) this.twinMode = first.twinMode
    this.upSince = Date.now()
    this.runner = { kind: 'twin', run: (w, signal) => this.run(w, signal) }
    this.client.fateOf = (c) => this.fateWithin(c)
    this.adopt(first)
  }

  static async open(opts: SupervisorOptions): Promise<SupervisedTwin> {
    return new SupervisedTwin(await opts.open(), opts)
  }

  get path(): string {
    return this.current?.path ?? this.lastPath
  }

  /** the session's supervisor is the session itself (ServerSession.supervisor) */
  get supervisor(): this {
    return this
  }

  /** the running twin's process id, or undefined while none runs (tests, diagnostics) */
  get twinPid(): number | undefined {
    return this.current?.twin?.pid
  }

  get info(): ProbeInfo {
    return this.current?.info ?? this.lastInfo
  }

  supervision(): SupervisionStatus {
    return {
      state: this.state,
      restarts: this.restarts,
      lastFailure: this.lastFailure,
      nextAttemptAt: this.nextAttemptAt,
      backoffMs: this.backoffMs,
      hangTimeoutMs: this.opts.hangTimeoutMs,
      upSince: this.upSince,
    }
  }

  /** End the current twin on purpose; a new one follows after the back-off. */
  restart(why: string): void {
    const s = this.current
    if (s) this.end(s, 'killed', `the server ended the twin: ${why}`)
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return
    this.state = 'closed'
    this.closed.abort()
    const s = this.current
    this.current = undefined
    this.unwire()
    if (s) this.fates.get(s.client)?.settle(undefined)
    if (s) await s.close()
    await this.restarting
  }

  private async run(w: AnyWorkload, signal?: AbortSignal): Promise<WorkloadResult> {
    const s = this.current
    if (!s?.runner) throw new PsError('PS_TWIN_EXITED', `no twin to run on: ${this.lastFailure?.message ?? 'not running'}`)
    try {
      return await s.runner.run(w, signal)
    } catch (e) {
      throw (isLinkSymptom(e) ? await this.fateWithin(s.client) : undefined) ?? e
    }
  }

  /** The failure of the twin behind this client, if it comes within the link's grace period: a
   * closed PTY or a timeout is followed by the twin's exit (or the watchdog's verdict) within it. */
  private fateWithin(key: object): Promise<PsError | undefined> {
    const f = this.fates.get(key)
    if (!f) return Promise.resolve(undefined)
    let timer: NodeJS.Timeout | undefined
    const grace = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), LINK_GRACE_MS + this.opts.checkEveryMs)
      timer.unref()
    })
    return Promise.race([f.fate, grace]).finally(() => clearTimeout(timer))
  }

  private adopt(s: DeviceSession): void {
    const twin = s.twin
    if (!twin) throw new PsError('PS_USAGE', 'the supervisor needs twin sessions')
    this.current = s
    this.lastPath = s.path
    this.lastInfo = s.info
    const watch = new HangWatch(
      pingOf(s.client),
      { hangTimeoutMs: this.opts.hangTimeoutMs, checkEveryMs: this.opts.checkEveryMs },
      (message) => this.end(s, 'hang', message),
    )
    let settle: (e: PsError | undefined) => void = () => {}
    const fate = new Promise<PsError | undefined>((resolve) => (settle = resolve))
    this.fates.set(s.client, { settle, fate })
    const c = s.client
    const onSnapshot = (snap: Snapshot) => {
      watch.progress()
      this.client.seen(snap)
      this.client.emit('snapshot', snap)
    }
    const onHistogram = (h: LatencyHistogram) => this.client.emit('histogram', h)
    const onInterval = (b: IntervalBatch) => this.client.emit('interval', b)
    // the switch design's host side: serve --twin --mode switch forwards and records these too
    const onTapSnapshot = (t: TapSnapshot) => this.client.emit('tap-snapshot', t)
    const onTapHistogram = (h: TapHistogram) => this.client.emit('tap-histogram', h)
    const onLinkError = (e: PsError) => this.client.emit('link-error', e)
    // A twin that dies closes its PTY first: its own exit follows within moments and tells the
    // story. The PTY gone while the twin still runs after that grace: the link is unusable, so
    // this twin is done.
    let linkGrace: NodeJS.Timeout | undefined
    const onDisconnect = (e: PsError) => {
      clearTimeout(linkGrace)
      linkGrace = setTimeout(() => {
        if (twin.isRunning) this.end(s, 'killed', `the twin's serial link closed (${e.message})`)
      }, LINK_GRACE_MS)
      linkGrace.unref()
    }
    const onExit = () => void this.onExit(s)
    const onCancelUnanswered = (message: string) => this.end(s, 'killed', `the twin did not stop a cancelled run: ${message}`)
    c.on('snapshot', onSnapshot)
    c.on('histogram', onHistogram)
    c.on('interval', onInterval)
    c.on('tap-snapshot', onTapSnapshot)
    c.on('tap-histogram', onTapHistogram)
    c.on('link-error', onLinkError)
    c.on('disconnect', onDisconnect)
    twin.on('exit', onExit)
    twin.on('cancel-unanswered', onCancelUnanswered)
    this.unwire = () => {
      c.off('snapshot', onSnapshot)
      c.off('histogram', onHistogram)
      c.off('interval', onInterval)
      c.off('tap-snapshot', onTapSnapshot)
      c.off('tap-histogram', onTapHistogram)
      c.off('link-error', onLinkError)
      c.off('disconnect', onDisconnect)
      twin.off('exit', onExit)
      twin.off('cancel-unanswered', onCancelUnanswered)
      clearTimeout(linkGrace)
      watch.stop()
    }
    this.client.up(c)
    if (!twin.isRunning) void this.onExit(s)
  }

  private end(s: DeviceSession, reason: TwinFailure['reason'], message: string): void {
    if (s !== this.current || this.ending) return
    this.ending = { reason, message }
    log.debug(() => `${message}: SIGKILL`)
    s.twin?.kill('SIGKILL')
  }

  private async onExit(s: DeviceSession): Promise<void> {
    if (s !== this.current) return
    const twin = s.twin!
    const { code, signal } = twin.exitStatus ?? { code: null, signal: null }
    const stderr = twin.stderrLines(STDERR_LINES)
    const ending = this.ending
    this.ending = undefined
    const exit = describeExit(code, signal, stderr)
    const failure: TwinFailure = {
      at: Date.now(),
      reason: ending?.reason ?? 'exit',
      code,
      signal,
      stderr,
      message: ending ? `${ending.message}; the twin ${exit}` : `the twin ${exit}`,
    }
    const healthy = this.upSince !== null && failure.at - this.upSince >= this.opts.healthyMs
    this.backoffMs = healthy || this.backoffMs === 0 ? this.opts.minBackoffMs : Math.min(this.backoffMs * 2, this.opts.maxBackoffMs)
    this.current = undefined
    this.upSince = null
    this.unwire()
    const err = new PsError(ending?.reason === 'hang' ? 'PS_TWIN_HUNG' : 'PS_TWIN_EXITED', failure.message)
    this.fates.get(s.client)?.settle(err)
    this.client.down(err)
    this.fail(failure)
    this.client.emit('disconnect', err)
    await s.close().catch((e: unknown) => log.debug(() => `closing the dead twin's session: ${String(e)}`))
    if (this.state !== 'closed') this.restarting = this.restartLoop()
  }

  private fail(f: TwinFailure): void {
    this.lastFailure = f
    if (this.state !== 'closed') this.state = 'restarting'
    this.emit('failure', f)
  }

  private async restartLoop(): Promise<void> {
    while (this.state !== 'closed') {
      this.nextAttemptAt = Date.now() + this.backoffMs
      try {
        await sleep(this.backoffMs, this.closed.signal)
      } catch {
        return // closing
      }
      this.nextAttemptAt = null
      let s: DeviceSession
      try {
        s = await this.opts.open()
      } catch (e) {
        this.backoffMs = Math.min(Math.max(this.backoffMs, this.opts.minBackoffMs) * 2, this.opts.maxBackoffMs)
        const message = `restarting the twin failed: ${e instanceof Error ? e.message : String(e)}`
        this.fail({ at: Date.now(), reason: 'start', code: null, signal: null, stderr: [], message })
        continue
      }
      if (this.closed.signal.aborted) return void (await s.close())
      this.restarts++
      this.upSince = Date.now()
      this.state = 'up'
      this.adopt(s)
      this.emit('restarted', s.info)
      this.client.emit('reconnect')
      return
    }
  }
}
