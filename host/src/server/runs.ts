/**
 * Workload runs: one at a time through a FIFO lock, each bracketed by on-demand probe snapshots
 * so the reply carries what the probe saw next to what the workload says it issued.
 *
 * Demo mode loops the three patterns while somebody watches (a WebSocket client is connected). A manual run (POST /api/run) queues behind the
 * demo run in flight (at most one, ≈1–3 s), runs, and then holds the demo for DEMO_HOLD_MS so
 * its effect stays visible on the charts before the loop resumes.
 */
import { PsError } from '../core/errors.js'
import { DEFAULT_RUN_LIMITS, deadlineBytes, runDeadlineMs, type RunLimits } from '../workload/deadline.js'
import {
  defaultOffset,
  PATTERNS,
  workloadLabel,
  type AnyWorkload,
  type PatternName,
  type WorkloadResult,
  type WorkloadRunner,
} from '../core/workload.js'
import { type Snapshot } from '../core/probe.js'
import { Mutex } from '../util/mutex.js'
import { sleep } from '../util/sleep.js'
import type { ServerSession } from './session.js'
import type { DemoState, RunReport, RunSource, RunStart } from '../core/wire.js'
import { counterDeltas } from '../core/rates.js'
import { histogramDelta, summarizeRun, type RunEntry } from '../core/run-summary.js'
import type { LatencyHistograms } from '../core/probe.js'

export const DEMO_PERIOD_MS = 100
export const DEMO_HOLD_MS = 2_000
/** wall time one demo run should take on the twin: aim at 2 s, accept 1–3 s */
export const DEMO_TARGET_S = 2
const DEMO_ACCEPT_S = [1, 3] as const
const DEMO_MIN_BYTES = 4 * 1024
/** 256 MiB: ≈1–3 s on the twin as measured (≈8 M 32-B MRds); the runner accepts up to 1 GiB */
const DEMO_MAX_BYTES = 256 * 1024 * 1024
const DEMO_START_BYTES = 4 * 1024 * 1024

/**
 * Next run size so a run lasts 1–3 s of wall time: kept while inside that window (the twin's
 * speed jitters), else scaled by target/measured, between ×¼ and ×8 per step; a multiple of 4 KiB.
 */
export function nextDemoBytes(bytes: number, wallSeconds: number): number {
  if (wallSeconds >= DEMO_ACCEPT_S[0] && wallSeconds <= DEMO_ACCEPT_S[1]) return bytes
  const ratio = wallSeconds > 0 ? Math.min(8, Math.max(0.25, DEMO_TARGET_S / wallSeconds)) : 8
  const next = Math.round((bytes * ratio) / 4096) * 4096
  return Math.min(DEMO_MAX_BYTES, Math.max(DEMO_MIN_BYTES, next))
}

/** runs of this server GET /api/runs keeps; the oldest go first */
export const RUN_HISTORY_MAX = 200

/** Retry-After, in seconds, of a run refused because the queue is full */
export const QUEUE_FULL_RETRY_S = 5

export interface RunServiceEvents {
  /** a run is about to start (its baseline snapshot taken) */
  start?(r: RunStart): void
  report(r: RunReport): void
  /** a run that had started (after `start`) failed; `error` still follows for demo runs */
  failed?(r: Omit<RunStart, 'baseline'>, e: unknown): void
  error(origin: 'demo' | 'manual', e: unknown): void
  /** false once the device is gone: the demo loop ends */
  connected(): boolean
  /** false while nobody watches (no WebSocket client): the demo loop waits instead of burning a core */
  watched?(): boolean
  /** the demo loop started or ended */
  demoChanged?(): void
}

/** Device steps around one run, inside its turn (no other run in between): POST /api/trace arms the trace before and stops it after. */
export interface RunHooks {
  /** after the baseline reading, right before the workload starts */
  before?(): Promise<void>
  /** after the final reading */
  after?(): Promise<void>
}

export class RunService {
  private readonly lock = new Mutex()
  private readonly abort = new AbortController()
  private nextId = 1
  private holdUntil = 0
  private pendingManual = 0
  private demoLoop: Promise<void> | undefined
  /** aborts the demo loop alone (POST /api/demo off); the run in flight finishes */
  private demoAbort = new AbortController()
  /** whether the demo should run: started by `serve --demo` or the page, stopped by the page; a
   * reconnect restarts the loop only while this holds */
  demoWanted = false
  private readonly demoBytes = new Map<PatternName, number>()
  readonly demo: DemoState = { enabled: false, runs: 0, current: null }
  lastReport: RunReport | null = null
  /** this server's runs, oldest first (at most RUN_HISTORY_MAX): GET /api/runs */
  readonly history: RunReport[] = []
  /** the recording each recorded run went into, by run id (the server's recorder fills it in) */
  readonly recordedIn = new Map<number, string>()

  private readonly limits: RunLimits
  /** manual runs waiting for the lock (not the one in flight) */
  private waiting = 0
  /** every run not yet settled: close() waits for them so their answers go out */
  private readonly inFlight = new Set<Promise<unknown>>()

