/**
 * The recording format on disk (docs/contracts.md §5): a directory holding `manifest.json` and
 * append-only segments `segment-NNNNNN.jsonl`, one JSON record per line. The types are what
 * writers produce; the zod schemas are what readers check before they trust a line (their
 * output is typed as these types where it is used, so the two cannot drift apart).
 */
import { z } from 'zod'
import {
  COUNTERS,
  ELEMENT_BYTES,
  HISTOGRAM_KINDS,
  GRAPH_ID_BYTES,
  GRAPH_KERNELS,
  L1_LOADS,
  PATTERNS,
  type CounterKey,
  type HistogramKindKey,
  TAPS,
  type TapKey,
} from '../core/generated.js'
import type { PcieLinkInfo } from '../core/link.js'
import { layoutProblem, linearLayout, type HistogramLayout } from '../core/latency-histogram.js'
import {
  HISTOGRAM_REASONS,
  type IntervalBatch,
  type LatencyHistogram,
  type ProbeInfo,
  type Snapshot,
  type TapHistogram,
  type TapSnapshot,
} from '../core/probe.js'
import type { GpuCounterInterval } from '../core/wire.js'
import type { AnyWorkload } from '../core/workload.js'

export const RECORDING_FORMAT = 'pcie-scope-recording'
/** the same format under its earlier name: recordings written before the rename still open */
const RECORDING_FORMAT_EARLIER = 'pcie-scope-capture'
export const RECORDING_FORMAT_VERSION = 1
export const MANIFEST_FILE = 'manifest.json'

const SEGMENT_RE = /^segment-(\d{6})\.jsonl$/
/** Segment files sort by name in write order (six digits: a million segments of 4 MiB). */
export const segmentName = (n: number): string => `segment-${String(n).padStart(6, '0')}.jsonl`
/** The number of a segment file, or undefined for any other file. */
export const segmentNumber = (file: string): number | undefined => {
  const m = SEGMENT_RE.exec(file)
  return m ? Number(m[1]) : undefined
}

/** recording: a writer holds it (or died: readers then say interrupted); complete: closed cleanly. */
export type RecordingStatus = 'recording' | 'complete' | 'interrupted'

/** Who ran a workload: `capture` (the CLI command's one run), or the server's demo / manual runs. */
export type RunOrigin = 'capture' | 'demo' | 'manual'

/** The probe's TIMESTAMP (clock cycles) at both ends of a run. */
export interface ProbeWindow {
  from: number
  to: number
}

export interface RecordError {
  code: string
  message: string
}

/** Every record carries `at`: host wall-clock ms since the epoch when it was written. */
export interface SnapshotRecord {
  t: 'snapshot'
  at: number
  snapshot: Snapshot
}

/** One INTERVAL frame: the probe sampler's records as the firmware sent them. */
export interface IntervalRecordLine {
  t: 'interval'
  at: number
  batch: IntervalBatch
}

/** One HISTOGRAM frame: the probe's latency histogram, read with snapshot `histogram.snapshotIndex`. */
export interface HistogramRecordLine {
  t: 'histogram'
  at: number
  histogram: LatencyHistogram
}

/** One TAP_SNAPSHOT frame: a further tap's counters (the switch design's host side). */
export interface TapSnapshotRecord {
  t: 'tap-snapshot'
  at: number
  tapSnapshot: TapSnapshot
}

/** One TAP_HISTOGRAM frame: a further tap's latency histogram. */
export interface TapHistogramRecordLine {
  t: 'tap-histogram'
  at: number
  histogram: TapHistogram
}

export interface RunStartRecord {
  t: 'run-start'
  at: number
  id: number
  origin: RunOrigin
  workload: AnyWorkload
  /** the on-demand snapshot taken just before the workload (null when none was taken) */
  baseline: Snapshot | null
}

export interface RunRecord {
  t: 'run'
  at: number
  id: number
  origin: RunOrigin
  workload: AnyWorkload
  probeWindow: ProbeWindow | null
  /** set when the run failed; `result` is then null */
  error: RecordError | null
  /** what the producer reported: a RunResult (CLI) or a RunReport (server); opaque to the format */
  result: unknown
}

