/**
 * The spec as one validated, derived model: spec/registers.json, spec/protocol.json and
 * spec/workloads.json are read, checked (unique names and ids, aligned offsets, bits inside the
 * width, defaults inside limits) and expanded (size-class counters, payload layouts). Every
 * emitter works from this model only, so no language sees a fact the others do not.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export type Access = 'ro' | 'rw' | 'wo'
export type ScalarType = 'u8' | 'u16' | 'u32' | 'u64'
export interface Field {
  name: string
  bit: number
  doc?: string
}
export interface Register {
  name: string
  offset: string
  access: Access
  doc: string
  reset?: number
  /** the values the register's field holds, [min, max] (the host checks what it writes against it) */
  range?: [number, number]
  fields?: Field[]
}
/** Which RTL block owns a counter: probe_counters (default) or probe_tracker's statistics. */
export type CounterSource = 'probe' | 'tracker'
export interface CounterEntry {
  name?: string
  key?: string
  doc: string
  expand?: 'sizeClasses'
  source?: CounterSource
  /** the name of the count whose zero leaves this value undefined (a minimum held at all ones) */
  noValueWhenZero?: string
}
export interface RegisterSpec {
  block: string
  version: { major: number; minor: number }
  addressWidth: number
  dataWidth: number
  idMagic: string
  registers: Register[]
  sizeClasses: { exact: number[]; other: { name: string; key: string; label: string } }
  /**
   * the tracker's latency histograms: per kind `bins` log-spaced bins (`subBinsPerOctave` to an
   * octave from `firstEdgeClocks`, linear below it) plus an overflow bin, 64-bit shadows from the kind's `base`
   */
  latencyHistogram: { subBinsPerOctave: number; firstEdgeClocks: number; bins: number; kinds: HistogramKind[] }
  /** the trace unit: its TRC_* registers in [base, base + bytes), `banks` records stored per clock, the ring at least `minDepth` records */
  trace: { base: string; bytes: number; banks: number; minDepth: number }
  counters: { base: string; width: number; list: CounterEntry[] }
  /** probe taps: tap i's copy of the whole map at i * stride (its index in `list` is its id) */
  taps: { stride: string; list: TapEntry[] }
}
/** One probe tap of a design; its index in `taps.list` is its id (TAP_INFO, the TAP_* frames). */
export interface TapEntry {
  name: string
  key: string
  doc: string
}
/** One latency histogram of the tracker; its index in `kinds` is its id on the wire. */
export interface HistogramKind {
  name: string
  key: string
  base: string
  /** the counter its bins add up to */
  countCounter: string
  doc: string
}
/**
 * Payload item types: a scalar, every counter (u64 each), every latency-histogram bin (u64 each)
 * or every firmware link statistic (`linkStats`: one u32 field each, named after it).
 */
export type ItemType = ScalarType | 'counters' | 'histogram' | 'linkStats'
export interface Item {
  name: string
  type: ItemType
  doc?: string
  min?: number
  max?: number
  default?: number
}
export interface Command {
  name: string
  id: number
  doc: string
  args: Item[]
  reply: Item[]
}
export type PayloadName = 'COMMAND' | 'RESPONSE' | 'SNAPSHOT' | 'INTERVAL' | 'HISTOGRAM' | 'TAP_SNAPSHOT' | 'TAP_HISTOGRAM' | 'TRACE'
export interface ProtocolSpec {
  version: number
  framing: {
    doc: string
    delimiter: number
    maxPayloadBytes: number
    headerBytes: number
    crc: { name: string; poly: string; init: string; xorout: string; reflected: boolean; check: string; covers: string }
  }
  frameTypes: { name: string; id: string; direction: string; doc: string }[]
  status: { name: string; id: number; doc: string }[]
  commands: Command[]
  payloads: Record<PayloadName, Item[]>
  snapshotFlags: { name: string; bit: number }[]
  linkStats: { doc: string; list: LinkStat[] }
}
/** One of the firmware's link statistics: a u32 it counts on its UART and sends in every SNAPSHOT. */
export interface LinkStat {
  /** camelCase: the SNAPSHOT field, the host's key (the firmware's struct member is its snake_case) */
  name: string
  /** the page's words for it */
  label: string
  /** a value above 0 means something went wrong */
  error: boolean
  doc: string
}
export interface Limit {
  min: number
  max: number
  multipleOf: number
  doc: string
}
export interface PatternEntry {
  name: string
  id: number
  enum: string
  defaultOffset: number
  doc: string
}
export interface L1Entry {
  name: string
  id: number
  enum: string
  doc: string
}
/** spec/workloads.json `graphs.kernels`: one EMOGI-style traversal kernel (graph_kernels.h). */
export interface GraphKernelEntry {
  name: string
  id: number
  enum: string
  /** threads that share one vertex's neighbour list: 1 (thread per vertex) or 32 (warp per vertex) */
  lanesPerVertex: number
  doc: string
}
export interface WorkloadSpec {
  lineBytes: number
  /** chunkBytes: the chunk each warp of merged-chunked walks, with its default */
  limits: { bytes: Limit; offset: Limit; chunkBytes: Limit & { default: number } }
  /** lane load widths (bytes) every runner accepts; bytes and offset must be multiples of the one used */
  elementBytes: { values: number[]; default: number; doc: string }
  /** how the loads use L1: ideal (default loads) or bypass (ld.global.cg) */
  l1: { values: L1Entry[]; default: string; doc: string }
  patterns: PatternEntry[]
  /** graph traversal kernels and the vertex id widths of their edge lists */
  graphs: {
    idBytes: { values: number[]; default: number; doc: string }
    /** graph generators by name (the `NAME:S[:SEED]` specs; `file:PATH` is the loader's) */
    generators: { name: string; doc: string }[]
    /** edge tuples per vertex a generator draws (Graph500: 16) */
    edgeFactor: number
    /** S of a generated graph; serverMax: the largest the server accepts */
    scale: { min: number; max: number; serverMax: number; doc: string }
    kernels: GraphKernelEntry[]
    /** PageRank's fixed iteration count, damping factor and the GPU check's relative tolerance */
    pagerank: { iterations: number; damping: number; tolerance: number; doc: string }
    doc: string
  }
  /** the GPUs the scheduled model describes, and the CUDA kernels' launch shape */
  gpus: { doc: string; blockThreads: number; minBlocksPerSm: number; default: string; values: GpuEntry[] }
}
/** spec/workloads.json `gpus.values`: one GPU's scheduling and L1 parameters (native/model/sm_schedule.h). */
export interface GpuEntry {
  name: string
  doc: string
  smCount: number
  /** L1 bytes per SM beside the kernels' shared-memory carveout */
  l1Bytes: number
  maxBlocksPerSm: number
  maxWarpsPerSm: number
  /** L1 replacement of the scheduled model */
  l1Policy: 'lru' | 'random'
  /** a cached read merges into the same warp's read of the same line this many load instructions before (0: never) */
  mergeWindow: number
  /** the host the bandwidth model and the twin's GPU preset put the GPU behind */
  host: GpuHost
}
/** spec/workloads.json `gpus.values[].host`: link, tags, round trip and the bandwidth model's fitted constants. */
export interface GpuHost {
  link: string
  tags: number
  idleRoundTripNs: number
  roundTripSpreadNs: number
  readsPerUs: number
  wireEfficiency: number
  combineExponent: number
  stepNs: number
  threadStepNs: number
  launchUs: number
  doc: string
}
/** spec/switch.json: the switch ports' identity and the switch's counters (per direction). */
export interface SwitchSpec {
  vendorId: string
  upstreamDeviceId: string
  downstreamDeviceId: string
  revisionId: string
  classCode: string
  counters: { name: string; doc: string }[]
}
export interface RawSpec {
  switch: SwitchSpec
  registers: RegisterSpec
  protocol: ProtocolSpec
  workloads: WorkloadSpec
}

