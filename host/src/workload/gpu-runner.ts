/**
 * WorkloadRunner backed by a real GPU through the native addon (host/src/native/addon.ts): the
 * traffic model predicts the workload's MRds, then the CUDA kernel runs it over pinned, mapped
 * host memory, timed against cudaMemcpy. The addon is passed in, so tests use a fake one.
 */
import { PsError, type PsErrorCode } from '../core/errors.js'
import { payloadCeiling } from '../core/link.js'
import { validateAnyWorkload } from '../core/workload-schema.js'
import {
  idBytesOf,
  isGraphWorkload,
  type AnyWorkload,
  type GpuDeviceInfo,
  type GpuRunSummary,
  type GraphWorkload,
  type Workload,
  type WorkloadResult,
  type WorkloadRunner,
} from '../core/workload.js'
import { isNativeError, type GpuProgress, type GraphMemory, type NativeAddon, type NativeWorkload } from '../native/addon.js'

export interface GpuRunnerOptions {
  /** untimed runs before the timed ones (addon default 2) */
  warmup?: number
  /** timed runs (addon default 10) */
  repeats?: number
  /** CUDA device ordinal (default 0) */
  device?: number
  /** malloc + cudaHostRegister instead of cudaHostAlloc */
  hostRegister?: boolean
  /** every progress report of the run, in order */
  onProgress?: (p: GpuProgress) => void
  /** graph kernels: where the edge list lives (addon default zerocopy) */
  graphMemory?: GraphMemory
}

/** The addon's stable codes, mapped to the host's. */
const CODE_MAP: Record<string, PsErrorCode> = {
  PS_GPU_NOT_BUILT: 'PS_GPU_UNAVAILABLE',
  PS_GPU_NO_DEVICE: 'PS_GPU_UNAVAILABLE',
  PS_GPU_CANCELLED: 'PS_GPU_CANCELLED',
  PS_GPU_CHECKSUM: 'PS_GPU_CHECKSUM',
  PS_GPU_BAD_ARGUMENT: 'PS_WORKLOAD_INVALID',
  PS_WORKLOAD_INVALID: 'PS_WORKLOAD_INVALID',
}