export interface DeviceRecord {
  t: 'device'
  at: number
  event: 'connect' | 'disconnect' | 'reconnect'
  /** INFO at connect and (the server's) reconnect, the probe that answers now; null on disconnect */
  info: ProbeInfo | null
  error: RecordError | null
}

/** A labelled moment: the server writes `start` (note: the period), `stop` and `clear`. */
export interface MarkRecord {
  t: 'mark'
  at: number
  label: string
  note: string | null
}

/**
 * Time the device was away: written when it is back (the server's twin restarted, a board
 * reconnected). No snapshot lies between `from` and `to`; rates must not span it.
 */
export interface GapRecord {
  t: 'gap'
  at: number
  /** host wall-clock ms when the device went away, and when it answered again */
  from: number
  to: number
  /** why it went away (the twin's exit or hang, in words) */
  reason: RecordError | null
}

/**
 * One frame of the UART link as the frame layer sees it, COBS removed (type u8 | seq u16 LE |
 * payload | CRC u16 LE): written only when a recording records the raw link (`capture --frames`).
 * Received frames that failed their CRC or have an unknown type are kept too.
 */
export interface FrameRecord {
  t: 'frame'
  at: number
  /** tx: host to device; rx: device to host */
  dir: 'tx' | 'rx'
  /** the frame bytes, base64 */
  data: string
}

/**
 * One interval of the GPU's own PCIe counters (docs/gpu-counters.md), sampled beside the probe by
 * `serve --gpu-counters`: the counters' sums and their derivations. Its times are the counter
 * source's clock (ns since its origin), not the probe's.
 */
export type GpuCountersRecord = { t: 'gpu-counters'; at: number; source: 'gpu-counters' } & GpuCounterInterval

/**
 * Every record, with the device's life it belongs to: `epoch` is 0 (and left out) until the
 * recording sees the device reconnect (a restarted twin, a board that reset), then 1, 2, …: a
 * restarted device counts its snapshot indexes and probe time from 0 again, so (epoch,
 * snapshot index) is what is unique and (epoch, probe time) what is ordered in one recording.
 */
export type AnyRecord = AnyRecordBody & { epoch?: number }

type AnyRecordBody =
  | SnapshotRecord
  | GpuCountersRecord
  | IntervalRecordLine
  | HistogramRecordLine
  | TapSnapshotRecord
  | TapHistogramRecordLine
  | RunStartRecord
  | RunRecord
  | DeviceRecord
  | MarkRecord
  | GapRecord
  | FrameRecord
export type RecordType = AnyRecord['t']
// a reader skips record types it does not know, so 'interval', 'histogram' and 'frame' (added in format 1) need
// no new version: older readers read such recordings, leaving those records out (so 'tap-snapshot'
// and 'tap-histogram', the switch design's host side, need none either, nor 'gpu-counters')
export const RECORD_TYPES: readonly RecordType[] = [
  'snapshot',
  'interval',
  'histogram',
  'tap-snapshot',
  'tap-histogram',
  'run-start',
  'run',
  'device',
  'mark',
  'gap',
  'frame',
  'gpu-counters',
]

/** What the writer has sealed: segments fsynced and closed, with their record count. */
export interface SealedProgress {
  segments: number
  records: number
  /** `at` of the last sealed record */
  lastAt: number | null
  /**
   * the sealed records by type (what a listing says a recording holds without reading it: no
   * pcapng without frames, no VCD without interval records); absent in recordings written before it
   */
  byType?: Partial<Record<RecordType, number>>
}

export interface RecordingManifest {
  format: typeof RECORDING_FORMAT
  formatVersion: typeof RECORDING_FORMAT_VERSION
  pcieScopeVersion: string
  name: string
  status: RecordingStatus
  /** why a recording ended early (a failed run), else null */
  note: string | null
  source: 'twin' | 'serial'
  /** PTY of the twin or the board's serial device */
  path: string
  /** the writing process: a recording still in status `recording` whose writer is gone reads as interrupted */
  writer: { host: string; pid: number }
  probe: ProbeInfo
  link: PcieLinkInfo | null
  /** distinct workloads run, in first-run order (at most MAX_MANIFEST_WORKLOADS) */
  workloads: AnyWorkload[]
  /** run-start records written */
  runs: number
  startedAt: string
  stoppedAt: string | null
  sealed: SealedProgress
}

export const MAX_MANIFEST_WORKLOADS = 32

