/**
 * Workloads: the access patterns of spec/workloads.json, their default offsets and limits, and
 * the runner interface every source of traffic implements (the twin's model, a CUDA kernel).
 */
import {
  ELEMENT_BYTES,
  GRAPH_EDGE_FACTOR,
  GRAPH_GENERATOR_SPECS,
  GRAPH_GENERATORS,
  GRAPH_ID_BYTES,
  GRAPH_KERNEL_SPECS,
  GRAPH_KERNELS,
  GRAPH_SCALE,
  GRAPH_ID_BYTES_DEFAULT,
  ELEMENT_BYTES_DEFAULT,
  L1_LOAD_DEFAULT,
  L1_LOADS,
  L1_SPECS,
  LINE_BYTES,
  PATTERN_SPECS,
  PATTERNS,
  WORKLOAD_LIMITS,
  type ElementBytes,
  type GraphKernelName,
  type L1LoadName,
  type PatternName,
} from './generated.js'
import type { BySize } from './size-classes.js'

export {
  ELEMENT_BYTES,
  GRAPH_EDGE_FACTOR,
  GRAPH_GENERATOR_SPECS,
  GRAPH_GENERATORS,
  GRAPH_ID_BYTES,
  GRAPH_KERNEL_SPECS,
  GRAPH_KERNELS,
  GRAPH_SCALE,
  GRAPH_ID_BYTES_DEFAULT,
  ELEMENT_BYTES_DEFAULT,
  L1_LOAD_DEFAULT,
  L1_LOADS,
  L1_SPECS,
  LINE_BYTES,
  PATTERN_SPECS,
  PATTERNS,
  WORKLOAD_LIMITS,
  type ElementBytes,
  type GraphKernelName,
  type L1LoadName,
  type PatternName,
}

/** A micro workload: one access pattern over a buffer. */
export interface Workload {
  pattern: PatternName
  /** useful bytes the kernel reads */
  bytes: number
  /** byte offset of the data from a 128-B line (merged-misaligned defaults to 32) */
  offset: number
  /** bytes per lane load, 4, 8 or 16 (absent: ELEMENT_BYTES_DEFAULT, 4); bytes and offset are multiples of it */
  elementBytes?: ElementBytes
  /** `ideal`: default loads cached in L1; `bypass`: ld.global.cg loads (absent: L1_LOAD_DEFAULT) */
  l1?: L1LoadName
  /** merged-chunked: bytes each warp walks (absent: WORKLOAD_LIMITS.chunkBytes.default) */
  chunkBytes?: number
}

/** Bytes per neighbour id in a graph's edge list (spec `graphs.idBytes`). */
export type GraphIdBytes = (typeof GRAPH_ID_BYTES)[number]

/**
 * A graph workload: one traversal kernel of spec `graphs.kernels` (named `pattern`, as on the
 * command line: `--pattern bfs-aligned`) over a graph, `kron:S[:SEED]`, `urand:S[:SEED]` or
 * `file:PATH`. Absent fields mean the spec defaults (idBytes 8, l1 ideal) and the model's root.
 */
export interface GraphWorkload {
  pattern: GraphKernelName
  graph: string
  idBytes?: GraphIdBytes
  /** BFS root; absent: the first vertex of largest degree among the first 1024 (native/model) */
  sourceVertex?: number
  l1?: L1LoadName
}

/** Whatever a runner runs: a micro pattern or a graph kernel. */
export type AnyWorkload = Workload | GraphWorkload

export const isGraphWorkload = (w: AnyWorkload): w is GraphWorkload => 'graph' in w

export const isGraphKernel = (name: string): name is GraphKernelName => (GRAPH_KERNELS as readonly string[]).includes(name)

/** The id width a graph workload runs at (absent = the spec default). */
export const idBytesOf = (w: Pick<GraphWorkload, 'idBytes'>): GraphIdBytes => w.idBytes ?? GRAPH_ID_BYTES_DEFAULT

/** A generated graph's recipe and scale, from its spec; undefined for `file:` and anything else. */
export const generatedGraph = (graph: string): { generator: string; scale: number; seed: number | undefined } | undefined => {
  const m = /^([a-z]+):(\d+)(?::(\d+))?$/.exec(graph)
  if (!m || !(GRAPH_GENERATORS as readonly string[]).includes(m[1]!)) return undefined
  return { generator: m[1]!, scale: Number(m[2]), seed: m[3] === undefined ? undefined : Number(m[3]) }
}

/** An upper bound of a generated graph's edge-list bytes: every tuple twice (symmetrised); undefined for `file:`. */
export const graphEdgeBytesBound = (w: GraphWorkload): number | undefined => {
  const g = generatedGraph(w.graph)
  return g && g.scale <= GRAPH_SCALE.max ? 2 * GRAPH_EDGE_FACTOR * 2 ** g.scale * idBytesOf(w) : undefined
}

/** The lane width a workload runs at (absent = the spec default). */
export const elementBytesOf = (w: Pick<Workload, 'elementBytes'>): ElementBytes => w.elementBytes ?? ELEMENT_BYTES_DEFAULT

/** The chunk a merged-chunked workload's warps walk (absent = the spec default). */
export const chunkBytesOf = (w: Pick<Workload, 'chunkBytes'>): number => w.chunkBytes ?? WORKLOAD_LIMITS.chunkBytes.default

