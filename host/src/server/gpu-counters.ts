/**
 * `serve --gpu-counters`: the GPU's own PCIe counters (gpu-counters/sampler.ts) sampled beside the
 * probe. Samples are summed into windows of WINDOW_NS of GPU time; each window, derived
 * (gpu-counters/interval.ts), goes to the sink the server attaches (it broadcasts each as
 * {type:'gpu-counters'} and records it). The source must start before the server does: without one the server refuses
 * to start (PS_GPU_COUNTERS_UNAVAILABLE). A source that fails later is reported in `status()`.
 */
import { isPsError, PsError } from '../core/errors.js'
import type { GpuCounterInterval, GpuCountersStatus } from '../core/wire.js'
import { WindowAccumulator } from '../gpu-counters/derive.js'
import { counterInterval } from '../gpu-counters/interval.js'
import { GpuCounterSampler } from '../gpu-counters/sampler.js'
import type { NativeAddon } from '../native/addon.js'

/** GPU time an interval covers: 10 messages a second at most, fine enough for the page's card */
const WINDOW_NS = 100e6
/** how long the source may take to start (CUPTI's set-up takes ~0.5 s idle, ~9 s on a busy H200) */
const START_TIMEOUT_MS = 30_000

export interface ServerGpuCountersOptions {
  /** the native addon's loader */
  load: () => NativeAddon
  /** CUDA device ordinal (default 0) */
  device?: number
  /** sampling interval in µs (default 100) */
  intervalUs?: number
  /** test hook: GPU time per interval (default WINDOW_NS) */
  windowNs?: number
  startTimeoutMs?: number
}

/** intervals kept until the server attaches its sink (the first batches may come before it is up) */
const MAX_WAITING = 1000

export class ServerGpuCounters {
  private readonly current: GpuCountersStatus
  private lost = 0
  private closed = false
  private sink: ((interval: GpuCounterInterval) => void) | undefined
  private onFailure: (() => void) | undefined
  private waiting: GpuCounterInterval[] = []

  private constructor(
    private readonly sampler: GpuCounterSampler,
    device: number,
  ) {
    this.current = { source: null, device, chip: null, intervalNs: null, fallbackReason: null, intervals: 0, lost: 0, error: null }
  }

  /** Starts sampling; resolves once the source runs, rejects with its PsError when none does. */
  static async start(o: ServerGpuCountersOptions): Promise<ServerGpuCounters> {
    const device = o.device ?? 0
    const sampler = GpuCounterSampler.start(o.load(), { device, intervalUs: o.intervalUs ?? 100 })
    const self = new ServerGpuCounters(sampler, device)
    const windows = new WindowAccumulator(o.windowNs ?? WINDOW_NS)
    const send = (w: Parameters<typeof counterInterval>[0]): void => {
      const info = sampler.source
      if (!info) return
      self.current.intervals++
      self.deliver(counterInterval(w, info, device, self.lost))
    }
    sampler.subscribe((e) => {
      if (e.type === 'start') {
        Object.assign(self.current, {
          source: e.info.source,
          chip: e.info.chip,
          intervalNs: e.info.intervalNs,
          fallbackReason: e.info.fallbackReason ?? null,
        })
        return
      }
      self.lost = self.current.lost = e.lost
      for (const w of windows.push(e.samples)) send(w)
    })
    // the end: the last partial interval, or a failure for the status to tell (start() rejects with it too)
    void sampler.done.then(
      () => {
        const last = windows.flush()
        if (last) send(last)
      },
      (e: unknown) => {
        const err = isPsError(e) ? e : new PsError('PS_GPU_COUNTERS_FAILED', String(e))
        self.current.source = null
        self.current.error = { code: err.code, message: err.message }
        self.onFailure?.()
      },
    )
    try {
      await sampler.started(o.startTimeoutMs ?? START_TIMEOUT_MS)
    } catch (e) {
      await sampler.stop().catch(() => {})
      throw e
    }
    return self
  }

  /**
   * Where the intervals go from now on (those that came before go first, in order), and who
   * hears that the source failed after it started (status() then says why).
   */
  attach(sink: (interval: GpuCounterInterval) => void, failed?: () => void): void {
    this.sink = sink
    this.onFailure = failed
    const waiting = this.waiting
    this.waiting = []
    for (const i of waiting) sink(i)
  }

  private deliver(i: GpuCounterInterval): void {
    if (this.sink) this.sink(i)
    else if (this.waiting.length < MAX_WAITING) this.waiting.push(i)
  }

  /** What GET /api/status says. */
  status(): GpuCountersStatus {
    return { ...this.current, error: this.current.error ? { ...this.current.error } : null }
  }

  /** The source in words, for the terminal. */
  describe(): string {
    const c = this.current
    const source = c.source === 'pm-sampling' ? 'PM sampling' : (c.source ?? 'none')
    return (
      `${source} on device ${c.device}${c.chip ? ` (${c.chip})` : ''}, every ${(c.intervalNs ?? 0) / 1000} µs` +
      (c.fallbackReason ? `; PM sampling refused: ${c.fallbackReason}` : '')
    )
  }

  /** Stops sampling; the last, partial interval still reaches the sink. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.sampler.stop().catch(() => {})
  }
}