// ---- reader-side checks -------------------------------------------------------------------

const count = z.number().nonnegative()
/**
 * Counters that register map 0.7 added: a recording made before it has none of them and reads
 * them as 0 (its probe had no such class or counter: its 256- and 512-B reads are in mrdOther).
 */
export const COUNTERS_SINCE_0_7: readonly string[] = ['mrd256', 'mrd512', 'cplCount', 'mwrCount', 'mwrBytes', 'poisoned']
const Counters = z.object(
  Object.fromEntries(COUNTERS.map((c) => [c.key, COUNTERS_SINCE_0_7.includes(c.key) ? count.default(0) : count])) as Record<
    CounterKey,
    typeof count
  >,
)

const SnapshotSchema = z.object({
  seq: count,
  index: count,
  onDemand: z.boolean(),
  enabled: z.boolean(),
  counters: Counters,
  firmware: z.object({ rxFrames: count, rxBadFrames: count, rxOverflows: count, unknownCommands: count, txDropped: count }),
  receivedAt: z.number(),
})

const LayoutSchema = z.object({ subBins: count, firstEdgeClocks: count, bins: count }).superRefine((l, ctx) => {
  const why = layoutProblem(l)
  if (why) ctx.addIssue({ code: 'custom', message: why })
})
// recordings made before the first-completion histogram hold the last-completion one only;
// those made before the log-spaced bins hold `binClocks` (equal bins) instead of `layout`
const histogramFields = {
  seq: count,
  reason: z.enum(HISTOGRAM_REASONS),
  kind: z.enum(HISTOGRAM_KINDS.map((k) => k.key) as [HistogramKindKey, ...HistogramKindKey[]]).default('last'),
  snapshotIndex: count,
  layout: LayoutSchema.optional(),
  binClocks: z.number().int().positive().optional(),
  bins: z.array(count).min(2),
  receivedAt: z.number(),
}
// the layout (a legacy one from binClocks), and as many bins as it has plus the overflow bin
const withLayout = <T extends { layout?: HistogramLayout | undefined; binClocks?: number | undefined; bins: number[] }>(
  h: T,
  ctx: z.RefinementCtx,
): Omit<T, 'layout' | 'binClocks'> & { layout: HistogramLayout } => {
  const { binClocks, layout: given, ...rest } = h
  const layout = given ?? (binClocks !== undefined ? linearLayout(binClocks, h.bins.length) : undefined)
  const why = layout === undefined ? 'has neither layout nor binClocks' : layoutProblem(layout)
  if (why || layout === undefined) ctx.addIssue({ code: 'custom', message: `histogram ${why}` })
  else if (h.bins.length !== layout.bins + 1)
    ctx.addIssue({ code: 'custom', message: `histogram of ${h.bins.length} bins for a layout of ${layout.bins} + 1` })
  return { ...rest, layout: layout ?? { subBins: 1, firstEdgeClocks: 1, bins: h.bins.length - 1 } }
}
const HistogramSchema = z.object(histogramFields).transform(withLayout)
const tapKey = z.enum(TAPS.map((t) => t.key) as [TapKey, ...TapKey[]])
const TapSnapshotSchema = z.object({ seq: count, tap: tapKey, snapshotIndex: count, counters: Counters, receivedAt: z.number() })
const TapHistogramSchema = z.object({ ...histogramFields, tap: tapKey }).transform(withLayout)
const IntervalBatchSchema = z.object({
  seq: count,
  firstIndex: count,
  dropped: count,
  overflow: count,
  records: z.array(
    z.object({
      ts: count,
      cycles: count,
      mrdCount: count,
      mrdBytes: count,
      cpldCount: count,
      cpldBytes: count,
      occSum: count,
      occPeak: count,
      latSum: count,
      latCount: count,
    }),
  ),
  receivedAt: z.number(),
})