  constructor(
    private readonly session: ServerSession,
    private readonly on: RunServiceEvents,
    limits: Partial<RunLimits> = {},
    /** the GPU runner when this host has a usable GPU, else why not (one sentence) */
    private readonly gpu: { runner: WorkloadRunner } | { reason: string } = { reason: 'no GPU runner was configured' },
  ) {
    this.limits = { ...DEFAULT_RUN_LIMITS, ...limits }
  }

  /**
   * The runner for a source: 'twin' = the session's twin model, 'gpu' = this host's GPU, none =
   * the session's own runner, else the GPU. PS_WORKLOAD_UNSUPPORTED with the reason otherwise.
   */
  runnerFor(source?: RunSource): WorkloadRunner {
    const own = this.session.runner
    if (source === 'gpu' || (source === undefined && !own)) {
      if ('runner' in this.gpu) return this.gpu.runner
      throw new PsError(
        'PS_WORKLOAD_UNSUPPORTED',
        source === 'gpu' ? `no GPU runs on this server: ${this.gpu.reason}` : `a ${this.session.source} session has no workload runner`,
      )
    }
    if (!own || (source === 'twin' && own.kind !== 'twin'))
      throw new PsError('PS_WORKLOAD_UNSUPPORTED', `a ${this.session.source} session has no twin to run workloads on`)
    return own
  }

  /**
   * Runs one workload, queued behind any run in flight. It ends with PS_WORKLOAD_TIMEOUT when it
   * outlives its deadline, PS_RUN_CANCELLED when `signal` aborts (the HTTP client went away),
   * PS_SERVER_CLOSING when the server shuts down; the runner stops the run (the twin cancels it
   * and stays up). A full queue refuses a manual run at once with PS_RUN_QUEUE_FULL.
   */
  run(workload: AnyWorkload, origin: 'demo' | 'manual', signal?: AbortSignal, source?: RunSource, around?: RunHooks): Promise<RunReport> {
    const p = this.runQueued(workload, origin, signal, source, around)
    this.inFlight.add(p)
    void p.catch(() => undefined).finally(() => this.inFlight.delete(p))
    return p
  }

  private async runQueued(
    workload: AnyWorkload,
    origin: 'demo' | 'manual',
    signal?: AbortSignal,
    source?: RunSource,
    around?: RunHooks,
  ): Promise<RunReport> {
    const runner = this.runnerFor(source)
    if (this.abort.signal.aborted) throw closingError()
    if (origin === 'manual' && this.waiting >= this.limits.maxQueued) {
      throw new PsError('PS_RUN_QUEUE_FULL', `${this.waiting} runs are already waiting (the most the server queues); try again later`)
    }
    if (origin === 'manual') this.pendingManual++
    this.waiting++
    let queued = true
    try {
      return await this.lock.run(async () => {
        this.waiting--
        queued = false
        if (this.abort.signal.aborted) throw closingError()
        if (signal?.aborted) throw cancelledError('while it waited in the queue')
        const startedAt = Date.now()
        const id = this.nextId++
        const { snapshot: before, histograms: beforeHists } = await this.probeReading()
        this.on.start?.({ id, origin, workload, baseline: before, runner: runner.kind })
        let result: WorkloadResult
        let after: Snapshot
        let afterHists: LatencyHistograms | undefined
        try {
          await around?.before?.()
          result = await this.withDeadline(id, workload, signal, (s) => runner.run(workload, s))
          ;({ snapshot: after, histograms: afterHists } = await this.probeReading())
          await around?.after?.()
        } catch (e) {
          this.on.failed?.({ id, origin, workload }, e)
          throw e
        }
        const probe = counterDeltas(before, after)
        const report: RunReport = {
          id,
          origin,
          result,
          probe,
          countersEnabled: before.enabled && after.enabled,
          probeWindow: { from: before.counters.timestamp, to: after.counters.timestamp },
          startedAt,
          finishedAt: Date.now(),
          summary: summarizeRun({
            counters: probe,
            clockHz: this.session.info.clockHz,
            tagBudget: this.session.tagBudget ?? null,
            link: this.session.pcieLink,
            // the probe's histograms count since its clear: the run's reads are after − before
            histograms: afterHists
              ? { last: histogramDelta(afterHists.last, beforeHists?.last), first: histogramDelta(afterHists.first, beforeHists?.first) }
              : undefined,
            bounds: after.counters,
            issued: { count: result.issued.count, bytes: result.issued.bytes },
          }),
        }
        this.lastReport = report
        this.history.push(report)
        if (this.history.length > RUN_HISTORY_MAX) this.recordedIn.delete(this.history.shift()!.id)
        if (origin === 'demo') this.demo.runs++
        this.on.report(report)
        return report
      })
    } finally {
      if (queued) this.waiting--
      if (origin === 'manual') {
        this.pendingManual--
        this.holdUntil = Date.now() + DEMO_HOLD_MS
      }
    }
  }

