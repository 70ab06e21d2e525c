/**
 * The twin's stdout protocol, one JSON object per line (docs/contracts.md §3), validated with a
 * schema instead of a cast: a line that does not match is reported as invalid with the reason,
 * never half-trusted.
 *
 *   {"event":"ready","pty":"/dev/pts/N","clockHz":250000000,"link":{…},"tags":256}
 *   {"event":"done","id":1,"pattern":"strided","bytes":…,"mrd":{"count":…,"bySize":{…},"bytes":…},…}
 *   {"event":"error","message":"…"[,"id":1][,"command":"cancel"|"inject"]}
 *   {"event":"injected","kind":"garbage","count":16,"seed":0}
 *
 * A cancelled run's done line carries "cancelled":true and the counts up to the cancel.
 */
import { z } from 'zod'
import { SIZE_KEYS } from '../core/size-classes.js'
import { GRAPH_ID_BYTES, GRAPH_KERNELS } from '../core/generated.js'
import { ELEMENT_BYTES, L1_LOADS, PATTERNS } from '../core/workload.js'

const count = z.number().int().nonnegative()

const LinkSchema = z.object({
  name: z.string().min(1),
  tlpBytesPerSecond: z.number().positive().nullable(),
  gen: z.number().int().positive().optional(),
  lanes: z.number().int().positive().optional(),
})

const WindowSchema = z.object({ base: count, limit: count }).nullable()
const FunctionBase = {
  bus: count,
  device: count,
  function: count,
  vendorId: count,
  deviceId: count,
  classCode: count,
  headerType: count,
  command: count,
}
const BridgeSchema = z.object({
  ...FunctionBase,
  role: z.enum(['upstream-port', 'downstream-port']),
  link: z.object({ speed: count, width: count, maxSpeed: count, maxWidth: count }),
  buses: z.object({ primary: count, secondary: count, subordinate: count }),
  windows: z.object({ memory: WindowSchema, prefetchable: WindowSchema }),
})
const EndpointSchema = z.object({
  ...FunctionBase,
  role: z.literal('endpoint'),
  bars: z.array(
    z.object({ index: count, base: count, size: count, bits: z.union([z.literal(32), z.literal(64)]), prefetchable: z.boolean() }),
  ),
})

/** The tree the twin's host model enumerated through the switch RTL (switch mode only). */
export const TopologySchema = z.union([
  z.object({
    found: z.literal(true),
    root: z.object({ bus: count, device: count, function: count, secondary: count, subordinate: count }),
    functions: z.array(z.union([BridgeSchema, EndpointSchema])),
    /** device numbers scanned that answered Unsupported Request */
    absentDevices: count,
    /** programmed registers that read back otherwise */
    readbackMismatches: count,
  }),
  z.object({ found: z.literal(false), problem: z.string() }),
])

export const ReadyLineSchema = z.object({
  event: z.literal('ready'),
  pty: z.string().min(1),
  clockHz: z.number().int().positive(),
  link: LinkSchema.optional(),
  /** the GPU model's outstanding-request budget (absent from twins before the tracker) */
  tags: z.number().int().positive().optional(),
  /** the design the twin runs: the BAR endpoint or the switch (absent from twins before the switch) */
  mode: z.enum(['endpoint', 'switch']).optional(),
  topology: TopologySchema.optional(),
})

const BySizeSchema = z.strictObject(
  Object.fromEntries(SIZE_KEYS.map((k) => [k, count])) as Record<(typeof SIZE_KEYS)[number], typeof count>,
)

export const DoneLineSchema = z.object({
  event: z.literal('done'),
  id: count,
  pattern: z.enum(PATTERNS),
  bytes: count,
  offset: count,
  /** lane load width and L1 use the run had (absent from twins before they existed) */
  elementBytes: z.union(ELEMENT_BYTES.map((e) => z.literal(e))).optional(),
  l1: z.enum(L1_LOADS).optional(),
  /** merged-chunked's chunk */
  chunkBytes: count.optional(),
  mrd: z.object({ count, bySize: BySizeSchema, bytes: count }),
  completions: count,
  payloadErrors: count,
  simCycles: count,
  wallSeconds: z.number().nonnegative(),
  /** `cancel ID` stopped it: no read issued after the cancel, every one issued completed */
  cancelled: z.boolean().optional(),
})

