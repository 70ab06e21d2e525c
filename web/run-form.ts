/**
 * The run form's choices and its request, and the graph lines of the result box: the access
 * patterns and graph kernels of spec/workloads.json, a graph picker (generator and scale up to
 * the server's limit, id width), the POST /api/run body. Pure, so it is tested without a page.
 */
import {
  chunkBytesOf,
  ELEMENT_BYTES,
  ELEMENT_BYTES_DEFAULT,
  GRAPH_GENERATOR_SPECS,
  GRAPH_ID_BYTES,
  GRAPH_ID_BYTES_DEFAULT,
  GRAPH_KERNEL_SPECS,
  GRAPH_SCALE,
  isGraphKernel,
  isGraphWorkload,
  PATTERN_SPECS,
  WORKLOAD_LIMITS,
  type AnyWorkload,
  type WorkloadResult,
} from '../host/src/core/workload.js'
import type { RunSource } from '../host/src/core/wire.js'
import { int } from './model.js'

export type RunKind = 'micro' | 'graph'

export interface PatternChoice {
  value: string
  kind: RunKind
  title: string
}

/** Access patterns first, then graph kernels, each in spec order. */
export const PATTERN_CHOICES: readonly PatternChoice[] = [
  ...PATTERN_SPECS.map((p) => ({ value: p.name, kind: 'micro' as const, title: p.doc })),
  ...GRAPH_KERNEL_SPECS.map((k) => ({ value: k.name, kind: 'graph' as const, title: k.doc })),
]

export const patternKind = (name: string): RunKind => (isGraphKernel(name) ? 'graph' : 'micro')

/** The scales the form offers: the server refuses larger ones (spec graphs.scale.serverMax). */
export const GRAPH_SCALES: readonly number[] = Array.from(
  { length: GRAPH_SCALE.serverMax - GRAPH_SCALE.min + 1 },
  (_, i) => GRAPH_SCALE.min + i,
)
/** A graph that runs through the twin in about a second, or the largest the server takes. */
export const DEFAULT_GRAPH_SCALE = Math.min(12, GRAPH_SCALE.serverMax)

export const GRAPH_GENERATOR_CHOICES = GRAPH_GENERATOR_SPECS.map((g) => ({ value: g.name, title: g.doc }))
export const ELEMENT_BYTES_CHOICES = ELEMENT_BYTES.map((b) => ({ value: String(b), selected: b === ELEMENT_BYTES_DEFAULT }))
export const ID_BYTES_CHOICES = GRAPH_ID_BYTES.map((b) => ({ value: String(b), selected: b === GRAPH_ID_BYTES_DEFAULT }))

/** What the form holds, as the inputs give it (strings). */
export interface RunFormValues {
  pattern: string
  bytes: string
  offset: string
  /** bytes per lane load; absent or the spec default: not sent */
  elementBytes?: string
  /** merged-chunked: bytes each warp walks; absent or the spec default: not sent */
  chunkBytes?: string
  generator: string
  scale: string
  idBytes: string
  /** '' = the server's default source */
  source: RunSource | ''
}

/** The POST /api/run body: a micro pattern's bytes and offset, or a graph kernel's graph and id width. */
export function runRequestBody(v: RunFormValues): Record<string, unknown> {
  const source = v.source ? { source: v.source } : {}
  if (patternKind(v.pattern) === 'graph')
    return { pattern: v.pattern, graph: `${v.generator}:${v.scale}`, idBytes: Number(v.idBytes), ...source }
  const e = v.elementBytes ? Number(v.elementBytes) : ELEMENT_BYTES_DEFAULT
  const lanes = e !== ELEMENT_BYTES_DEFAULT ? { elementBytes: e } : {}
  const c = v.chunkBytes ? Number(v.chunkBytes) : WORKLOAD_LIMITS.chunkBytes.default
  const chunk = v.pattern === 'merged-chunked' && c !== WORKLOAD_LIMITS.chunkBytes.default ? { chunkBytes: c } : {}
  return { pattern: v.pattern, bytes: Number(v.bytes), offset: Number(v.offset), ...lanes, ...chunk, ...source }
}

/** The box's first line: which run, and what it ran. */
export function runTitle(id: number, origin: string, w: AnyWorkload): string {
  if (isGraphWorkload(w)) return `#${id} (${origin}) ${w.pattern} on ${w.graph}`
  const chunk = w.pattern === 'merged-chunked' ? ` in ${int(chunkBytesOf(w))}-B chunks` : ''
  return `#${id} (${origin}) ${w.pattern}, ${int(w.bytes)} B @ +${w.offset}${chunk}`
}

/** One line of the result box; `status` colours a check. */
export interface ResultRow {
  label: string
  value: string
  status?: 'ok' | 'bad'
}

/** The graph a run traversed and, on a GPU, its BFS time and TEPS; none for a micro pattern. */
export function graphRows(res: Pick<WorkloadResult, 'graph' | 'gpuGraph'>): ResultRow[] {
  const g = res.graph
  if (!g) return []
  const rows: ResultRow[] = [
    { label: 'graph', value: `${g.graph}: ${int(g.vertices)} vertices, ${int(g.edges)} directed edges, ${g.idBytes}-B ids` },
    { label: 'BFS', value: `from vertex ${g.sourceVertex}, ${g.launches} kernel launches (levels)` },
  ]
  const gg = res.gpuGraph
  if (gg)
    rows.push(
      {
        label: 'GPU BFS (median)',
        value: `${gg.bfs.medianMs.toFixed(3)} ms, ${gg.gteps.toFixed(3)} GTEPS, ${gg.edgeGbps.toFixed(2)} GB/s of edges (${gg.memory})`,
      },
      {
        label: 'levels vs CPU',
        value: gg.levels.ok ? 'ok' : `BAD: ${gg.levels.mismatches} differ`,
        status: gg.levels.ok ? 'ok' : 'bad',
      },
    )
  return rows
}