export interface Counter {
  name: string
  key: string
  doc: string
  source: CounterSource
  /** the key of the count whose zero leaves this value undefined (exports write no value then) */
  noValueWhenZero?: string
  index: number
  offset: number
}
/** A request-size class: `bytes` null for the catch-all class. */
export interface SizeClass {
  key: string
  bytes: number | null
  label: string
  counter: Counter
}
export interface Placed {
  name: string
  type: ItemType
  offset: number
  bytes: number
  doc?: string
  min?: number
  max?: number
  default?: number
}
export interface Layout {
  fields: Placed[]
  bytes: number
}
export interface PlacedCommand extends Command {
  argsLayout: Layout
  replyLayout: Layout
}

export interface SpecModel {
  raw: RawSpec
  counters: Counter[]
  sizeClasses: SizeClass[]
  /** index of the first size-class counter; the classes' counters are contiguous from there */
  sizeCounterFirst: number
  layouts: Record<PayloadName, Layout>
  commands: PlacedCommand[]
  versionValue: number
  /** interval-record words: the SMP_* registers in offset order, word i at PS_REG_SMP_TS_LO + 4*i */
  sampleWords: string[]
  /** trace-record words: the TRC_REC_* registers in offset order, word i at PS_REG_TRC_REC_DW0 + 4*i */
  traceWords: string[]
  /** an INTERVAL frame: bytes per record (the SMP_* words) and the most records one frame carries */
  intervalRecordBytes: number
  intervalMaxRecords: number
  /** a TRACE frame: bytes per record (the TRC_REC_* words) and the most records one frame carries */
  traceRecordBytes: number
  traceMaxRecords: number
  /** latency-histogram words on the CSR and in a HISTOGRAM frame: the bins, then the overflow bin */
  histogramWords: number
  /** HIST_LAYOUT's value: log2 sub-bins per octave | log2 first edge << 8 | bins << 16 */
  histogramLayoutValue: number
  /** the firmware's link statistics, in SNAPSHOT order */
  linkStats: LinkStat[]
  maxRaw: number
  maxEncoded: number
}

const SCALAR_BYTES: Record<ScalarType, number> = { u8: 1, u16: 2, u32: 4, u64: 8 }
export const num = (s: string | number): number => (typeof s === 'number' ? s : Number.parseInt(s, 16))

/** Thrown with every problem found, one per line. */
export class SpecError extends Error {
  constructor(readonly problems: string[]) {
    super(`spec is invalid:\n  ${problems.join('\n  ')}`)
    this.name = 'SpecError'
  }
}

export const readRawSpec = (root: string): RawSpec => {
  const load = <T>(f: string): T => JSON.parse(readFileSync(join(root, 'spec', f), 'utf8')) as T
  return {
    registers: load('registers.json'),
    protocol: load('protocol.json'),
    workloads: load('workloads.json'),
    switch: load('switch.json'),
  }
}

const duplicates = <T>(items: T[]): T[] => items.filter((v, i) => items.indexOf(v) !== i)
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v)