/** An addon error as a PsError; the addon's own code stays in the message. */
export const gpuError = (e: unknown): PsError => {
  if (e instanceof PsError) return e
  if (isNativeError(e)) return new PsError(CODE_MAP[e.code] ?? 'PS_GPU_FAILED', `${e.message} (${e.code})`, { cause: e })
  return new PsError('PS_GPU_FAILED', `GPU run failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e })
}

/** The workload fields the addon reads; lane width and L1 use only when the workload has them. */
const nativeWorkload = (w: Workload & { elementBytes?: number; l1?: 'ideal' | 'bypass' }): NativeWorkload => ({
  pattern: w.pattern,
  bytes: w.bytes,
  offset: w.offset,
  ...(w.elementBytes !== undefined ? { elementBytes: w.elementBytes } : {}),
  ...(w.l1 !== undefined ? { l1: w.l1 } : {}),
  ...(w.chunkBytes !== undefined ? { chunkBytes: w.chunkBytes } : {}),
})

/**
 * Payload GB/s a GPU's link allows when every read is 128 B: each completion pays 20 B of header
 * and framing (core/link.ts) on the link's TLP rate (native/model/link.h through the addon).
 */
export const ceiling128Gbps = (addon: Pick<NativeAddon, 'linkTlpBytesPerSecond'>, device: GpuDeviceInfo): number | null => {
  if (device.pcieGen < 1 || device.pcieWidth < 1) return null
  const tlp = addon.linkTlpBytesPerSecond(device.pcieGen, device.pcieWidth)
  const c = payloadCeiling(tlp === null ? null : { name: `gen${device.pcieGen}x${device.pcieWidth}`, tlpBytesPerSecond: tlp }, 128, 1)
  return c === null ? null : c / 1e9
}

/** A graph that cannot be loaded or made is the user's input (PS_WORKLOAD_INVALID, as bench --suite graph says it). */
const graphError = (e: unknown): PsError =>
  isNativeError(e) && /^PS_GRAPH_/.test(e.code) ? new PsError('PS_WORKLOAD_INVALID', `${e.message} (${e.code})`, { cause: e }) : gpuError(e)

const cancelledError = () => new PsError('PS_GPU_CANCELLED', 'the GPU run was cancelled before it finished')

export class GpuWorkloadRunner implements WorkloadRunner {
  readonly kind = 'cuda' as const
  constructor(
    private readonly addon: NativeAddon,
    private readonly opts: GpuRunnerOptions = {},
  ) {}

  async run(workload: AnyWorkload, signal?: AbortSignal): Promise<WorkloadResult> {
    const v = validateAnyWorkload(workload)
    return isGraphWorkload(v) ? this.runGraph(v, signal) : this.runMicro(v, signal)
  }

  /** Waits for a run handle, cancelling it when `signal` aborts; addon errors become PsErrors. */
  private async settle<T>(handle: { promise: Promise<T>; cancel(): void }, signal?: AbortSignal): Promise<T> {
    const onAbort = () => handle.cancel()
    signal?.addEventListener('abort', onAbort, { once: true })
    try {
      return await handle.promise
    } catch (e) {
      throw gpuError(e)
    } finally {
      signal?.removeEventListener('abort', onAbort)
    }
  }

  /** A BFS: the model's MRds for it (predictGraph), then the kernel on the GPU, levels checked against the CPU's. */
  private async runGraph(w: GraphWorkload, signal?: AbortSignal): Promise<WorkloadResult> {
    if (signal?.aborted) throw cancelledError()
    const t0 = performance.now()
    const req = {
      kernel: w.pattern,
      graph: w.graph,
      idBytes: idBytesOf(w),
      ...(w.sourceVertex !== undefined ? { source: w.sourceVertex } : {}),
    }
    const predicted = await this.addon.predictGraph({ ...req, ...(w.l1 !== undefined ? { l1: w.l1 } : {}) }).catch((e: unknown) => {
      throw graphError(e)
    })
    if (signal?.aborted) throw cancelledError()
    const { onProgress, graphMemory, warmup, repeats, device } = this.opts
    const handle = this.addon.gpuGraphRun(
      {
        ...req,
        source: predicted.source,
        ...(graphMemory !== undefined ? { memory: graphMemory } : {}),
        ...(warmup !== undefined ? { warmup } : {}),
        ...(repeats !== undefined ? { repeats } : {}),
        ...(device !== undefined ? { device } : {}),
      },
      onProgress,
    )
    const r = await this.settle(handle, signal)
    const issued = { count: predicted.count, bySize: { ...predicted.bySize }, bytes: predicted.bytes }
    return {
      workload: w,
      issued,
      completions: predicted.count,
      payloadErrors: 0,
      simCycles: 0,
      wallSeconds: (performance.now() - t0) / 1000,
      graph: {
        graph: w.graph,
        vertices: r.vertices,
        edges: r.edges,
        idBytes: idBytesOf(w),
        sourceVertex: r.source,
        launches: r.launches,
      },
      gpuGraph: {
        device: { ...r.device },
        memory: graphMemory ?? 'zerocopy',
        bfs: { ...r.bfs },
        reached: r.reached,
        edgesRead: r.edgesRead,
        edgeBytes: r.edgeBytes,
        gteps: r.gteps,
        edgeGbps: r.edgeGbps,
        levels: { ...r.levels },
      },
    }
  }

  private async runMicro(w: Workload, signal?: AbortSignal): Promise<WorkloadResult> {
    const nw = nativeWorkload(w)
    if (signal?.aborted) throw cancelledError()
    const t0 = performance.now()
    const predicted = await this.addon.predict(nw).catch((e: unknown) => {
      throw gpuError(e)
    })
    if (signal?.aborted) throw cancelledError()
    // graphMemory is a graph run's option; the rest are gpuRun's
    const { onProgress, graphMemory: _graphOnly, ...runOpts } = this.opts
    const r = await this.settle(this.addon.gpuRun({ ...nw, ...runOpts }, onProgress), signal)
    const ceiling = ceiling128Gbps(this.addon, r.device)
    const gpu: GpuRunSummary = {
      device: { ...r.device },
      kernel: { ...r.kernel },
      memcpyH2d: { ...r.memcpyH2d },
      payloadBytes: r.payloadBytes,
      kernelGbps: r.kernelGbps,
      memcpyGbps: r.memcpyGbps,
      ratioToMemcpy: r.ratioToMemcpy,
      ceiling128Gbps: ceiling,
      ratioToCeiling128: ceiling === null ? null : r.kernelGbps / ceiling,
      checksum: { ...r.checksum },
      threads: r.threads,
      blocks: r.blocks,
      predicted: { count: predicted.count, bySize: { ...predicted.bySize }, bytes: predicted.bytes },
    }
    return {
      workload: w,
      issued: { ...gpu.predicted, bySize: { ...gpu.predicted.bySize } },
      completions: predicted.count,
      payloadErrors: 0,
      simCycles: 0,
      wallSeconds: (performance.now() - t0) / 1000,
      gpu,
    }
  }
}

/** Whether GPU runs can happen here, and if not the one-sentence reason (for /api/status and the CLI). */
export type GpuAvailability =
  { available: true; devices: GpuDeviceInfo[] } | { available: false; code: PsErrorCode | string; reason: string }

/** Asks the addon (loaded by `load`, which may throw PS_NATIVE_NOT_BUILT) for usable GPUs. */
export const gpuAvailability = async (load: () => NativeAddon): Promise<GpuAvailability> => {
  let addon: NativeAddon
  try {
    addon = load()
  } catch (e) {
    const err = gpuError(e)
    return { available: false, code: err.code, reason: err.message }
  }
  // without CUDA the addon rejects gpuDevices() with PS_GPU_NOT_BUILT and its reason
  try {
    const devices = await addon.gpuDevices()
    if (devices.length === 0) return { available: false, code: 'PS_GPU_NO_DEVICE', reason: 'no CUDA device is present' }
    return { available: true, devices }
  } catch (e) {
    return { available: false, code: isNativeError(e) ? e.code : 'PS_GPU_FAILED', reason: gpuError(e).message }
  }
}
