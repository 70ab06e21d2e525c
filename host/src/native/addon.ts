/**
 * The native addon (native/addon, built by `npm run build:native`): the traffic model in process
 * and the GPU runs. This module is its typed interface and its loader; docs/contracts.md
 * ("Native addon") is the contract. Nothing else loads the `.node` file.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { PsError } from '../core/errors.js'
import type { BySize } from '../core/size-classes.js'
import type { GraphKernelName } from '../core/generated.js'
import type { GpuDeviceInfo, GpuTiming, GraphIdBytes, PatternName } from '../core/workload.js'
import { packageRoot } from '../util/package-root.js'
import type { GpuCounterSourceInfo } from '../gpu-counters/samples.js'

/** A workload as the addon reads it; absent elementBytes/l1 mean 4 and 'ideal'. */
export interface NativeWorkload {
  pattern: PatternName
  bytes: number
  offset: number
  elementBytes?: number
  l1?: 'ideal' | 'bypass'
  /** merged-chunked: bytes each warp walks (absent: the spec default) */
  chunkBytes?: number
  /** how default loads use L1 in the model: one ideal L1 (default) or the scheduled LRU model (docs/gpu-model.md) */
  l1Model?: L1ModelName
}

/** The traffic model's L1 models (native/model/sm_schedule.h `L1Model`). */
export type L1ModelName = 'ideal' | 'lru'

/** The model's MRd stream for a workload, the same numbers as the twin's done line. */
export interface Prediction {
  count: number
  bytes: number
  /** warp load instructions that had at least one active lane */
  instructions: number
  /** the bandwidth model's GB/s for this stream on the spec's default GPU host (native/model/bandwidth.h); absent from older builds */
  predictedGbps?: number
  bySize: BySize
}

/** A graph kernel (BFS, SSSP, CC, PageRank: spec `graphs`) on a graph: `kron:S[:SEED]`, `urand:S[:SEED]` or `file:PATH`. */
export interface NativeGraphWorkload {
  kernel: GraphKernelName
  graph: string
  /** bytes per neighbour id, 4 or 8 (absent: 8) */
  idBytes?: GraphIdBytes
  /** BFS / SSSP root (absent: the first vertex of largest degree among the first 1024; CC and PageRank have none) */
  source?: number
  l1?: 'ideal' | 'bypass'
  /** as NativeWorkload's */
  l1Model?: L1ModelName
}

/** The graph a graph run or prediction used. */
export interface GraphInfo {
  kernel: GraphKernelName
  graph: string
  vertices: number
  /** directed CSR edges */
  edges: number
  idBytes: number
  source: number
}

/** The model's MRds for one run of a graph kernel: every launch, warp by warp. */
export interface GraphPrediction extends GraphInfo, Prediction {
  /** the bandwidth model's edge GB/s (ids and SSSP's weights read over the run's time) on the spec's GPU host; absent from older builds */
  predictedEdgeGbps?: number
  l1: 'ideal' | 'bypass'
  l1Model: L1ModelName
  launches: number
  /** bytes the kernel's loads asked for: neighbour ids x idBytes (+ 4 B weights for SSSP) */
  usefulBytes: number
}

/** Where a GPU graph run keeps its edge list (native/cuda/graph_bench.h `GraphMemory`, by name). */
export const GRAPH_MEMORIES = ['zerocopy', 'uvm', 'uvm-accessed-by', 'device', 'uvm-plain'] as const
export type GraphMemory = (typeof GRAPH_MEMORIES)[number]

export interface GpuGraphRunRequest extends Omit<NativeGraphWorkload, 'l1' | 'l1Model'> {
  /** edge-list memory (default zerocopy) */
  memory?: GraphMemory
  warmup?: number
  repeats?: number
  device?: number
}

export interface GpuGraphRunResult extends GraphInfo {
  device: GpuDevice
  /** one whole run of the kernel (every launch; named for BFS, the first kernel), median/min/max of the repeats */
  bfs: GpuTiming
  launches: number
  reached: number
  edgesRead: number
  edgeBytes: number
  gteps: number
  edgeGbps: number
  /** the GPU's answer against the CPU's: BFS levels, SSSP distances, CC components (as a partition), PageRank scores within spec `graphs.pagerank.tolerance` */
  levels: { ok: boolean; mismatches: number }
}