/** Expand the counter list: the `sizeClasses` entry becomes one counter per class. */
const expandCounters = (
  regs: RegisterSpec,
  base: number,
  bytesEach: number,
): { counters: Counter[]; sizeClasses: SizeClass[]; first: number } => {
  const out: Omit<Counter, 'index' | 'offset'>[] = []
  let first = -1
  let classes: Omit<SizeClass, 'counter'>[] = []
  for (const e of regs.counters.list) {
    if (e.expand === 'sizeClasses') {
      first = out.length
      classes = [
        ...regs.sizeClasses.exact.map((b) => ({ key: String(b), bytes: b, label: `${b} B` })),
        { key: 'other', bytes: null, label: regs.sizeClasses.other.label },
      ]
      for (const b of regs.sizeClasses.exact)
        out.push({ name: `MRD_${b}`, key: `mrd${b}`, doc: `memory-read requests of exactly ${b} requested bytes`, source: 'probe' })
      out.push({
        name: regs.sizeClasses.other.name,
        key: regs.sizeClasses.other.key,
        doc: 'memory-read requests of any other size',
        source: 'probe',
      })
    } else {
      const keyOf = (name: string): string => regs.counters.list.find((c) => c.name === name)?.key ?? name
      out.push({
        name: e.name ?? '',
        key: e.key ?? '',
        doc: e.doc,
        source: e.source ?? 'probe',
        ...(e.noValueWhenZero !== undefined ? { noValueWhenZero: keyOf(e.noValueWhenZero) } : {}),
      })
    }
  }
  const counters = out.map((c, index) => ({ ...c, index, offset: base + index * bytesEach }))
  const sizeClasses = classes.map((c, i) => ({ ...c, counter: counters[first + i]! }))
  return { counters, sizeClasses, first }
}

/** The `linkStats` item becomes one u32 field per statistic, named after it. */
const expandLinkStats = (items: Item[], stats: readonly LinkStat[]): Item[] =>
  items.flatMap((it) => (it.type === 'linkStats' ? stats.map((s) => ({ name: s.name, type: 'u32' as const, doc: s.doc })) : [it]))

const place = (items: Item[], counterCount: number, histogramWords = 0): Layout => {
  let offset = 0
  const fields = items.map((it) => {
    const bytes =
      it.type === 'counters' ? counterCount * 8 : it.type === 'histogram' ? histogramWords * 8 : (SCALAR_BYTES[it.type as ScalarType] ?? 0)
    const p: Placed = { name: it.name, type: it.type, offset, bytes, doc: it.doc }
    // value range of an argument: 0 selects `default`, anything else outside min..max is refused
    if (it.min !== undefined) p.min = it.min
    if (it.max !== undefined) p.max = it.max
    if (it.default !== undefined) p.default = it.default
    offset += bytes
    return p
  })
  return { fields, bytes: offset }
}

function checkRegisters(regs: RegisterSpec, counters: Counter[], P: string[]): void {
  const dataBytes = regs.dataWidth / 8
  const space = 2 ** regs.addressWidth
  const names = regs.registers.map((r) => r.name)
  for (const d of duplicates(names)) P.push(`registers: name ${d} is used twice`)
  for (const d of duplicates(regs.registers.map((r) => num(r.offset)))) P.push(`registers: offset 0x${d.toString(16)} is used twice`)
  for (const r of regs.registers) {
    const off = num(r.offset)
    if (!isInt(off) || off % dataBytes !== 0) P.push(`registers: ${r.name} offset ${r.offset} is not ${dataBytes}-byte aligned`)
    if (off + dataBytes > space) P.push(`registers: ${r.name} offset ${r.offset} is outside the ${regs.addressWidth}-bit address space`)
    if (!['ro', 'rw', 'wo'].includes(r.access)) P.push(`registers: ${r.name} access ${r.access} is not ro, rw or wo`)
    if (r.reset !== undefined && (!isInt(r.reset) || r.reset < 0 || r.reset >= 2 ** regs.dataWidth))
      P.push(`registers: ${r.name} reset ${r.reset} does not fit ${regs.dataWidth} bits`)
    if (r.range !== undefined) {
      const [lo, hi] = Array.isArray(r.range) ? r.range : []
      if (r.range.length !== 2 || !isInt(lo) || !isInt(hi) || lo < 0 || lo > hi || hi >= 2 ** regs.dataWidth)
        P.push(`registers: ${r.name} range ${JSON.stringify(r.range)} is not [min, max] within ${regs.dataWidth} bits`)
    }
    const fields = r.fields ?? []
    for (const d of duplicates(fields.map((f) => f.name))) P.push(`registers: ${r.name} field ${d} is used twice`)
    for (const d of duplicates(fields.map((f) => f.bit))) P.push(`registers: ${r.name} bit ${d} is used twice`)
    for (const f of fields)
      if (!isInt(f.bit) || f.bit < 0 || f.bit >= regs.dataWidth)
        P.push(`registers: ${r.name}.${f.name} bit ${f.bit} is outside 0..${regs.dataWidth - 1}`)
  }
  const base = num(regs.counters.base)
  const bytesEach = regs.counters.width / 8
  if (regs.counters.width !== 64) P.push(`counters: width ${regs.counters.width} is not 64 (the snapshot frame carries u64 counters)`)
  if (base % bytesEach !== 0) P.push(`counters: base ${regs.counters.base} is not ${bytesEach}-byte aligned`)
  if (base + counters.length * bytesEach > space)
    P.push(`counters: ${counters.length} counters from ${regs.counters.base} overflow the ${regs.addressWidth}-bit address space`)
  for (const r of regs.registers) {
    const off = num(r.offset)
    if (off >= base && off < base + counters.length * bytesEach) P.push(`registers: ${r.name} at ${r.offset} overlaps the counter block`)
  }
  for (const d of duplicates(counters.map((c) => c.name))) P.push(`counters: name ${d} is used twice`)
  for (const d of duplicates(counters.map((c) => c.key))) P.push(`counters: key ${d} is used twice`)
  for (const c of counters) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(c.name)) P.push(`counters: name '${c.name}' is not UPPER_SNAKE`)
    if (!/^[a-z][A-Za-z0-9]*$/.test(c.key)) P.push(`counters: key '${c.key}' of ${c.name} is not camelCase`)
  }
  for (const e of regs.counters.list) {
    if (e.source !== undefined && e.source !== 'probe' && e.source !== 'tracker')
      P.push(`counters: ${e.name}: source '${String(e.source)}' is not probe or tracker`)
    if (e.noValueWhenZero !== undefined && !regs.counters.list.some((c) => c.name === e.noValueWhenZero))
      P.push(`counters: ${e.name}: noValueWhenZero names no counter '${e.noValueWhenZero}'`)
  }
  // the RTL concatenates probe_counters' shadows and then the tracker's: the order must match
  const firstTracker = counters.findIndex((c) => c.source === 'tracker')
  if (firstTracker >= 0 && counters.slice(firstTracker).some((c) => c.source !== 'tracker'))
    P.push('counters: every source "tracker" counter must come after all probe counters')
  if (regs.counters.list.filter((e) => e.expand === 'sizeClasses').length !== 1)
    P.push('counters: the list must hold exactly one {"expand": "sizeClasses"} entry')
  const exact = regs.sizeClasses.exact
  if (exact.length === 0) P.push('sizeClasses: at least one exact size is needed')
  exact.forEach((b, i) => {
    if (!isInt(b) || b < 4 || b > 4096 || b % 4 !== 0) P.push(`sizeClasses: ${b} is not a multiple of 4 in 4..4096`)
    if (i > 0 && b <= exact[i - 1]!) P.push(`sizeClasses: sizes must ascend (${exact[i - 1]} then ${b})`)
  })
}

