/**
 * WorkloadRunner backed by the twin's traffic model: a micro pattern (`run`) or a graph kernel
 * (`runGraph`, the kernel replayed level by level through the probe). Workloads are validated
 * once, by core/workload-schema.ts, against the limits of spec/workloads.json.
 */
import { validateAnyWorkload } from '../core/workload-schema.js'
import { isGraphWorkload, type AnyWorkload, type GraphWorkload, type WorkloadResult, type WorkloadRunner } from '../core/workload.js'
import type { TwinDone, TwinProcess } from '../transport/twin.js'
import type { TwinGraphDone } from '../transport/twin-lines.js'

const workloadResultFromDone = (workload: AnyWorkload, d: TwinDone | TwinGraphDone): WorkloadResult => ({
  workload,
  issued: {
    count: d.mrd.count,
    bySize: { ...d.mrd.bySize },
    bytes: d.mrd.bytes,
  },
  completions: d.completions,
  payloadErrors: d.payloadErrors,
  simCycles: d.simCycles,
  wallSeconds: d.wallSeconds,
})

/** The graph facts of a graph kernel's done line. */
const graphFacts = (w: GraphWorkload, d: TwinGraphDone): NonNullable<WorkloadResult['graph']> => ({
  graph: w.graph,
  vertices: d.vertices,
  edges: d.edges,
  idBytes: d.idBytes,
  sourceVertex: d.source,
  launches: d.launches,
})

export class TwinWorkloadRunner implements WorkloadRunner {
  readonly kind = 'twin' as const
  constructor(
    private readonly twin: Pick<TwinProcess, 'run' | 'runGraph'>,
    private readonly opts: { timeoutMs?: number } = {},
  ) {}

  async run(workload: AnyWorkload, signal?: AbortSignal): Promise<WorkloadResult> {
    const w = validateAnyWorkload(workload)
    const opts = {
      ...(signal ? { signal } : {}),
      ...(this.opts.timeoutMs !== undefined ? { timeoutMs: this.opts.timeoutMs } : {}),
    }
    if (!isGraphWorkload(w)) return workloadResultFromDone(w, await this.twin.run(w, opts))
    const done = await this.twin.runGraph(
      {
        kernel: w.pattern,
        graph: w.graph,
        ...(w.idBytes !== undefined ? { idBytes: w.idBytes } : {}),
        ...(w.sourceVertex !== undefined ? { source: w.sourceVertex } : {}),
        ...(w.l1 !== undefined ? { l1: w.l1 } : {}),
      },
      opts,
    )
    return { ...workloadResultFromDone(w, done), graph: graphFacts(w, done) }
  }
}
