/**
 * The GPU counter sampler as the host uses it: starts the addon's gpuCounters, turns its batches
 * into samples, and hands them to every subscriber as events, in order. `watch --gpu` prints from
 * it; a server can subscribe the same way and forward the events to its clients.
 */
import { PsError } from '../core/errors.js'
import { isNativeError, type NativeAddon, type NativeGpuCountersEnd, type NativeGpuCountersOptions } from '../native/addon.js'
import { samplesOf, type GpuCounterSample, type GpuCounterSourceInfo } from './samples.js'

export type GpuCountersOptions = NativeGpuCountersOptions

/** What subscribers receive: the source once, then samples as they are decoded. */
export type GpuCounterEvent =
  | { type: 'start'; info: GpuCounterSourceInfo }
  | {
      type: 'samples'
      samples: GpuCounterSample[]
      /** samples known missing so far (never silent: gaps, a full queue, an overflowed buffer) */
      lost: number
      /** samples delivered so far */
      delivered: number
      /** CPU time of the sampling thread so far */
      threadCpuSeconds: number
      /** PM sampling's hardware buffer overflowed: nothing more comes */
      overflow: boolean
    }

export interface GpuCountersSummary extends NativeGpuCountersEnd {
  /** undefined when no sample ever arrived */
  info: GpuCounterSourceInfo | undefined
}

/** The addon's codes as PsErrors: bad options are usage errors, the rest say what failed. */
const psErrorOf = (e: unknown): PsError => {
  if (!isNativeError(e)) return new PsError('PS_GPU_COUNTERS_FAILED', e instanceof Error ? e.message : String(e), { cause: e })
  if (e.code === 'PS_GPU_COUNTERS_BAD_ARGUMENT') return new PsError('PS_USAGE', e.message, { cause: e })
  if (e.code === 'PS_GPU_COUNTERS_UNAVAILABLE') return new PsError('PS_GPU_COUNTERS_UNAVAILABLE', e.message, { cause: e })
  return new PsError('PS_GPU_COUNTERS_FAILED', e.message, { cause: e })
}

export class GpuCounterSampler {
  private readonly listeners = new Set<(e: GpuCounterEvent) => void>()
  private info: GpuCounterSourceInfo | undefined
  private readonly handle: { stop(): void }
  /** settles once sampling ended (after stop()): the totals, or a PsError (PS_GPU_COUNTERS_UNAVAILABLE, …_FAILED, PS_USAGE) */
  readonly done: Promise<GpuCountersSummary>

  private constructor(addon: NativeAddon, options: GpuCountersOptions) {
    const h = addon.gpuCounters(options, (e) => {
      if (e.type === 'start') {
        this.info = e.info
        this.emit({ type: 'start', info: e.info })
        return
      }
      const samples = this.info ? samplesOf(this.info.metrics, e.data, e.stride) : []
      this.emit({
        type: 'samples',
        samples,
        lost: e.lost,
        delivered: e.samples,
        threadCpuSeconds: e.threadCpuSeconds,
        overflow: e.overflow,
      })
    })
    this.handle = h
    this.done = h.done.then(
      (end) => ({ ...end, info: this.info }),
      (e: unknown) => {
        throw psErrorOf(e)
      },
    )
  }

  /** Starts sampling device-wide; events go to the subscribers from the first batch on. */
  static start(addon: NativeAddon, options: GpuCountersOptions = {}): GpuCounterSampler {
    return new GpuCounterSampler(addon, options)
  }

  /**
   * Resolves with the source once it runs; rejects with the sampler's PsError when it ends first
   * (no source), or PS_GPU_COUNTERS_UNAVAILABLE after `timeoutMs` (CUPTI's set-up takes ~0.5 s
   * idle, ~9 s on a busy H200). The sampler keeps running either way: stop() it on a rejection.
   */
  started(timeoutMs = 30_000): Promise<GpuCounterSourceInfo> {
    if (this.info) return Promise.resolve(this.info)
    return new Promise<GpuCounterSourceInfo>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new PsError('PS_GPU_COUNTERS_UNAVAILABLE', `the GPU counters did not start within ${timeoutMs / 1000} s.`)),
        timeoutMs,
      )
      const off = this.subscribe((e) => {
        if (e.type !== 'start') return
        clearTimeout(timer)
        off()
        resolve(e.info)
      })
      this.done
        .then(
          () => reject(new PsError('PS_GPU_COUNTERS_FAILED', 'the GPU counters ended before they started.')),
          (e: unknown) => reject(e as Error),
        )
        .finally(() => clearTimeout(timer))
    })
  }

  /** The source, once known. */
  get source(): GpuCounterSourceInfo | undefined {
    return this.info
  }

  /** Adds a listener; returns the function that removes it. A throwing listener does not stop the others. */
  subscribe(listener: (e: GpuCounterEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Asks the sampler to stop; `done` settles after the last samples were delivered. */
  stop(): Promise<GpuCountersSummary> {
    this.handle.stop()
    return this.done
  }

  private emit(e: GpuCounterEvent): void {
    for (const l of this.listeners) {
      try {
        l(e)
      } catch {
        // one subscriber's failure is its own; the stream goes on for the others
      }
    }
  }
}
