/**
 * `pcie-scope bench --gpu|--twin --suite graph [--graph G]`: every graph kernel of spec `graphs` on
 * one graph, with the traffic model's predicted MRds (the addon's predictGraph) beside what was
 * measured. --twin: the MRds the twin's probe counted while the kernel ran through the RTL.
 * --gpu: the kernel on this machine's GPU over each edge-list memory (zero-copy, UVM, device), its
 * time, GTEPS and edge-list GB/s, its answer checked against the CPU.
 */
import { PsError, isPsError } from '../core/errors.js'
import { GRAPH_KERNELS, type GraphKernelName } from '../core/generated.js'
import { sameMrdCounts, type MrdCounts } from '../core/size-classes.js'
import type { GpuDeviceInfo, GraphIdBytes } from '../core/workload.js'
import { runGraphOnProbe } from '../measure/graph-run.js'
import type { GpuGraphRunRequest, GpuGraphRunResult, GraphMemory, GraphPrediction, NativeAddon } from '../native/addon.js'
import { gpuError } from '../workload/gpu-runner.js'
import type { CliDeps } from './io.js'
import type { ProgressBar } from './progress-bar.js'
import type { TwinMode } from '../core/twin-mode.js'

/** Defaults: a GPU needs a graph large enough to time; the twin simulates every clock. */
export const DEFAULT_GRAPH = { gpu: 'kron:20', twin: 'kron:16' } as const

type Measured = MrdCounts

export interface GraphBenchRow {
  kernel: GraphKernelName
  /** --gpu: the edge list's memory */
  memory?: GraphMemory
  /** the traffic model's MRds and launches, and the bandwidth model's edge GB/s on the spec's GPU host */
  predicted: Measured & { launches: number; edgeGbps?: number }
  probe?: Measured & { matchesPrediction: boolean }
  gpu?: GpuGraphRunResult
  error?: { code: string; message: string }
}

export interface GraphBenchReport {
  suite: 'graph'
  source: 'gpu' | 'twin'
  graph: string
  idBytes: GraphIdBytes
  /** vertices, edges and source, from the first prediction */
  vertices: number | null
  edges: number | null
  bfsSource: number | null
  device: GpuDeviceInfo | null
  rows: GraphBenchRow[]
}

/** the twin session a --twin suite runs on: the twin's default design unless --mode names one */
export const twinSessionOptions = (mode: TwinMode | undefined) =>
  ({ twin: true, ...(mode !== undefined ? { twinOptions: { mode } } : {}) }) as const

export interface GraphBenchOptions {
  source: 'gpu' | 'twin'
  graph: string
  idBytes: GraphIdBytes
  memories: readonly GraphMemory[]
  repeats?: number
  bar: ProgressBar
  /** twin: its design (the twin's default, switch, when absent) */
  mode?: TwinMode
}

/** Errors after which the other kernels cannot run either. */
const FATAL = new Set([
  'PS_GPU_UNAVAILABLE',
  'PS_GPU_CANCELLED',
  'PS_NATIVE_NOT_BUILT',
  'PS_TWIN_NOT_BUILT',
  'PS_TWIN_START',
  'PS_TWIN_EXITED',
])
const GRAPH_INPUT = /^PS_GRAPH_/

const codeOf = (e: unknown): string | undefined => (isPsError(e) ? e.code : ((e as { code?: unknown } | null)?.code as string | undefined))

export const runGraphBench = async (deps: CliDeps, o: GraphBenchOptions): Promise<GraphBenchReport> => {
  const addon: NativeAddon = deps.loadAddon()
  const report: GraphBenchReport = {
    suite: 'graph',
    source: o.source,
    graph: o.graph,
    idBytes: o.idBytes,
    vertices: null,
    edges: null,
    bfsSource: null,
    device: null,
    rows: [],
  }
  const jobs: Array<{ kernel: GraphKernelName; memory?: GraphMemory }> = GRAPH_KERNELS.flatMap((kernel) =>
    o.source === 'gpu' ? o.memories.map((memory) => ({ kernel, memory })) : [{ kernel }],
  )
  const session = o.source === 'twin' ? await deps.openSession(twinSessionOptions(o.mode)) : undefined
  try {
    for (const [i, job] of jobs.entries()) {
      const name = `${job.kernel}${job.memory ? ` ${job.memory}` : ''}`
      o.bar.update(i, `${name}: model`)
      let p: GraphPrediction
      try {
        p = await addon.predictGraph({ kernel: job.kernel, graph: o.graph, idBytes: o.idBytes })
      } catch (e) {
        // a graph that cannot be read or made fails every kernel alike: the user's input
        const code = codeOf(e)
        if (code && (GRAPH_INPUT.test(code) || code === 'PS_WORKLOAD_INVALID'))
          throw new PsError('PS_WORKLOAD_INVALID', (e as Error).message)
        throw e
      }
      report.vertices ??= p.vertices
      report.edges ??= p.edges
      report.bfsSource ??= p.source
      const row: GraphBenchRow = {
        kernel: job.kernel,
        ...(job.memory ? { memory: job.memory } : {}),
        predicted: {
          count: p.count,
          bySize: p.bySize,
          bytes: p.bytes,
          launches: p.launches,
          ...(p.predictedEdgeGbps !== undefined ? { edgeGbps: p.predictedEdgeGbps } : {}),
        },
      }
      o.bar.update(i, name)
      try {
        if (session) {
          const r = await runGraphOnProbe(session, { kernel: job.kernel, graph: o.graph, idBytes: o.idBytes, source: p.source })
          const probe = { count: r.probe.count, bySize: r.probe.bySize, bytes: r.probe.bytes }
          row.probe = { ...probe, matchesPrediction: sameMrdCounts(probe, row.predicted) }
        } else {
          const req: GpuGraphRunRequest = {
            kernel: job.kernel,
            graph: o.graph,
            idBytes: o.idBytes,
            source: p.source,
            ...(job.memory ? { memory: job.memory } : {}),
            ...(o.repeats !== undefined ? { repeats: o.repeats } : {}),
          }
          const g = await addon
            .gpuGraphRun(req, (pr) =>
              o.bar.update(i + (pr.total > 0 ? pr.done / pr.total : 0), `${name} ${pr.phase} ${pr.done}/${pr.total}`),
            )
            .promise.catch((e: unknown) => {
              throw gpuError(e)
            })
          row.gpu = g
          report.device ??= g.device
        }
      } catch (e) {
        if (!isPsError(e) || FATAL.has(e.code)) throw e
        row.error = { code: e.code, message: e.message }
      }
      report.rows.push(row)
    }
  } finally {
    await session?.close()
  }
  return report
}