const MicroWorkloadSchema = z.object({
  pattern: z.enum(PATTERNS),
  bytes: count,
  offset: count,
  /** absent in recordings made before lane widths and L1 use existed: the spec defaults */
  elementBytes: z.union(ELEMENT_BYTES.map((e) => z.literal(e))).optional(),
  l1: z.enum(L1_LOADS).optional(),
})
const GraphWorkloadSchema = z.object({
  pattern: z.enum(GRAPH_KERNELS),
  graph: z.string().min(1),
  idBytes: z.union(GRAPH_ID_BYTES.map((b) => z.literal(b))).optional(),
  sourceVertex: count.optional(),
  l1: z.enum(L1_LOADS).optional(),
})
const WorkloadSchema = z.union([MicroWorkloadSchema, GraphWorkloadSchema])
const ErrorSchema = z.object({ code: z.string(), message: z.string() })
const ProbeInfoSchema = z.object({
  protocolVersion: count,
  firmwareVersion: count,
  probeId: count,
  regVersion: count,
  clockHz: z.number().positive(),
  counterCount: count,
  streaming: z.boolean(),
  periodMs: count,
  barLatencyCycles: count,
})
const origin = z.enum(['capture', 'demo', 'manual'])

export const RecordSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('snapshot'), at: z.number(), epoch: count.optional(), snapshot: SnapshotSchema }),
  z.object({ t: z.literal('interval'), at: z.number(), epoch: count.optional(), batch: IntervalBatchSchema }),
  z.object({ t: z.literal('histogram'), at: z.number(), epoch: count.optional(), histogram: HistogramSchema }),
  z.object({ t: z.literal('tap-snapshot'), at: z.number(), epoch: count.optional(), tapSnapshot: TapSnapshotSchema }),
  z.object({ t: z.literal('tap-histogram'), at: z.number(), epoch: count.optional(), histogram: TapHistogramSchema }),
  z.object({
    t: z.literal('run-start'),
    at: z.number(),
    epoch: count.optional(),
    id: count,
    origin,
    workload: WorkloadSchema,
    baseline: SnapshotSchema.nullable(),
  }),
  z.object({
    t: z.literal('run'),
    at: z.number(),
    epoch: count.optional(),
    id: count,
    origin,
    workload: WorkloadSchema,
    probeWindow: z.object({ from: count, to: count }).nullable(),
    error: ErrorSchema.nullable(),
    result: z.unknown(),
  }),
  z.object({
    t: z.literal('device'),
    at: z.number(),
    epoch: count.optional(),
    event: z.enum(['connect', 'disconnect', 'reconnect']),
    info: ProbeInfoSchema.nullable(),
    error: ErrorSchema.nullable(),
  }),
  z.object({ t: z.literal('mark'), at: z.number(), label: z.string(), note: z.string().nullable() }),
  z.object({ t: z.literal('gap'), at: z.number(), from: z.number(), to: z.number(), reason: ErrorSchema.nullable() }),
  z.object({ t: z.literal('frame'), at: z.number(), dir: z.enum(['tx', 'rx']), data: z.base64() }),
  z.object({
    t: z.literal('gpu-counters'),
    at: z.number(),
    source: z.literal('gpu-counters'),
    counterSource: z.enum(['pm-sampling', 'nvml']),
    device: count,
    startNs: z.number(),
    endNs: z.number(),
    samples: count,
    lost: count,
    readBytes: count,
    writeBytes: count,
    readGBps: count,
    writeGBps: count,
    requests: count,
    requestsPerSecond: count,
    payloadGBps: count,
    meanRequestBytes: count.nullable(),
    inFlight: count,
  }),
])

export const ManifestSchema = z.object({
  format: z.enum([RECORDING_FORMAT, RECORDING_FORMAT_EARLIER]).transform((): typeof RECORDING_FORMAT => RECORDING_FORMAT),
  formatVersion: z.literal(RECORDING_FORMAT_VERSION),
  pcieScopeVersion: z.string(),
  name: z.string(),
  status: z.enum(['recording', 'complete', 'interrupted']),
  note: z.string().nullable(),
  source: z.enum(['twin', 'serial']),
  path: z.string(),
  writer: z.object({ host: z.string(), pid: z.number().int().positive() }),
  probe: ProbeInfoSchema,
  link: z.object({ name: z.string(), tlpBytesPerSecond: z.number().nullable() }).nullable(),
  workloads: z.array(WorkloadSchema),
  runs: count,
  startedAt: z.string(),
  stoppedAt: z.string().nullable(),
  sealed: z.object({
    segments: count,
    records: count,
    lastAt: z.number().nullable(),
    byType: z.partialRecord(z.enum(RECORD_TYPES as [RecordType, ...RecordType[]]), count).optional(),
  }),
})