/** The histogram windows: inside the address space, clear of every register, of the counters and of each other. */
function checkHistogram(regs: RegisterSpec, counters: Counter[], P: string[]): void {
  const h = regs.latencyHistogram
  if (!isInt(h.bins) || h.bins < 1 || h.bins > 255) P.push(`latencyHistogram: bins ${h.bins} is not 1..255`)
  const pow2 = (x: number) => isInt(x) && x >= 1 && (x & (x - 1)) === 0
  if (!pow2(h.subBinsPerOctave) || h.subBinsPerOctave < 2 || h.subBinsPerOctave > 128)
    P.push(`latencyHistogram: subBinsPerOctave ${h.subBinsPerOctave} is not a power of two from 2 up to 128`)
  else if (isInt(h.bins) && h.bins < 2 * h.subBinsPerOctave)
    P.push(
      `latencyHistogram: bins ${h.bins} is fewer than two octaves of sub-bins (${2 * h.subBinsPerOctave}): the probe's bin index needs them`,
    )
  if (!pow2(h.firstEdgeClocks) || h.firstEdgeClocks < h.subBinsPerOctave || h.firstEdgeClocks > 2 ** 16)
    P.push(`latencyHistogram: firstEdgeClocks ${h.firstEdgeClocks} is not a power of two from subBinsPerOctave up to 65536`)
  if (!Array.isArray(h.kinds) || h.kinds.length === 0) {
    P.push('latencyHistogram: kinds must list at least one histogram')
    return
  }
  for (const d of duplicates(h.kinds.map((k) => k.name))) P.push(`latencyHistogram: kind ${d} is used twice`)
  for (const d of duplicates(h.kinds.map((k) => k.key))) P.push(`latencyHistogram: key ${d} is used twice`)
  const cntBase = num(regs.counters.base)
  const windows = h.kinds.map((k) => ({ k, base: num(k.base), end: num(k.base) + (h.bins + 1) * 8 }))
  for (const { k, base, end } of windows) {
    const what = `latencyHistogram ${k.name}`
    if (!/^[A-Z][A-Z0-9_]*$/.test(k.name)) P.push(`${what}: name is not UPPER_SNAKE`)
    if (!/^[a-z][a-zA-Z0-9]*$/.test(k.key)) P.push(`${what}: key ${k.key} is not lowerCamel`)
    if (!counters.some((c) => c.name === k.countCounter)) P.push(`${what}: countCounter ${k.countCounter} is not a counter`)
    if (!isInt(base) || base % 8 !== 0) P.push(`${what}: base ${k.base} is not 8-byte aligned`)
    if (end > 2 ** regs.addressWidth) P.push(`${what}: ${h.bins + 1} bins from ${k.base} overflow the address space`)
    if (base < cntBase + counters.length * 8 && cntBase < end) P.push(`${what}: the bins overlap the counter block`)
    for (const r of regs.registers)
      if (num(r.offset) >= base && num(r.offset) < end) P.push(`registers: ${r.name} at ${r.offset} overlaps latency histogram ${k.name}`)
    for (const o of windows)
      if (o.k !== k && o.base <= base && base < o.end) P.push(`${what}: its window overlaps latency histogram ${o.k.name}`)
  }
}

