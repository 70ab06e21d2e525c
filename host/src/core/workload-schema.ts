/**
 * The one validation of a workload, shared by every runner, the CLI and the REST API; limits and
 * defaults come from spec/workloads.json. A missing offset takes the pattern's default.
 */
import { z } from 'zod'
import { PsError } from './errors.js'
import { defaultOffset, PATTERN_SPECS, PATTERNS, WORKLOAD_LIMITS, type Workload } from './workload.js'

const limited = (name: 'bytes' | 'offset') => {
  const l = WORKLOAD_LIMITS[name]
  return z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be an integer`)
    .min(l.min, `${name} must be at least ${l.min}`)
    .max(l.max, `${name} must be at most ${l.max}`)
    .refine((v) => v % l.multipleOf === 0, { message: `${name} must be a multiple of ${l.multipleOf}` })
    .describe(`${l.doc}: a multiple of ${l.multipleOf} in ${l.min}..${l.max}`)
}

/** The fields as sent; `.strict()` it where unknown keys must be refused (REST). */
export const WorkloadFields = z.object({
  pattern: z.enum(PATTERNS, { error: () => `pattern must be one of ${PATTERNS.join(', ')}` }),
  bytes: limited('bytes'),
  offset: limited('offset')
    .optional()
    .describe(`default: the pattern's own (${PATTERN_SPECS.map((p) => `${p.name} ${p.defaultOffset}`).join(', ')})`),
})

/** Fill in the pattern's default offset. */
export const withDefaults = (w: z.infer<typeof WorkloadFields>): Workload => ({
  pattern: w.pattern,
  bytes: w.bytes,
  offset: w.offset ?? defaultOffset(w.pattern),
})

export const WorkloadSchema = WorkloadFields.transform(withDefaults)

/** Validate a workload; PS_WORKLOAD_INVALID with every problem in the message. */
export const validateWorkload = (w: unknown): Workload => {
  const r = WorkloadSchema.safeParse(w)
  if (!r.success) {
    const msg = r.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ')
    throw new PsError('PS_WORKLOAD_INVALID', `invalid workload: ${msg}`)
  }
  return r.data
}