/** The L1 use a workload runs with (absent = the spec default). */
export const l1Of = (w: Pick<Workload, 'l1'>): L1LoadName => w.l1 ?? L1_LOAD_DEFAULT

/** One key per distinct workload (an absent field and its default are the same workload). */
export const workloadKey = (w: AnyWorkload): string =>
  isGraphWorkload(w)
    ? `${w.pattern}/${w.graph}/${idBytesOf(w)}/${w.sourceVertex ?? '-'}/${l1Of(w)}`
    : `${w.pattern}/${w.bytes}/${w.offset}/${elementBytesOf(w)}/${l1Of(w)}${w.pattern === 'merged-chunked' ? `/${chunkBytesOf(w)}` : ''}`

/** A workload in a few words, for run marks, captions and tables. */
export const workloadLabel = (w: AnyWorkload): string =>
  isGraphWorkload(w) ? `${w.pattern} ${w.graph}${w.idBytes !== undefined ? ` ${w.idBytes}-B ids` : ''}` : `${w.pattern} ${w.bytes} B`

/** The offset a pattern runs at when none is given (spec `defaultOffset`). */
export const defaultOffset = (p: PatternName): number => PATTERN_SPECS.find((s) => s.name === p)?.defaultOffset ?? 0

/** A GPU as the CUDA runtime and NVML describe it. */
export interface GpuDeviceInfo {
  name: string
  pciBusId: string
  /** the link generation and width NVML reports as the maximum; -1 when unknown */
  pcieGen: number
  pcieWidth: number
  smCount: number
  computeCapability: string
  /** the NVIDIA driver's version as NVML gives it ("580.159.04"); null when NVML is missing */
  nvidiaDriver: string | null
  /** cudaDriverGetVersion / cudaRuntimeGetVersion, e.g. 12080 */
  driverVersion: number
  runtimeVersion: number
}

/** A CUDA version number as CUDA writes it: 12080 -> "12.8". */
export const cudaVersionName = (v: number): string => `${Math.floor(v / 1000)}.${Math.floor((v % 1000) / 10)}`

/** Median of the timed repeats, with their minimum and maximum, in milliseconds. */
export interface GpuTiming {
  medianMs: number
  minMs: number
  maxMs: number
}

/** What a GPU run measured, next to what the traffic model predicts for the same workload. */
export interface GpuRunSummary {
  device: GpuDeviceInfo
  kernel: GpuTiming
  /** cudaMemcpy host-to-device of the same bytes, in the same run */
  memcpyH2d: GpuTiming
  payloadBytes: number
  /** GB/s = 1e9 B/s, from the medians */
  kernelGbps: number
  memcpyGbps: number
  ratioToMemcpy: number
  /** payload GB/s the GPU's link allows with 128-B reads (20 B of header and framing each); null when the link is unknown */
  ceiling128Gbps: number | null
  ratioToCeiling128: number | null
  /** 64-bit sums of what the kernel read and of the same bytes on the CPU (0x hex) */
  checksum: { gpu: string; cpu: string; ok: boolean }
  threads: number
  blocks: number
  /** the traffic model's MRds for this workload */
  predicted: { count: number; bySize: BySize; bytes: number }
}

/** The graph a graph run traversed, as the runner loaded it. */
export interface GraphRunFacts {
  /** the spec as given */
  graph: string
  vertices: number
  /** directed CSR edges (each undirected edge twice) */
  edges: number
  idBytes: GraphIdBytes
  /** the BFS root used */
  sourceVertex: number
  /** kernel launches: one per BFS level, the deepest included (iterations for an iterative kernel) */
  launches: number
}

/** A GPU's BFS: its time, what it read, and its levels checked against the CPU's. */
export interface GpuGraphSummary {
  device: GpuDeviceInfo
  /** where the edge list lived: zerocopy, uvm, uvm-accessed-by or device */
  memory: string
  /** one whole BFS (every launch), median/min/max of the repeats */
  bfs: GpuTiming
  reached: number
  /** directed CSR edges of the reached vertices: what TEPS counts */
  edgesRead: number
  edgeBytes: number
  /** edgesRead / median / 1e9 */
  gteps: number
  edgeGbps: number
  levels: { ok: boolean; mismatches: number }
}

/** What the workload side (the twin's traffic model, or a GPU kernel) says it did. */
export interface WorkloadResult {
  workload: AnyWorkload
  /** MRds issued, by size class: counted by the twin's model; for a GPU run the model's prediction (a GPU does not count its reads) */
  issued: { count: number; bySize: BySize; bytes: number }
  /** reads answered: counted by the twin; a GPU run that finished had every read answered (= issued.count) */
  completions: number
  /** completions whose payload did not match the requested address (GPU: 0, a bad checksum fails the run) */
  payloadErrors: number
  /** simulated clock cycles (twin); 0 for a GPU run */
  simCycles: number
  wallSeconds: number
  /** GPU runs of a micro pattern only */
  gpu?: GpuRunSummary
  /** graph runs only: the graph as loaded */
  graph?: GraphRunFacts
  /** GPU runs of a graph kernel only */
  gpuGraph?: GpuGraphSummary
}

/** Runs workloads on whatever plays the GPU: the twin's traffic model, or a real kernel. */
export interface WorkloadRunner {
  readonly kind: 'twin' | 'cuda'
  run(workload: AnyWorkload, signal?: AbortSignal): Promise<WorkloadResult>
}