/** Re-exported from core, where results that carry them are typed. */
export type GpuDevice = GpuDeviceInfo
export type { GpuTiming }

export interface GpuRunRequest extends NativeWorkload {
  /** untimed runs first (default 2) */
  warmup?: number
  /** timed runs, median/min/max reported (default 10) */
  repeats?: number
  /** CUDA device ordinal (default 0) */
  device?: number
  /** malloc + cudaHostRegister instead of cudaHostAlloc (default false) */
  hostRegister?: boolean
}

/** Several GPUs at once (gpuRunMulti): the workload on each listed device over one host buffer. */
export interface GpuMultiRunRequest extends NativeWorkload {
  devices: number[]
  warmup?: number
  repeats?: number
}

/** Each device alone, then all of them at once from one barrier (native/cuda run_multi). */
export interface GpuMultiRunResult {
  devices: { device: GpuDevice; alone: GpuRunResult; together: GpuRunResult }[]
  /** the concurrent section, first start to last end */
  togetherWallMs: number
  /** every device's bytes over togetherWallMs */
  totalGbps: number
  sumAloneGbps: number
}

export interface GpuRunResult {
  device: GpuDevice
  kernel: GpuTiming
  memcpyH2d: GpuTiming
  payloadBytes: number
  /** GB/s = 1e9 B/s, from the medians */
  kernelGbps: number
  memcpyGbps: number
  ratioToMemcpy: number
  /** 64-bit word sums as 0x-prefixed hex (a JS number cannot hold 64 bits) */
  checksum: { gpu: string; cpu: string; ok: boolean }
  threads: number
  blocks: number
}

export interface GpuProgress {
  /** "fill", "warmup", "kernel", "memcpy" */
  phase: string
  done: number
  total: number
}

/** Stable codes of the addon's GPU errors (native/cuda/gpu_bench.h status_code(), native/sampler/sampler.h status_code()). */
export type NativeGpuCode =
  | 'PS_GPU_NOT_BUILT'
  | 'PS_GPU_NO_DEVICE'
  | 'PS_GPU_BAD_ARGUMENT'
  | 'PS_GPU_CANCELLED'
  | 'PS_GPU_CUDA'
  | 'PS_GPU_CHECKSUM'
  | 'PS_GPU_COUNTERS_UNAVAILABLE'
  | 'PS_GPU_COUNTERS_BAD_ARGUMENT'
  | 'PS_GPU_COUNTERS_FAILED'

/** gpuCounters' options (native/addon/gpu_counters.cpp); absent fields take the defaults named. */
export interface NativeGpuCountersOptions {
  /** CUDA device ordinal (default 0; NVML takes the same index) */
  device?: number
  /** sampling interval in µs (default 1000; NVML samples every 20 ms at best) */
  intervalUs?: number
  /** `auto` (default): PM sampling, else NVML; or only the one named */
  source?: 'auto' | 'pm-sampling' | 'nvml'
  /** how often the sampler's thread decodes what the GPU buffered, ms (default 100: each pass costs CPU, most under load) */
  pollMs?: number
  /** PM sampling's hardware buffer, MiB (default 256) */
  hwBufferMb?: number
}

/** What gpuCounters streams: the source once, then batches of samples (samples.ts reads them). */
export type NativeGpuCountersEvent =
  | { type: 'start'; info: GpuCounterSourceInfo }
  | {
      type: 'batch'
      /** `stride` numbers a sample: start ns, end ns (since info.originNs), then one value per metric */
      data: Float64Array
      stride: number
      /** samples known missing so far: gaps in PM sampling's timeline, batches the JS thread could not take */
      lost: number
      /** samples delivered so far */
      samples: number
      threadCpuSeconds: number
      /** PM sampling's hardware buffer overflowed: nothing more comes */
      overflow: boolean
    }

export interface NativeGpuCountersEnd {
  samples: number
  lost: number
  threadCpuSeconds: number
  overflow: boolean
}

