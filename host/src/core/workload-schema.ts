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
  generatedGraph,
  GRAPH_GENERATORS,
  GRAPH_ID_BYTES,
  GRAPH_ID_BYTES_DEFAULT,
  GRAPH_KERNELS,
  GRAPH_SCALE,
  isGraphKernel,
  ELEMENT_BYTES_DEFAULT,
  elementBytesOf,
  L1_LOAD_DEFAULT,
  L1_LOADS,
  L1_SPECS,
  PATTERN_SPECS,
  PATTERNS,
  WORKLOAD_LIMITS,
  type AnyWorkload,
  type ElementBytes,
  type GraphIdBytes,
  type GraphWorkload,
  type Workload,
} from './workload.js'

const limited = (name: 'bytes' | 'offset' | 'chunkBytes') => {
  const l = WORKLOAD_LIMITS[name]
  return z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be an integer`)
    .min(l.min, `${name} must be at least ${l.min}`)
    .max(l.max, `${name} must be at most ${l.max}`)
    .refine((v) => v % l.multipleOf === 0, { message: `${name} must be a multiple of ${l.multipleOf}` })
    .describe(`${l.doc}: a multiple of ${l.multipleOf} in ${l.min}..${l.max}`)
}

const l1Field = z
  .enum(L1_LOADS, { error: () => `l1 must be one of ${L1_LOADS.join(', ')}` })
  .optional()
  .describe(`default ${L1_LOAD_DEFAULT}: ${L1_SPECS.map((l) => `${l.name} = ${l.doc}`).join('; ')}`)

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
  l1: l1Field,
  chunkBytes: limited('chunkBytes')
    .optional()
    .describe(`merged-chunked only (default ${WORKLOAD_LIMITS.chunkBytes.default}): ${WORKLOAD_LIMITS.chunkBytes.doc}`),
})

/**
 * Where a graph may come from: the CLI reads a user's files and takes any scale the generators
 * make; the server (`server`) reads no files for a client and caps the scale at spec
 * `graphs.scale.serverMax`, so one request cannot hold the twin for minutes.
 */
export type GraphScope = 'local' | 'server'

const GRAPH_FORMS = `${GRAPH_GENERATORS.map((g) => `${g}:S[:SEED]`).join(', ')} or file:PATH`
const GRAPH_SPEC_MAX_CHARS = 4096

/** Why a graph spec is refused in this scope, or undefined when it is fine. */
const graphSpecProblem = (graph: string, scope: GraphScope): string | undefined => {
  if (graph.length === 0 || graph.length > GRAPH_SPEC_MAX_CHARS || /\s/.test(graph))
    return `graph must be ${GRAPH_FORMS}: one word of at most ${GRAPH_SPEC_MAX_CHARS} characters`
  const maxScale = scope === 'server' ? GRAPH_SCALE.serverMax : GRAPH_SCALE.max
  if (graph.startsWith('file:')) {
    if (scope === 'server')
      return `graph ${graph}: the server reads no files for a client; use ${GRAPH_GENERATORS.map((g) => `${g}:S`).join(' or ')} with S at most ${maxScale}`
    return graph.length > 'file:'.length ? undefined : 'graph file: needs a path (file:PATH)'
  }
  const g = generatedGraph(graph)
  if (!g || (g.seed !== undefined && !Number.isSafeInteger(g.seed))) return `graph '${graph}' is not ${GRAPH_FORMS}`
  if (g.scale < GRAPH_SCALE.min || g.scale > maxScale)
    return `graph ${graph}: scale ${g.scale} is outside ${GRAPH_SCALE.min}..${maxScale}${scope === 'server' ? " (the server's limit, spec graphs.scale.serverMax)" : ''}`
  return undefined
}

/** The fields of a graph workload as sent; `.strict()` it where unknown keys must be refused (REST). */
export const graphWorkloadFields = (scope: GraphScope) =>
  z.object({
    pattern: z.enum(GRAPH_KERNELS, { error: () => `pattern must be one of ${GRAPH_KERNELS.join(', ')}` }),
    graph: z
      .string({ error: 'graph must be a string' })
      .superRefine((g, ctx) => {
        const problem = graphSpecProblem(g, scope)
        if (problem) ctx.addIssue({ code: 'custom', message: problem })
      })
      .describe(
        `the graph: ${GRAPH_FORMS}${scope === 'server' ? ` (no file:, S in ${GRAPH_SCALE.min}..${GRAPH_SCALE.serverMax})` : ` (S in ${GRAPH_SCALE.min}..${GRAPH_SCALE.max})`}`,
      ),
    idBytes: z
      .number({ error: 'idBytes must be a number' })
      .refine((v): v is GraphIdBytes => (GRAPH_ID_BYTES as readonly number[]).includes(v), {
        message: `idBytes must be one of ${GRAPH_ID_BYTES.join(', ')}`,
      })
      .optional()
      .describe(`bytes per vertex id in the edge list (default ${GRAPH_ID_BYTES_DEFAULT})`),
    sourceVertex: z
      .number({ error: 'sourceVertex must be a number' })
      .int('sourceVertex must be an integer')
      .min(0, 'sourceVertex must be at least 0')
      .max(Number.MAX_SAFE_INTEGER, 'sourceVertex is too large')
      .optional()
      .describe('the BFS root (default: the first vertex of largest degree among the first 1024); below the vertex count'),
    l1: l1Field,
  })

/** Keep the optional fields only when given, as withDefaults does for micro workloads. */
export const graphWithDefaults = (w: z.infer<ReturnType<typeof graphWorkloadFields>>): GraphWorkload => ({
  pattern: w.pattern,
  graph: w.graph,
  ...(w.idBytes !== undefined ? { idBytes: w.idBytes as GraphIdBytes } : {}),
  ...(w.sourceVertex !== undefined ? { sourceVertex: w.sourceVertex } : {}),
  ...(w.l1 !== undefined ? { l1: w.l1 } : {}),
})

/** Fill in the pattern's default offset; keep elementBytes, l1 and chunkBytes only when given. */
export const withDefaults = (w: z.infer<typeof WorkloadFields>): Workload => ({
  pattern: w.pattern,
  bytes: w.bytes,
  offset: w.offset ?? defaultOffset(w.pattern),
  ...(w.elementBytes !== undefined ? { elementBytes: w.elementBytes as ElementBytes } : {}),
  ...(w.l1 !== undefined ? { l1: w.l1 } : {}),
  ...(w.chunkBytes !== undefined ? { chunkBytes: w.chunkBytes } : {}),
})

/** Whole, naturally aligned loads: bytes and offset are multiples of the lane width. */
export const checkAlignment = (w: Workload, ctx: z.RefinementCtx): void => {
  const e = elementBytesOf(w)
  if (w.chunkBytes !== undefined && w.pattern !== 'merged-chunked')
    ctx.addIssue({ code: 'custom', path: ['chunkBytes'], message: 'chunkBytes goes with the merged-chunked pattern' })
  else if (w.chunkBytes !== undefined && w.chunkBytes % e !== 0)
    ctx.addIssue({ code: 'custom', path: ['chunkBytes'], message: `chunkBytes must be a multiple of elementBytes ${e} (whole loads)` })
  if (w.bytes % e !== 0)
    ctx.addIssue({ code: 'custom', path: ['bytes'], message: `bytes must be a multiple of elementBytes ${e} (whole loads)` })
  if (w.offset % e !== 0)
    ctx.addIssue({ code: 'custom', path: ['offset'], message: `offset must be a multiple of elementBytes ${e} (aligned loads)` })
}

export const WorkloadSchema = WorkloadFields.transform(withDefaults).superRefine(checkAlignment)

const GraphWorkloadSchemas = {
  local: graphWorkloadFields('local').transform(graphWithDefaults),
  server: graphWorkloadFields('server').transform(graphWithDefaults),
} as const

const parsed = <T>(r: z.ZodSafeParseResult<T>): T => {
  if (!r.success) {
    const msg = r.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ')
    throw new PsError('PS_WORKLOAD_INVALID', `invalid workload: ${msg}`)
  }
  return r.data
}

/** Validate a workload; PS_WORKLOAD_INVALID with every problem in the message. */
export const validateWorkload = (w: unknown): Workload => parsed(WorkloadSchema.safeParse(w))

/** Validate a graph workload (local scope: files and every scale allowed); PS_WORKLOAD_INVALID as validateWorkload. */
export const validateGraphWorkload = (w: unknown, scope: GraphScope = 'local'): GraphWorkload =>
  parsed(GraphWorkloadSchemas[scope].safeParse(w))

/** A micro or a graph workload, told apart by the pattern (a graph kernel) or a `graph` field. */
export const validateAnyWorkload = (w: unknown, scope: GraphScope = 'local'): AnyWorkload => {
  const o = (w ?? {}) as { pattern?: unknown; graph?: unknown }
  const graph = o.graph !== undefined || (typeof o.pattern === 'string' && isGraphKernel(o.pattern))
  return graph ? validateGraphWorkload(w, scope) : validateWorkload(w)
}