/** The trace window: every TRC_* register inside it, nothing else; the TRC_REC_* record words contiguous and read-only. */
function checkTrace(regs: RegisterSpec, P: string[]): string[] {
  const t = regs.trace
  const base = num(t.base)
  const end = base + t.bytes
  if (!isInt(base) || base % 4 !== 0 || !isInt(t.bytes) || t.bytes <= 0 || end > 2 ** regs.addressWidth)
    P.push(`trace: window ${t.base} + ${t.bytes} is not a word-aligned window of the address space`)
  if (!isInt(t.banks) || t.banks < 1 || (t.banks & (t.banks - 1)) !== 0) P.push(`trace: banks ${t.banks} is not a power of two`)
  if (!isInt(t.minDepth) || t.minDepth < t.banks || (t.minDepth & (t.minDepth - 1)) !== 0)
    P.push(`trace: minDepth ${t.minDepth} is not a power of two of at least banks`)
  for (const r of regs.registers) {
    const inside = num(r.offset) >= base && num(r.offset) < end
    if (r.name.startsWith('TRC_') && !inside) P.push(`registers: ${r.name} at ${r.offset} lies outside the trace window`)
    if (!r.name.startsWith('TRC_') && inside) P.push(`registers: ${r.name} at ${r.offset} lies inside the trace window`)
  }
  for (const k of regs.latencyHistogram.kinds) {
    const hb = num(k.base)
    if (hb < end && base < hb + (regs.latencyHistogram.bins + 1) * 8) P.push(`trace: the window overlaps latency histogram ${k.name}`)
  }
  const rec = regs.registers.filter((r) => r.name.startsWith('TRC_REC_')).sort((a, b) => num(a.offset) - num(b.offset))
  if (rec[0]?.name !== 'TRC_REC_DW0') P.push('registers: the TRC_REC_* record window must start with TRC_REC_DW0')
  rec.forEach((r, i) => {
    if (num(r.offset) !== num(rec[0]!.offset) + 4 * i) P.push(`registers: ${r.name} leaves a gap in the TRC_REC_* record window`)
    if (r.access !== 'ro') P.push(`registers: ${r.name} must be ro (a trace record word)`)
  })
  return rec.map((r) => r.name.slice('TRC_REC_'.length))
}

function checkProtocol(proto: ProtocolSpec, P: string[]): void {
  for (const d of duplicates(proto.frameTypes.map((t) => t.name))) P.push(`frameTypes: name ${d} is used twice`)
  for (const d of duplicates(proto.frameTypes.map((t) => num(t.id)))) P.push(`frameTypes: id ${d} is used twice`)
  for (const t of proto.frameTypes) if (!(num(t.id) >= 0 && num(t.id) <= 255)) P.push(`frameTypes: ${t.name} id ${t.id} is not a byte`)
  for (const d of duplicates(proto.status.map((s) => s.name))) P.push(`status: name ${d} is used twice`)
  for (const d of duplicates(proto.status.map((s) => s.id))) P.push(`status: id ${d} is used twice`)
  for (const d of duplicates(proto.commands.map((c) => c.name))) P.push(`commands: name ${d} is used twice`)
  for (const d of duplicates(proto.commands.map((c) => c.id))) P.push(`commands: id ${d} is used twice`)
  for (const d of duplicates(proto.snapshotFlags.map((f) => f.bit))) P.push(`snapshotFlags: bit ${d} is used twice`)
  for (const f of proto.snapshotFlags)
    if (!(f.bit >= 0 && f.bit < 8)) P.push(`snapshotFlags: ${f.name} bit ${f.bit} is outside the u8 flags`)
  const items = [
    ...Object.entries(proto.payloads).flatMap(([n, l]) => l.map((i) => [n, i] as const)),
    ...proto.commands.flatMap((c) => [...c.args, ...c.reply].map((i) => [c.name, i] as const)),
  ]
  for (const [owner, it] of items) {
    if (it.type === 'counters' || it.type === 'histogram') continue
    if (it.type === 'linkStats') {
      if (owner !== 'SNAPSHOT') P.push(`${owner}.${it.name}: linkStats belong in SNAPSHOT only`)
      continue
    }
    if (SCALAR_BYTES[it.type] === undefined) {
      P.push(`${owner}.${it.name}: unknown type ${String(it.type)}`)
      continue
    }
    const max = 2 ** (8 * SCALAR_BYTES[it.type]) - 1
    for (const k of ['min', 'max', 'default'] as const) {
      const v = it[k]
      if (v !== undefined && (!isInt(v) || v < 0 || v > max)) P.push(`${owner}.${it.name}: ${k} ${v} does not fit ${it.type}`)
    }
    if (it.min !== undefined && it.max !== undefined && it.min > it.max) P.push(`${owner}.${it.name}: min ${it.min} > max ${it.max}`)
    if (it.default !== undefined && ((it.min !== undefined && it.default < it.min) || (it.max !== undefined && it.default > it.max)))
      P.push(`${owner}.${it.name}: default ${it.default} is outside min..max`)
  }
  for (const c of proto.commands) {
    for (const d of duplicates([...c.args.map((a) => a.name)])) P.push(`commands: ${c.name} argument ${d} is used twice`)
  }
  const stats = proto.linkStats.list
  if (proto.payloads.SNAPSHOT.filter((i) => i.type === 'linkStats').length !== 1) P.push('SNAPSHOT: needs exactly one linkStats item')
  for (const d of duplicates(stats.map((s) => s.name))) P.push(`linkStats: ${d} is used twice`)
  const snapshotNames = proto.payloads.SNAPSHOT.filter((i) => i.type !== 'linkStats').map((i) => i.name)
  for (const s of stats) {
    if (!/^[a-z][a-zA-Z0-9]*$/.test(s.name)) P.push(`linkStats: ${s.name} is not camelCase`)
    if (snapshotNames.includes(s.name)) P.push(`linkStats: ${s.name} is also a SNAPSHOT field`)
    if (typeof s.error !== 'boolean' || !s.label) P.push(`linkStats: ${s.name} needs a label and error: true or false`)
  }
}

