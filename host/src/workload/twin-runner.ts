/**
 * WorkloadRunner backed by the twin's traffic model. Workloads are validated once, by
 * core/workload-schema.ts, against the limits of spec/workloads.json.
 */
import { validateWorkload } from '../core/workload-schema.js'
import type { Workload, WorkloadResult, WorkloadRunner } from '../core/workload.js'
import type { TwinDone, TwinProcess } from '../transport/twin.js'

const workloadResultFromDone = (workload: Workload, d: TwinDone): WorkloadResult => ({
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

export class TwinWorkloadRunner implements WorkloadRunner {
  readonly kind = 'twin' as const
  constructor(
    private readonly twin: Pick<TwinProcess, 'run'>,
    private readonly opts: { timeoutMs?: number } = {},
  ) {}

  async run(workload: Workload, signal?: AbortSignal): Promise<WorkloadResult> {
    const w = validateWorkload(workload)
    const done = await this.twin.run(w, {
      ...(signal ? { signal } : {}),
      ...(this.opts.timeoutMs !== undefined ? { timeoutMs: this.opts.timeoutMs } : {}),
    })
    return workloadResultFromDone(w, done)
  }
}
