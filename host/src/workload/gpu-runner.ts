/**
 * WorkloadRunner backed by a real GPU through the native addon (host/src/native/addon.ts): the
 * traffic model predicts the workload's MRds, then the CUDA kernel runs it over pinned, mapped
 * host memory, timed against cudaMemcpy. The addon is passed in, so tests use a fake one.
 */
import { PsError, type PsErrorCode } from '../core/errors.js'
import { payloadCeiling } from '../core/link.js'
import { validateWorkload } from '../core/workload-schema.js'
import type { GpuDeviceInfo, GpuRunSummary, Workload, WorkloadResult, WorkloadRunner } from '../core/workload.js'
import { isNativeError, type GpuProgress, type NativeAddon, type NativeWorkload } from '../native/addon.js'

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

const cancelledError = () => new PsError('PS_GPU_CANCELLED', 'the GPU run was cancelled before it finished')

export class GpuWorkloadRunner implements WorkloadRunner {
  readonly kind = 'cuda' as const
  constructor(
    private readonly addon: NativeAddon,
    private readonly opts: GpuRunnerOptions = {},
  ) {}

  async run(workload: Workload, signal?: AbortSignal): Promise<WorkloadResult> {
    const w = validateWorkload(workload)
    const nw = nativeWorkload(w)
    if (signal?.aborted) throw cancelledError()
    const t0 = performance.now()
    const predicted = await this.addon.predict(nw).catch((e: unknown) => {
      throw gpuError(e)
    })
    if (signal?.aborted) throw cancelledError()
    const { onProgress, ...runOpts } = this.opts
    const handle = this.addon.gpuRun({ ...nw, ...runOpts }, onProgress)
    const onAbort = () => handle.cancel()
    signal?.addEventListener('abort', onAbort, { once: true })
    let r
    try {
      r = await handle.promise
    } catch (e) {
      throw gpuError(e)
    } finally {
      signal?.removeEventListener('abort', onAbort)
    }
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