/** A BFS kernel's done line: the graph it ran on instead of bytes and offset. */
export const GraphDoneLineSchema = z.object({
  event: z.literal('done'),
  id: count,
  pattern: z.enum(GRAPH_KERNELS),
  graph: z.string().min(1),
  vertices: count,
  edges: count,
  idBytes: z.union(GRAPH_ID_BYTES.map((b) => z.literal(b))),
  source: count,
  launches: count,
  mrd: z.object({ count, bySize: BySizeSchema, bytes: count }),
  completions: count,
  payloadErrors: count,
  simCycles: count,
  wallSeconds: z.number().nonnegative(),
  cancelled: z.boolean().optional(),
})

const ErrorLineSchema = z.object({
  event: z.literal('error'),
  message: z.string(),
  id: count.optional(),
  /** the stdin command refused (`cancel`, `inject`): no run in flight takes it for its own */
  command: z.string().optional(),
})

/** The serial-line faults of `inject KIND [COUNT [SEED]]` (firmware/hal/sim/uart_fault.h). */
export const LINE_FAULTS = ['garbage', 'truncate', 'crc', 'skip-seq'] as const
export type LineFault = (typeof LINE_FAULTS)[number]

/** `inject` armed a fault: it goes on the line between the firmware's next frames. */
export const InjectedLineSchema = z.object({
  event: z.literal('injected'),
  kind: z.enum(LINE_FAULTS),
  count: z.number().int().positive(),
  seed: count,
})

export type TwinReadyLine = z.infer<typeof ReadyLineSchema>
export type TwinTopology = z.infer<typeof TopologySchema>
export type TwinDone = z.infer<typeof DoneLineSchema>
export type TwinGraphDone = z.infer<typeof GraphDoneLineSchema>
export type TwinErrorLine = z.infer<typeof ErrorLineSchema>
export type TwinInjected = z.infer<typeof InjectedLineSchema>

export type TwinLine =
  | { kind: 'ready'; line: TwinReadyLine }
  | { kind: 'done'; line: TwinDone }
  | { kind: 'graph-done'; line: TwinGraphDone }
  | { kind: 'error'; line: TwinErrorLine }
  | { kind: 'injected'; line: TwinInjected }
  | { kind: 'blank' }
  | { kind: 'invalid'; text: string; reason: string }

const SCHEMAS = { ready: ReadyLineSchema, done: DoneLineSchema, error: ErrorLineSchema, injected: InjectedLineSchema } as const

/** Classify one stdout line of the twin. */
export const parseTwinLine = (raw: string): TwinLine => {
  const text = raw.trim()
  if (!text) return { kind: 'blank' }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { kind: 'invalid', text, reason: 'not JSON' }
  }
  const event = typeof value === 'object' && value !== null ? (value as { event?: unknown }).event : undefined
  if (event !== 'ready' && event !== 'done' && event !== 'error' && event !== 'injected')
    return { kind: 'invalid', text, reason: `unknown event ${JSON.stringify(event)}` }
  // a done line names a micro pattern or a graph kernel; the pattern says which schema applies
  const pattern = (value as { pattern?: unknown }).pattern
  if (event === 'done' && (GRAPH_KERNELS as readonly unknown[]).includes(pattern)) {
    const g = GraphDoneLineSchema.safeParse(value)
    if (g.success) return { kind: 'graph-done', line: g.data }
    const reason = g.error.issues.map((i) => `${i.path.join('.') || '(line)'}: ${i.message}`).join('; ')
    return { kind: 'invalid', text, reason: `malformed done line: ${reason}` }
  }
  const r = SCHEMAS[event].safeParse(value)
  if (!r.success) {
    const reason = r.error.issues.map((i) => `${i.path.join('.') || '(line)'}: ${i.message}`).join('; ')
    return { kind: 'invalid', text, reason: `malformed ${event} line: ${reason}` }
  }
  return { kind: event, line: r.data } as TwinLine
}
