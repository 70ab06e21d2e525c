/**
 * The one validation of a workload, shared by every runner, the CLI and the REST API; limits and
 * defaults come from spec/workloads.json. A missing offset takes the pattern's default; a missing
 * elementBytes or l1 stays absent (meaning the spec default: elementBytesOf, l1Of), so workloads
 * written before those fields existed validate to the same object.
 */
import { z } from 'zod'
import { PsError } from './errors.js'
import {
  defaultOffset,
  ELEMENT_BYTES,
  ELEMENT_BYTES_DEFAULT,
  elementBytesOf,
  L1_LOAD_DEFAULT,
  L1_LOADS,
  L1_SPECS,
  PATTERN_SPECS,
  PATTERNS,
  WORKLOAD_LIMITS,
  type ElementBytes,
  type Workload,
} from './workload.js'

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
  elementBytes: z
    .number({ error: 'elementBytes must be a number' })
    .refine((v): v is ElementBytes => (ELEMENT_BYTES as readonly number[]).includes(v), {
      message: `elementBytes must be one of ${ELEMENT_BYTES.join(', ')}`,
    })
    .optional()
    .describe(`bytes per lane load (default ${ELEMENT_BYTES_DEFAULT}); bytes and offset must be multiples of it`),
  l1: z
    .enum(L1_LOADS, { error: () => `l1 must be one of ${L1_LOADS.join(', ')}` })
    .optional()
    .describe(`default ${L1_LOAD_DEFAULT}: ${L1_SPECS.map((l) => `${l.name} = ${l.doc}`).join('; ')}`),
})

/** Fill in the pattern's default offset; keep elementBytes and l1 only when given. */
export const withDefaults = (w: z.infer<typeof WorkloadFields>): Workload => ({
  pattern: w.pattern,
  bytes: w.bytes,
  offset: w.offset ?? defaultOffset(w.pattern),
  ...(w.elementBytes !== undefined ? { elementBytes: w.elementBytes as ElementBytes } : {}),
  ...(w.l1 !== undefined ? { l1: w.l1 } : {}),
})

/** Whole, naturally aligned loads: bytes and offset are multiples of the lane width. */
export const checkAlignment = (w: Workload, ctx: z.RefinementCtx): void => {
  const e = elementBytesOf(w)
  if (w.bytes % e !== 0)
    ctx.addIssue({ code: 'custom', path: ['bytes'], message: `bytes must be a multiple of elementBytes ${e} (whole loads)` })
  if (w.offset % e !== 0)
    ctx.addIssue({ code: 'custom', path: ['offset'], message: `offset must be a multiple of elementBytes ${e} (aligned loads)` })
}

export const WorkloadSchema = WorkloadFields.transform(withDefaults).superRefine(checkAlignment)

/** Validate a workload; PS_WORKLOAD_INVALID with every problem in the message. */
export const validateWorkload = (w: unknown): Workload => {
  const r = WorkloadSchema.safeParse(w)
  if (!r.success) {
    const msg = r.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ')
    throw new PsError('PS_WORKLOAD_INVALID', `invalid workload: ${msg}`)
  }
  return r.data
}