function checkWorkloads(w: WorkloadSpec, P: string[]): void {
  for (const [name, l] of Object.entries(w.limits)) {
    if (![l.min, l.max, l.multipleOf].every(isInt) || l.min < 0 || l.min > l.max || l.multipleOf < 1)
      P.push(`limits.${name}: needs integers 0 <= min <= max and multipleOf >= 1`)
    else if (l.min % l.multipleOf !== 0 || l.max % l.multipleOf !== 0)
      P.push(`limits.${name}: min and max must be multiples of ${l.multipleOf}`)
  }
  if (w.limits.bytes.max > Number.MAX_SAFE_INTEGER) P.push('limits.bytes: max must be exact as a JS number')
  const c = w.limits.chunkBytes
  if (!isInt(c.default) || c.default < c.min || c.default > c.max || c.default % c.multipleOf !== 0)
    P.push('limits.chunkBytes: default breaks its own limits')
  const e = w.elementBytes
  if (!e.values.length || !e.values.every((v) => isInt(v) && v > 0 && (v & (v - 1)) === 0 && v <= w.lineBytes))
    P.push('elementBytes: values must be powers of two up to lineBytes')
  else if (e.values.some((v) => w.limits.bytes.multipleOf % v !== 0 && v % w.limits.bytes.multipleOf !== 0))
    P.push('elementBytes: every value must divide or be a multiple of limits.bytes.multipleOf')
  if (!e.values.includes(e.default)) P.push(`elementBytes: default ${e.default} is not one of the values`)
  for (const d of duplicates(e.values)) P.push(`elementBytes: ${d} is listed twice`)
  for (const d of duplicates(w.l1.values.map((v) => v.name))) P.push(`l1: name ${d} is used twice`)
  w.l1.values.forEach((v, i) => {
    if (v.id !== i) P.push(`l1: ${v.name} has id ${v.id}; ids are the table order 0..${w.l1.values.length - 1}`)
    if (!/^[A-Z][A-Za-z0-9]*$/.test(v.enum)) P.push(`l1: enum '${v.enum}' of ${v.name} is not PascalCase`)
  })
  if (!w.l1.values.some((v) => v.name === w.l1.default)) P.push(`l1: default ${w.l1.default} is not one of the values`)
  if (w.patterns.length === 0) P.push('patterns: at least one pattern is needed')
  for (const d of duplicates(w.patterns.map((p) => p.name))) P.push(`patterns: name ${d} is used twice`)
  for (const d of duplicates(w.patterns.map((p) => p.id))) P.push(`patterns: id ${d} is used twice`)
  for (const d of duplicates(w.patterns.map((p) => p.enum))) P.push(`patterns: enum ${d} is used twice`)
  w.patterns.forEach((p, i) => {
    if (p.id !== i) P.push(`patterns: ${p.name} has id ${p.id}; ids are the table order 0..${w.patterns.length - 1}`)
    if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(p.name)) P.push(`patterns: name '${p.name}' is not kebab-case`)
    if (!/^[A-Z][A-Za-z0-9]*$/.test(p.enum)) P.push(`patterns: enum '${p.enum}' of ${p.name} is not PascalCase`)
    const o = w.limits.offset
    if (!isInt(p.defaultOffset) || p.defaultOffset < o.min || p.defaultOffset > o.max || p.defaultOffset % o.multipleOf !== 0)
      P.push(`patterns: ${p.name} defaultOffset ${p.defaultOffset} breaks the offset limits`)
  })
  checkGraphs(w, P)
  checkGpus(w, P)
}

function checkGpus(w: WorkloadSpec, P: string[]): void {
  const g = w.gpus
  const pos = (v: number) => isInt(v) && v > 0
  if (!pos(g.blockThreads) || g.blockThreads % 32 !== 0) P.push('gpus.blockThreads must be a positive multiple of 32 (whole warps)')
  if (!pos(g.minBlocksPerSm)) P.push('gpus.minBlocksPerSm must be a positive integer')
  if (g.values.length === 0) P.push('gpus.values: at least one GPU is needed')
  for (const d of duplicates(g.values.map((v) => v.name))) P.push(`gpus.values: name ${d} is used twice`)
  if (!g.values.some((v) => v.name === g.default)) P.push(`gpus: default ${g.default} is not one of the values`)
  for (const v of g.values) {
    if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(v.name)) P.push(`gpus.values: name '${v.name}' is not kebab-case`)
    for (const k of ['smCount', 'maxBlocksPerSm', 'maxWarpsPerSm'] as const)
      if (!pos(v[k])) P.push(`gpus.values: ${v.name} ${k} must be a positive integer`)
    if (!isInt(v.l1Bytes) || v.l1Bytes < 0 || v.l1Bytes % w.lineBytes !== 0)
      P.push(`gpus.values: ${v.name} l1Bytes must be a non-negative multiple of the ${w.lineBytes}-B line`)
    if (pos(v.maxWarpsPerSm) && v.maxWarpsPerSm * 32 < g.blockThreads)
      P.push(`gpus.values: ${v.name} cannot hold one block of ${g.blockThreads} threads`)
    if (v.l1Policy !== 'lru' && v.l1Policy !== 'random') P.push(`gpus.values: ${v.name} l1Policy must be lru or random`)
    if (!isInt(v.mergeWindow) || v.mergeWindow < 0 || v.mergeWindow > 8)
      P.push(`gpus.values: ${v.name} mergeWindow must be an integer 0..8`)
    const h = v.host
    if (!/^gen[1-6]x(1|2|4|8|16)$/.test(h.link)) P.push(`gpus.values: ${v.name} host.link must be genGxL`)
    if (!pos(h.tags)) P.push(`gpus.values: ${v.name} host.tags must be a positive integer`)
    for (const k of ['idleRoundTripNs', 'readsPerUs', 'wireEfficiency', 'combineExponent', 'stepNs', 'threadStepNs'] as const)
      if (!(typeof h[k] === 'number' && h[k] > 0)) P.push(`gpus.values: ${v.name} host.${k} must be positive`)
    for (const k of ['roundTripSpreadNs', 'launchUs'] as const)
      if (!(typeof h[k] === 'number' && h[k] >= 0)) P.push(`gpus.values: ${v.name} host.${k} must be non-negative`)
  }
}

