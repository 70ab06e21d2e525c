/**
 * WorkloadRunner backed by the twin's traffic model, and the workload validation shared by every
 * runner and the CLI.
 *
 * Limits (checked before anything reaches the twin):
 *  - pattern: one of PATTERNS;
 *  - bytes: an integer multiple of 128 (one warp-wide 128-B line), 128 B .. 1 GiB
 *    (a 1-GiB workload is ≈8 M MRds: minutes under Verilator, the practical ceiling);
 *  - offset: an integer multiple of 4 (DW-aligned, as PCIe addresses are) in 0..124 (0..127),
 *    the start of the buffer within a 128-B line.
 */
import { z } from 'zod'
import { PsError } from '../errors.js'
import { PATTERNS, type Workload, type WorkloadResult, type WorkloadRunner } from '../device/types.js'
import type { TwinDone, TwinProcess } from '../transport/twin.js'

export const LINE_BYTES = 128
export const MAX_WORKLOAD_BYTES = 1024 * 1024 * 1024
export const MAX_OFFSET = 127

export const WorkloadSchema = z.object({
  pattern: z.enum(PATTERNS, { error: () => `pattern must be one of ${PATTERNS.join(', ')}` }),
  bytes: z
    .number({ error: 'bytes must be a number' })
    .int('bytes must be an integer')
    .positive('bytes must be positive')
    .max(MAX_WORKLOAD_BYTES, `bytes must be at most ${MAX_WORKLOAD_BYTES} (1 GiB)`)
    .refine((b) => b % LINE_BYTES === 0, { message: `bytes must be a multiple of ${LINE_BYTES}` }),
  offset: z
    .number({ error: 'offset must be a number' })
    .int('offset must be an integer')
    .min(0, 'offset must be at least 0')
    .max(MAX_OFFSET, `offset must be at most ${MAX_OFFSET}`)
    .refine((o) => o % 4 === 0, { message: 'offset must be a multiple of 4' })
    .default(0),
})

/** Validate a workload; PS_WORKLOAD_INVALID with every problem in the message. */
export const validateWorkload = (w: unknown): Workload => {
  const r = WorkloadSchema.safeParse(w)
  if (!r.success) {
    const msg = r.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ')
    throw new PsError('PS_WORKLOAD_INVALID', `invalid workload: ${msg}`)
  }
  return r.data
}

export const workloadResultFromDone = (workload: Workload, d: TwinDone): WorkloadResult => ({
  workload,
  issued: {
    count: d.mrd.count,
    bySize: { '32': d.mrd.bySize['32'], '64': d.mrd.bySize['64'], '96': d.mrd.bySize['96'], '128': d.mrd.bySize['128'], other: d.mrd.bySize.other },
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
    const done = await this.twin.run(w, { ...(signal ? { signal } : {}), ...(this.opts.timeoutMs !== undefined ? { timeoutMs: this.opts.timeoutMs } : {}) })
    return workloadResultFromDone(w, done)
  }
}