export interface NativeGpuCountersHandle {
  /** settles after stop(): the totals, or PS_GPU_COUNTERS_* when no source could run or one failed */
  done: Promise<NativeGpuCountersEnd>
  stop(): void
}

/** What the addon throws or rejects with: an Error with a stable code and one sentence. */
export interface NativeError extends Error {
  code: NativeGpuCode | 'PS_WORKLOAD_INVALID'
  /** with PS_GPU_CHECKSUM: what the run measured */
  result?: GpuRunResult
}

export interface GpuRunHandle {
  promise: Promise<GpuRunResult>
  /** asks the run to stop at its next check; the promise then rejects with PS_GPU_CANCELLED */
  cancel(): void
}

/** The addon's exports. Runners take this interface, so tests pass a fake. */
export interface NativeAddon {
  predictSync(w: NativeWorkload): Prediction
  predict(w: NativeWorkload): Promise<Prediction>
  /** TLP bytes per second one direction of a genGxL link carries (native/model/link.h); null if unknown */
  linkTlpBytesPerSecond(gen: number, lanes: number): number | null
  /** lane widths this build's model predicts ([4] until the model has lane widths) */
  readonly model: { elementBytes: number[] }
  /** true when the GPU library was compiled with CUDA (a device may still be missing) */
  readonly cudaBuilt: boolean
  /** true when the GPU library (native/cuda) is linked at all */
  readonly gpuBenchLinked: boolean
  gpuDevices(): Promise<GpuDevice[]>
  gpuRun(request: GpuRunRequest, onProgress?: (p: GpuProgress) => void): GpuRunHandle
  /** the workload on several GPUs at once (absent from builds before it existed) */
  gpuRunMulti?(request: GpuMultiRunRequest): Promise<GpuMultiRunResult>
  /** the graph kernels' model off the JS thread (loading or generating the graph too); PS_GRAPH_* or PS_WORKLOAD_INVALID */
  predictGraph(w: NativeGraphWorkload): Promise<GraphPrediction>
  /**
   * The GPU's PCIe counters, device-wide, sampled on a thread of their own until stop(); events
   * arrive on the JS thread in order (host/src/gpu-counters/sampler.ts wraps this).
   */
  gpuCounters(options: NativeGpuCountersOptions, onEvent: (e: NativeGpuCountersEvent) => void): NativeGpuCountersHandle
  /** true when the addon was built with CUPTI's PM sampling headers (it still needs the driver at run time) */
  readonly pmSamplingBuilt: boolean
  /** a graph kernel on the GPU, as gpuRun; its answer checked against the CPU (PS_GPU_CHECKSUM when they differ) */
  gpuGraphRun(
    request: GpuGraphRunRequest,
    onProgress?: (p: GpuProgress) => void,
  ): { promise: Promise<GpuGraphRunResult>; cancel(): void }
}

export const NATIVE_BUILD_COMMAND = 'npm run build:native'

/** Where scripts/build-native.mjs puts the addon. */
export const addonPath = (): string => join(packageRoot(), 'build', 'addon', 'Release', 'pcie_scope_native.node')

/** Whether an Error from the addon carries one of its stable codes. */
export const isNativeError = (e: unknown): e is NativeError => {
  const code = e instanceof Error ? (e as { code?: unknown }).code : undefined
  return typeof code === 'string' && code.startsWith('PS_')
}

let loaded: NativeAddon | undefined

/** The addon, loaded once; PS_NATIVE_NOT_BUILT with the build command when it is missing or broken. */
export const loadAddon = (path: string = addonPath()): NativeAddon => {
  if (loaded && path === addonPath()) return loaded
  if (!existsSync(path)) {
    throw new PsError('PS_NATIVE_NOT_BUILT', `the native addon is not built (${path} is missing); build it with \`${NATIVE_BUILD_COMMAND}\``)
  }
  let addon: NativeAddon
  try {
    addon = createRequire(import.meta.url)(path) as NativeAddon
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e)
    throw new PsError('PS_NATIVE_NOT_BUILT', `the native addon at ${path} does not load (${why}); rebuild it with \`${NATIVE_BUILD_COMMAND}\``, {
      cause: e,
    })
  }
  if (path === addonPath()) loaded = addon
  return addon
}