function checkGraphs(w: WorkloadSpec, P: string[]): void {
  const g = w.graphs
  if (!g.idBytes.values.length || !g.idBytes.values.every((v) => v === 4 || v === 8)) P.push('graphs.idBytes: values must be 4 or 8')
  if (!g.idBytes.values.includes(g.idBytes.default)) P.push(`graphs.idBytes: default ${g.idBytes.default} is not one of the values`)
  if (g.kernels.length === 0) P.push('graphs.kernels: at least one kernel is needed')
  for (const d of duplicates(g.generators.map((x) => x.name))) P.push(`graphs.generators: name ${d} is used twice`)
  for (const x of g.generators)
    if (!/^[a-z]+$/.test(x.name) || x.name === 'file') P.push(`graphs.generators: '${x.name}' is not a lower-case word other than file`)
  if (!Number.isInteger(g.edgeFactor) || g.edgeFactor < 1) P.push(`graphs.edgeFactor: ${g.edgeFactor} is not a positive integer`)
  const sc = g.scale
  if (!(
    Number.isInteger(sc.min) &&
    Number.isInteger(sc.max) &&
    Number.isInteger(sc.serverMax) &&
    1 <= sc.min &&
    sc.min <= sc.serverMax &&
    sc.serverMax <= sc.max &&
    sc.max <= 32
  ))
    P.push(`graphs.scale: need integers 1 <= min <= serverMax <= max <= 32, got ${sc.min}, ${sc.serverMax}, ${sc.max}`)
  for (const d of duplicates(g.kernels.map((k) => k.name))) P.push(`graphs.kernels: name ${d} is used twice`)
  for (const d of duplicates(g.kernels.map((k) => k.enum))) P.push(`graphs.kernels: enum ${d} is used twice`)
  // graph kernels share the workload's pattern namespace (--pattern bfs-aligned)
  for (const k of g.kernels) if (w.patterns.some((p) => p.name === k.name)) P.push(`graphs.kernels: ${k.name} is also a pattern name`)
  g.kernels.forEach((k, i) => {
    if (k.id !== i) P.push(`graphs.kernels: ${k.name} has id ${k.id}; ids are the table order 0..${g.kernels.length - 1}`)
    if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(k.name)) P.push(`graphs.kernels: name '${k.name}' is not kebab-case`)
    if (!/^[A-Z][A-Za-z0-9]*$/.test(k.enum)) P.push(`graphs.kernels: enum '${k.enum}' of ${k.name} is not PascalCase`)
    if (k.lanesPerVertex !== 1 && k.lanesPerVertex !== 32) P.push(`graphs.kernels: ${k.name} lanesPerVertex must be 1 or 32`)
  })
  const pr = g.pagerank
  if (!Number.isInteger(pr.iterations) || pr.iterations < 1 || pr.iterations > 100)
    P.push('graphs.pagerank: iterations must be an integer 1..100')
  if (!(pr.damping > 0 && pr.damping < 1)) P.push('graphs.pagerank: damping must lie in (0, 1)')
  if (!(pr.tolerance > 0 && pr.tolerance < 1)) P.push('graphs.pagerank: tolerance must lie in (0, 1)')
}

/** Taps: at least one, names and keys unique, windows a power of two and no smaller than the map. */
function checkTaps(regs: RegisterSpec, P: string[]): void {
  const t = regs.taps
  const stride = num(t.stride)
  if (!isInt(stride) || stride < 2 ** regs.addressWidth || (stride & (stride - 1)) !== 0)
    P.push(`taps: stride ${t.stride} is not a power of two of at least 2**addressWidth`)
  if (t.list.length === 0 || t.list.length > 255) P.push('taps: list must hold 1..255 taps (the frames carry the id as u8)')
  for (const d of duplicates(t.list.map((x) => x.name))) P.push(`taps: name ${d} is used twice`)
  for (const d of duplicates(t.list.map((x) => x.key))) P.push(`taps: key ${d} is used twice`)
  for (const x of t.list) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(x.name)) P.push(`taps: name '${x.name}' is not UPPER_SNAKE`)
    if (!/^[a-z][A-Za-z0-9]*$/.test(x.key)) P.push(`taps: key '${x.key}' of ${x.name} is not camelCase`)
  }
}