  /** An on-demand snapshot, with the latency histograms read with it where the client can read them. */
  private async probeReading(): Promise<{ snapshot: Snapshot; histograms: LatencyHistograms | undefined }> {
    const c = this.session.client
    if (c.latencyHistograms) return c.latencyHistograms()
    return { snapshot: await c.snapshot(), histograms: undefined }
  }

  /** This server's runs as history entries, newest first: a recorded one named as its recording names it (`NAME#ID`). */
  entries(): RunEntry[] {
    return this.history
      .map((r): RunEntry => {
        const recording = this.recordedIn.get(r.id) ?? null
        return {
          key: recording !== null ? `${recording}#${r.id}` : `server:${r.id}`,
          recording,
          id: r.id,
          origin: r.origin,
          source: r.result.gpu || r.result.gpuGraph ? 'gpu' : this.session.source === 'twin' ? 'twin' : 'board',
          workload: r.result.workload,
          at: r.finishedAt,
          summary: r.summary,
        }
      })
      .reverse()
  }

  /**
   * The runner under one signal that aborts at the deadline, when the client goes, or when the
   * server closes, with the PsError that says which. The runner stops the run on that signal
   * (the twin's `cancel`; its supervisor restarts a twin that does not answer the cancel).
   */
  private async withDeadline<T>(
    id: number,
    w: AnyWorkload,
    client: AbortSignal | undefined,
    fn: (s: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const bytes = deadlineBytes(w)
    const ms = runDeadlineMs(bytes, this.limits)
    const ctl = new AbortController()
    const timer = setTimeout(
      () =>
        ctl.abort(
          new PsError(
            'PS_WORKLOAD_TIMEOUT',
            `run ${id} (${workloadLabel(w)}) passed its deadline of ${ms} ms (${this.limits.slackMs} ms + its bytes at ${this.limits.floorBytesPerSecond} B/s) and was aborted`,
          ),
        ),
      ms,
    )
    const onClient = () => ctl.abort(cancelledError(`(run ${id})`))
    const onClose = () => ctl.abort(closingError(id))
    client?.addEventListener('abort', onClient, { once: true })
    this.abort.signal.addEventListener('abort', onClose, { once: true })
    try {
      return await fn(ctl.signal)
    } catch (e) {
      throw ctl.signal.aborted && ctl.signal.reason instanceof Error ? ctl.signal.reason : e
    } finally {
      clearTimeout(timer)
      client?.removeEventListener('abort', onClient)
      this.abort.signal.removeEventListener('abort', onClose)
    }
  }

  /** Starts the demo loop; again after a reconnect (the loop ends while the device is gone). */
  startDemo(): void {
    this.demoWanted = true
    if (this.demoLoop || !this.session.runner || this.abort.signal.aborted) return
    if (this.demoAbort.signal.aborted) this.demoAbort = new AbortController()
    this.demo.enabled = true
    const loop = this.loop().finally(() => {
      this.demo.enabled = false
      this.demo.current = null
      if (this.demoLoop === loop) this.demoLoop = undefined
      this.on.demoChanged?.()
    })
    this.demoLoop = loop
    this.on.demoChanged?.()
  }

  /** Whether a demo loop can run here: it loops the session's own runner (the twin). */
  get demoAvailable(): boolean {
    return this.session.runner !== undefined
  }

  /** Stops the demo loop: no new demo run starts; resolves once the one in flight has finished. */
  async stopDemo(): Promise<void> {
    this.demoWanted = false
    this.demoAbort.abort()
    await this.demoLoop
  }

  private async loop(): Promise<void> {
    const signal = AbortSignal.any([this.abort.signal, this.demoAbort.signal])
    let i = 0
    while (!signal.aborted && this.on.connected()) {
      if (this.pendingManual > 0 || Date.now() < this.holdUntil || !(this.on.watched?.() ?? true)) {
        await sleep(100, signal).catch(() => undefined) // aborted: the loop condition ends it
        continue
      }
      const pattern = PATTERNS[i++ % PATTERNS.length] as PatternName
      const bytes = this.demoBytes.get(pattern) ?? DEMO_START_BYTES
      this.demo.current = pattern
      const t0 = performance.now()
      try {
        await this.run({ pattern, bytes, offset: defaultOffset(pattern) }, 'demo')
        this.demoBytes.set(pattern, nextDemoBytes(bytes, (performance.now() - t0) / 1000))
      } catch (e) {
        if (signal.aborted) break
        this.on.error('demo', e)
        await sleep(1_000, signal).catch(() => undefined)
      } finally {
        this.demo.current = null
      }
    }
  }

  /**
   * Stops the demo loop and aborts the run in flight and those queued (each answers
   * PS_SERVER_CLOSING); resolves when the loop has ended and every run has settled.
   */
  async close(): Promise<void> {
    this.abort.abort()
    await this.demoLoop
    await Promise.allSettled([...this.inFlight])
  }
}

const closingError = (id?: number): PsError =>
  new PsError('PS_SERVER_CLOSING', `the server is shutting down: ${id === undefined ? 'the run was not started' : `run ${id} was cut off`}`)

const cancelledError = (when: string): PsError => new PsError('PS_RUN_CANCELLED', `the client went away: run cancelled ${when}`)