function checkSwitch(sw: SwitchSpec, P: string[]): void {
  const fits = (v: string, bits: number) => /^0x[0-9a-fA-F]+$/.test(v) && num(v) < 2 ** bits
  for (const [k, bits] of [
    ['vendorId', 16],
    ['upstreamDeviceId', 16],
    ['downstreamDeviceId', 16],
    ['revisionId', 8],
  ] as const)
    if (!fits(sw[k], bits)) P.push(`switch: ${k} ${sw[k]} is not a ${bits}-bit hex value`)
  if (sw.classCode !== '0x060400') P.push(`switch: classCode ${sw.classCode} must be 0x060400 (PCI-to-PCI bridge)`)
  for (const d of duplicates(sw.counters.map((c) => c.name))) P.push(`switch: counter ${d} is used twice`)
  for (const c of sw.counters) if (!/^[A-Z][A-Z0-9_]*$/.test(c.name)) P.push(`switch: counter name ${c.name} is not UPPER_SNAKE`)
}

/** Validate and derive; SpecError lists every problem. */
export function buildModel(raw: RawSpec): SpecModel {
  const P: string[] = []
  const regs = raw.registers
  const proto = raw.protocol
  const base = num(regs.counters.base)
  const { counters, sizeClasses, first } = expandCounters(regs, base, regs.counters.width / 8)
  checkRegisters(regs, counters, P)
  checkHistogram(regs, counters, P)
  const traceWords = checkTrace(regs, P)
  checkTaps(regs, P)
  const histogramWords = regs.latencyHistogram.bins + 1
  checkProtocol(proto, P)
  checkWorkloads(raw.workloads, P)
  checkSwitch(raw.switch, P)
  const layouts = {
    COMMAND: place(proto.payloads.COMMAND, counters.length),
    RESPONSE: place(proto.payloads.RESPONSE, counters.length),
    SNAPSHOT: place(expandLinkStats(proto.payloads.SNAPSHOT, proto.linkStats.list), counters.length),
    INTERVAL: place(proto.payloads.INTERVAL, counters.length),
    HISTOGRAM: place(proto.payloads.HISTOGRAM, counters.length, histogramWords),
    TAP_SNAPSHOT: place(proto.payloads.TAP_SNAPSHOT, counters.length),
    TAP_HISTOGRAM: place(proto.payloads.TAP_HISTOGRAM, counters.length, histogramWords),
    TRACE: place(proto.payloads.TRACE, counters.length),
  }
  const commands = proto.commands.map((c) => ({
    ...c,
    argsLayout: place(c.args, counters.length),
    replyLayout: place(c.reply, counters.length),
  }))
  for (const [name, l] of Object.entries(layouts)) {
    if (l.bytes > proto.framing.maxPayloadBytes)
      P.push(`payloads: ${name} (${l.bytes} B) exceeds maxPayloadBytes ${proto.framing.maxPayloadBytes}`)
  }
  for (const c of commands) {
    if (layouts.COMMAND.bytes + c.argsLayout.bytes > proto.framing.maxPayloadBytes) P.push(`commands: ${c.name} arguments are too long`)
    if (layouts.RESPONSE.bytes + c.replyLayout.bytes > proto.framing.maxPayloadBytes) P.push(`commands: ${c.name} reply is too long`)
  }
  const smp = regs.registers.filter((r) => r.name.startsWith('SMP_')).sort((a, b) => num(a.offset) - num(b.offset))
  const smpFirst = smp[0]
  if (smpFirst?.name !== 'SMP_TS_LO') P.push('registers: the SMP_* record window must start with SMP_TS_LO')
  smp.forEach((r, i) => {
    if (smpFirst && num(r.offset) !== num(smpFirst.offset) + 4 * i) P.push(`registers: ${r.name} leaves a gap in the SMP_* record window`)
    if (r.access !== 'ro') P.push(`registers: ${r.name} must be ro (the sampler FIFO head)`)
  })
  const intervalRecordBytes = 4 * smp.length
  const intervalMaxRecords = Math.min(255, Math.floor((proto.framing.maxPayloadBytes - layouts.INTERVAL.bytes) / intervalRecordBytes))
  if (intervalMaxRecords < 1) P.push('payloads: an INTERVAL frame cannot carry one record')
  const traceRecordBytes = 4 * traceWords.length
  const traceMaxRecords = Math.min(255, Math.floor((proto.framing.maxPayloadBytes - layouts.TRACE.bytes) / traceRecordBytes))
  if (traceMaxRecords < 1) P.push('payloads: a TRACE frame cannot carry one record')
  if (P.length) throw new SpecError(P)
  const maxRaw = proto.framing.headerBytes + proto.framing.maxPayloadBytes + 2
  return {
    raw,
    counters,
    sizeClasses,
    sizeCounterFirst: first,
    layouts,
    commands,
    versionValue: (regs.version.major << 16) | regs.version.minor,
    sampleWords: smp.map((r) => r.name.slice('SMP_'.length)),
    traceWords,
    intervalRecordBytes,
    intervalMaxRecords,
    traceRecordBytes,
    traceMaxRecords,
    histogramWords,
    histogramLayoutValue:
      Math.log2(regs.latencyHistogram.subBinsPerOctave) |
      (Math.log2(regs.latencyHistogram.firstEdgeClocks) << 8) |
      (regs.latencyHistogram.bins << 16),
    linkStats: proto.linkStats.list,
    maxRaw,
    maxEncoded: maxRaw + Math.ceil(maxRaw / 254) + 1,
  }
}
