/**
 * Payload codecs driven by the generated layouts, the host's side of them: COMMAND payloads
 * (cmd + args) out; RESPONSE payloads (header + the command's reply fields), the INFO and
 * LINK_INFO replies, SNAPSHOT, INTERVAL, HISTOGRAM and TAP_* payloads in. The device's side
 * (what a probe encodes) lives with the tests' fake devices: test/host/protocol/device-codec.ts.
 * No offsets or ids are written here; they all come from generated.ts.
 */
import { PsError } from '../core/errors.js'
import { readCounterBlock } from '../core/generated-decode.js'
import { layoutFromWire, type HistogramLayout } from '../core/latency-histogram.js'
import {
  HISTOGRAM_REASONS,
  type Counters,
  type FirmwareLinkStats,
  type IntervalBatch,
  type IntervalRecord,
  type LatencyHistogram,
  type LinkInfo,
  type ProbeInfo,
  type Snapshot,
  type TapHistogram,
  type TapSnapshot,
} from '../core/probe.js'
import {
  COMMAND_LAYOUT,
  COMMANDS,
  HISTOGRAM_KINDS,
  HISTOGRAM_LAYOUT,
  INTERVAL_LAYOUT,
  INTERVAL_MAX_RECORDS,
  INTERVAL_RECORD_BYTES,
  LINK_STATS,
  RESPONSE_LAYOUT,
  SAMPLE_WORDS,
  SNAPSHOT_FLAG,
  SNAPSHOT_LAYOUT,
  STATUS,
  TAP_HISTOGRAM_LAYOUT,
  TAP_SNAPSHOT_LAYOUT,
  TAPS,
  TRACE_LAYOUT,
  TRACE_MAX_RECORDS,
  TRACE_RECORD_BYTES,
  TRACE_WORDS,
  type CommandName,
  type LinkStatKey,
  type StatusName,
} from '../core/generated.js'

type ScalarType = 'u8' | 'u16' | 'u32' | 'u64'
const SIZES: Record<ScalarType, number> = { u8: 1, u16: 2, u32: 4, u64: 8 }

const scalarSize = (t: string): number => {
  const n = SIZES[t as ScalarType]
  if (n === undefined) throw new PsError('PS_REQUEST_INVALID', `unsupported field type ${t}`)
  return n
}

/** Read a little-endian unsigned field; u64 becomes a number (exact below 2^53). */
export const readField = (buf: Buffer, type: string, offset: number): number => {
  switch (type) {
    case 'u8':
      return buf.readUInt8(offset)
    case 'u16':
      return buf.readUInt16LE(offset)
    case 'u32':
      return buf.readUInt32LE(offset)
    case 'u64':
      return buf.readUInt32LE(offset) + buf.readUInt32LE(offset + 4) * 0x1_0000_0000
    default:
      throw new PsError('PS_REQUEST_INVALID', `unsupported field type ${type}`)
  }
}

/** Write a little-endian unsigned field; range-checked. */
export const writeField = (buf: Buffer, type: string, offset: number, value: number, name = 'value'): void => {
  const bytes = scalarSize(type)
  const max = bytes === 8 ? Number.MAX_SAFE_INTEGER : 2 ** (8 * bytes) - 1
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new PsError('PS_REQUEST_INVALID', `${name} must be an integer in 0..${max} (${type}), got ${String(value)}`)
  }
  if (bytes === 8) {
    buf.writeUInt32LE(value % 0x1_0000_0000, offset)
    buf.writeUInt32LE(Math.floor(value / 0x1_0000_0000), offset + 4)
  } else buf.writeUIntLE(value, offset, bytes)
}

export interface FieldDef {
  readonly name: string
  readonly type: string
  readonly offset: number
}

export const decodeFields = (buf: Buffer, fields: readonly FieldDef[], base = 0): Record<string, number> => {
  const out: Record<string, number> = {}
  for (const f of fields) out[f.name] = readField(buf, f.type, base + f.offset)
  return out
}

const COMMAND_BY_ID = new Map<number, CommandName>((Object.keys(COMMANDS) as CommandName[]).map((n) => [COMMANDS[n].id, n]))
const STATUS_BY_ID = new Map<number, StatusName>((Object.keys(STATUS) as StatusName[]).map((n) => [STATUS[n], n]))

export const commandName = (id: number): CommandName | undefined => COMMAND_BY_ID.get(id)
export const statusName = (id: number): StatusName | undefined => STATUS_BY_ID.get(id)

export type CommandArgs = Record<string, number>

/** COMMAND payload: header (cmd) then the command's args at their layout offsets. */
export const encodeCommand = (name: CommandName, args: CommandArgs = {}): Buffer => {
  const def = COMMANDS[name]
  if (!def) throw new PsError('PS_REQUEST_INVALID', `unknown command ${String(name)}`)
  const base = COMMAND_LAYOUT.bytes
  const buf = Buffer.alloc(base + def.argsBytes)
  writeField(buf, COMMAND_LAYOUT.fields.cmd.type, COMMAND_LAYOUT.fields.cmd.offset, def.id, 'cmd')
  const argDefs: readonly FieldDef[] = def.args
  for (const a of argDefs) {
    const v = args[a.name]
    if (v === undefined) throw new PsError('PS_REQUEST_INVALID', `${name}: missing argument ${a.name}`)
    writeField(buf, a.type, base + a.offset, v, `${name}.${a.name}`)
  }
  for (const k of Object.keys(args)) {
    if (!argDefs.some((a) => a.name === k)) throw new PsError('PS_REQUEST_INVALID', `${name}: unexpected argument ${k}`)
  }
  return buf
}

export interface ResponseHeader {
  cmd: number
  cmdName: CommandName | undefined
  status: number
  statusName: StatusName | undefined
  requestSeq: number
  /** bytes after the response header: the command's reply fields when status is OK */
  reply: Buffer
}

export type Decoded<T> = { ok: true; value: T } | { ok: false; error: PsError }

export const decodeResponse = (payload: Buffer): Decoded<ResponseHeader> => {
  if (payload.length < RESPONSE_LAYOUT.bytes) {
    return {
      ok: false,
      error: new PsError('PS_CMD_BAD_REPLY', `RESPONSE payload of ${payload.length} B, expected at least ${RESPONSE_LAYOUT.bytes}`),
    }
  }
  const h = decodeFields(
    payload,
    Object.entries(RESPONSE_LAYOUT.fields).map(([name, f]) => ({ name, type: f.type, offset: f.offset })),
  )
  const cmd = h['cmd']!
  const status = h['status']!
  return {
    ok: true,
    value: {
      cmd,
      cmdName: commandName(cmd),
      status,
      statusName: statusName(status),
      requestSeq: h['requestSeq']!,
      reply: Buffer.from(payload.subarray(RESPONSE_LAYOUT.bytes)),
    },
  }
}

/** Decode the reply fields of command `name` (exact length required). */
export const decodeReply = (name: CommandName, reply: Buffer): Decoded<Record<string, number>> => {
  const def = COMMANDS[name]
  if (reply.length !== def.replyBytes) {
    return { ok: false, error: new PsError('PS_CMD_BAD_REPLY', `${name} reply of ${reply.length} B, expected ${def.replyBytes}`) }
  }
  return { ok: true, value: decodeFields(reply, def.reply) }
}

export const decodeInfo = (reply: Buffer): Decoded<ProbeInfo> => {
  const r = decodeReply('INFO', reply)
  if (!r.ok) return r
  const v = r.value
  return {
    ok: true,
    value: {
      protocolVersion: v['protocolVersion']!,
      firmwareVersion: v['firmwareVersion']!,
      probeId: v['probeId']!,
      regVersion: v['regVersion']!,
      clockHz: v['clockHz']!,
      counterCount: v['counterCount']!,
      streaming: v['streaming']! !== 0,
      periodMs: v['periodMs']!,
      barLatencyCycles: v['barLatencyCycles']!,
    },
  }
}

/** the firmware's own link statistics, in every SNAPSHOT, in the spec's order */
export const FW_FIELDS: readonly LinkStatKey[] = LINK_STATS.map((s) => s.key)

// Every snapshot goes through here: the layout is resolved to plain offsets once, and the
// counters come from the generated reader, one object literal (bench/decoder.mjs).
const SNAP = SNAPSHOT_LAYOUT.fields
const FW_OFFSETS: readonly number[] = FW_FIELDS.map((k) => SNAP[k].offset)
if (SNAP.flags.type !== 'u8' || SNAP.index.type !== 'u32' || FW_FIELDS.some((k) => SNAP[k].type !== 'u32')) {
  throw new Error('SNAPSHOT layout changed: decodeSnapshot reads flags as u8 and the rest as u32')
}

export const decodeSnapshot = (seq: number, payload: Buffer, receivedAt: number = Date.now()): Decoded<Snapshot> => {
  if (payload.length !== SNAPSHOT_LAYOUT.bytes) {
    return {
      ok: false,
      error: new PsError('PS_CMD_BAD_REPLY', `SNAPSHOT payload of ${payload.length} B, expected ${SNAPSHOT_LAYOUT.bytes}`),
    }
  }
  const flags = payload.readUInt8(SNAP.flags.offset)
  const counters: Counters = readCounterBlock(payload, SNAP.counters.offset)
  const firmware = {} as FirmwareLinkStats
  for (let k = 0; k < FW_FIELDS.length; k++) firmware[FW_FIELDS[k]!] = payload.readUInt32LE(FW_OFFSETS[k]!)
  return {
    ok: true,
    value: {
      seq,
      index: payload.readUInt32LE(SNAP.index.offset),
      onDemand: (flags & SNAPSHOT_FLAG.ON_DEMAND) !== 0,
      enabled: (flags & SNAPSHOT_FLAG.ENABLED) !== 0,
      counters,
      firmware,
      receivedAt,
    },
  }
}

/*
 * INTERVAL frames: the INTERVAL_LAYOUT header, then `count` records of the SMP_* words.
 * Record fields come from SAMPLE_WORDS: a _LO/_HI pair is one 64-bit field.
 */
const camel = (s: string): string => s.toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())
export interface RecordField {
  key: keyof IntervalRecord
  lo: number
  hi: number | undefined
}
/** each IntervalRecord field at its byte offset in a record (lo word, and hi word for a 64-bit one) */
export const RECORD_FIELDS: readonly RecordField[] = (() => {
  const words: readonly string[] = SAMPLE_WORDS
  const out: RecordField[] = []
  words.forEach((w, i) => {
    if (w.endsWith('_HI')) return
    const base = w.endsWith('_LO') ? w.slice(0, -3) : w
    const hi = w.endsWith('_LO') ? words.indexOf(`${base}_HI`) : -1
    out.push({ key: camel(base) as keyof IntervalRecord, lo: i * 4, hi: hi >= 0 ? hi * 4 : undefined })
  })
  return out
})()
const RECORD_KEYS = ['ts', 'cycles', 'mrdCount', 'mrdBytes', 'cpldCount', 'cpldBytes', 'occSum', 'occPeak', 'latSum', 'latCount'] as const
{
  const got = RECORD_FIELDS.map((f) => f.key as string).sort()
  const want = [...RECORD_KEYS].sort()
  if (got.join() !== want.join()) throw new Error(`SMP_* words (${got.join()}) no longer match IntervalRecord (${want.join()})`)
}
const IV = INTERVAL_LAYOUT.fields

export const decodeInterval = (seq: number, payload: Buffer, receivedAt: number = Date.now()): Decoded<IntervalBatch> => {
  const bad = (why: string): Decoded<IntervalBatch> => ({ ok: false, error: new PsError('PS_CMD_BAD_REPLY', `INTERVAL ${why}`) })
  if (payload.length < INTERVAL_LAYOUT.bytes)
    return bad(`payload of ${payload.length} B, shorter than its ${INTERVAL_LAYOUT.bytes}-B header`)
  const count = readField(payload, IV.count.type, IV.count.offset)
  if (count > INTERVAL_MAX_RECORDS) return bad(`claims ${count} records, at most ${INTERVAL_MAX_RECORDS} fit a frame`)
  const want = INTERVAL_LAYOUT.bytes + count * INTERVAL_RECORD_BYTES
  if (payload.length !== want) return bad(`payload of ${payload.length} B for ${count} records, expected ${want}`)
  const records: IntervalRecord[] = []
  for (let r = 0; r < count; r++) {
    const base = INTERVAL_LAYOUT.bytes + r * INTERVAL_RECORD_BYTES
    const rec = {} as IntervalRecord
    for (const f of RECORD_FIELDS) {
      const lo = payload.readUInt32LE(base + f.lo)
      rec[f.key] = f.hi === undefined ? lo : lo + payload.readUInt32LE(base + f.hi) * 0x1_0000_0000
    }
    records.push(rec)
  }
  return {
    ok: true,
    value: {
      seq,
      firstIndex: readField(payload, IV.firstIndex.type, IV.firstIndex.offset),
      dropped: readField(payload, IV.dropped.type, IV.dropped.offset),
      overflow: readField(payload, IV.overflow.type, IV.overflow.offset),
      records,
      receivedAt,
    },
  }
}

/*
 * HISTOGRAM frames: reason, kind (HISTOGRAM_KINDS by id), the snapshot they go with, the bins'
 * layout (sub-bins per octave, first edge, bin count: any firmware's), then binCount + 1 bins as
 * u64, which the payload's length must match.
 */
const HG = HISTOGRAM_LAYOUT.fields

/** The fields HISTOGRAM and TAP_HISTOGRAM share, each at its layout's offset. */
export type HistogramFields = Record<
  'reason' | 'kind' | 'snapshotIndex' | 'subBinsLog2' | 'firstEdgeLog2' | 'binCount' | 'bins',
  { readonly type: Parameters<typeof readField>[1]; readonly offset: number }
>
export type HistogramBody = Pick<LatencyHistogram, 'reason' | 'kind' | 'snapshotIndex' | 'layout' | 'bins'>

/** Read the histogram fields of a payload; a string says what is wrong with them. */
const readHistogramBody = (payload: Buffer, f: HistogramFields): HistogramBody | string => {
  const reason = HISTOGRAM_REASONS[readField(payload, f.reason.type, f.reason.offset)]
  if (reason === undefined) return `reason ${payload.readUInt8(f.reason.offset)} is not one of ${HISTOGRAM_REASONS.join(', ')}`
  const kind = HISTOGRAM_KINDS[readField(payload, f.kind.type, f.kind.offset)]?.key
  if (kind === undefined)
    return `kind ${payload.readUInt8(f.kind.offset)} is not one of ${HISTOGRAM_KINDS.map((k, i) => `${i} (${k.key})`).join(', ')}`
  if (payload.length < f.bins.offset) return `payload of ${payload.length} B is shorter than its header (${f.bins.offset} B)`
  let layout: HistogramLayout
  try {
    layout = layoutFromWire(
      readField(payload, f.subBinsLog2.type, f.subBinsLog2.offset),
      readField(payload, f.firstEdgeLog2.type, f.firstEdgeLog2.offset),
      readField(payload, f.binCount.type, f.binCount.offset),
    )
  } catch (e) {
    return (e as Error).message
  }
  const want = f.bins.offset + 8 * (layout.bins + 1)
  if (payload.length !== want) return `payload of ${payload.length} B, expected ${want} for ${layout.bins} + 1 bins`
  const bins: number[] = []
  for (let k = 0; k <= layout.bins; k++) bins.push(readField(payload, 'u64', f.bins.offset + 8 * k))
  return { reason, kind, snapshotIndex: readField(payload, f.snapshotIndex.type, f.snapshotIndex.offset), layout, bins }
}

export const decodeHistogram = (seq: number, payload: Buffer, receivedAt: number = Date.now()): Decoded<LatencyHistogram> => {
  const bad = (why: string): Decoded<LatencyHistogram> => ({ ok: false, error: new PsError('PS_CMD_BAD_REPLY', `HISTOGRAM ${why}`) })
  const body = readHistogramBody(payload, HG)
  if (typeof body === 'string') return bad(body)
  return { ok: true, value: { seq, ...body, receivedAt } }
}

export const decodeLinkInfo = (reply: Buffer): Decoded<LinkInfo> => {
  const r = decodeReply('LINK_INFO', reply)
  if (!r.ok) return r
  const v = r.value
  return {
    ok: true,
    value: {
      linkGen: v['linkGen']!,
      linkWidth: v['linkWidth']!,
      tagBits: v['tagBits']!,
      filterEnabled: v['filterEnabled']! !== 0,
      mps: v['mps']!,
      mrrs: v['mrrs']!,
      rcb: v['rcb']!,
      sampleDepth: v['sampleDepth']!,
      clockHz: v['clockHz']!,
      buildId: v['buildId']!,
      samplePeriodCycles: v['samplePeriodCycles']!,
      filterBase: v['filterBase']!,
      filterLimit: v['filterLimit']!,
    },
  }
}

/*
 * TAP_SNAPSHOT and TAP_HISTOGRAM frames: a further probe tap's counters and latency histograms
 * (TAPS by id; tap 0's travel in SNAPSHOT and HISTOGRAM frames).
 */
const TS = TAP_SNAPSHOT_LAYOUT.fields
const TH = TAP_HISTOGRAM_LAYOUT.fields

const tapKey = (id: number): TapSnapshot['tap'] | undefined => (id > 0 ? TAPS[id]?.key : undefined)
const tapList = () => TAPS.map((t, i) => `${i} (${t.key})`).join(', ')

export const decodeTapSnapshot = (seq: number, payload: Buffer, receivedAt: number = Date.now()): Decoded<TapSnapshot> => {
  if (payload.length !== TAP_SNAPSHOT_LAYOUT.bytes)
    return {
      ok: false,
      error: new PsError('PS_CMD_BAD_REPLY', `TAP_SNAPSHOT payload of ${payload.length} B, expected ${TAP_SNAPSHOT_LAYOUT.bytes}`),
    }
  const id = readField(payload, TS.tap.type, TS.tap.offset)
  const tap = tapKey(id)
  if (tap === undefined)
    return { ok: false, error: new PsError('PS_CMD_BAD_REPLY', `TAP_SNAPSHOT tap ${id} is not one of ${tapList()} other than 0`) }
  return {
    ok: true,
    value: {
      seq,
      tap,
      snapshotIndex: readField(payload, TS.snapshotIndex.type, TS.snapshotIndex.offset),
      counters: readCounterBlock(payload, TS.counters.offset),
      receivedAt,
    },
  }
}

export const decodeTapHistogram = (seq: number, payload: Buffer, receivedAt: number = Date.now()): Decoded<TapHistogram> => {
  const bad = (why: string): Decoded<TapHistogram> => ({ ok: false, error: new PsError('PS_CMD_BAD_REPLY', `TAP_HISTOGRAM ${why}`) })
  if (payload.length < TH.bins.offset) return bad(`payload of ${payload.length} B is shorter than its header (${TH.bins.offset} B)`)
  const id = readField(payload, TH.tap.type, TH.tap.offset)
  const tap = tapKey(id)
  if (tap === undefined) return bad(`tap ${id} is not one of ${tapList()} other than 0`)
  const body = readHistogramBody(payload, TH)
  if (typeof body === 'string') return bad(body)
  return { ok: true, value: { seq, tap, ...body, receivedAt } }
}

/*
 * TRACE frames: the TRACE_LAYOUT header (tap, count, the first record's index, the trace's
 * total, trigger index and lost count), then `count` records of the TRC_REC_* words, oldest first.
 */
const TR = TRACE_LAYOUT.fields

/** One TRACE frame: a run of consecutive records of a stopped trace, as raw words. */
export interface TraceFrame {
  seq: number
  tap: number
  /** index of words[0] in the trace (0 the oldest record) */
  firstIndex: number
  /** records in the whole trace */
  total: number
  /** the trigger record's index (total when the trace never triggered) */
  triggerIndex: number
  /** TRC_LOST: records that passed the filter yet were not stored */
  lost: number
  /** one array of TRACE_WORDS words per record */
  words: number[][]
  receivedAt: number
}

export const decodeTraceFrame = (seq: number, payload: Buffer, receivedAt: number = Date.now()): Decoded<TraceFrame> => {
  const bad = (why: string): Decoded<TraceFrame> => ({ ok: false, error: new PsError('PS_CMD_BAD_REPLY', `TRACE ${why}`) })
  if (payload.length < TRACE_LAYOUT.bytes) return bad(`payload of ${payload.length} B, shorter than its ${TRACE_LAYOUT.bytes}-B header`)
  const count = readField(payload, TR.count.type, TR.count.offset)
  if (count > TRACE_MAX_RECORDS) return bad(`claims ${count} records, at most ${TRACE_MAX_RECORDS} fit a frame`)
  const want = TRACE_LAYOUT.bytes + count * TRACE_RECORD_BYTES
  if (payload.length !== want) return bad(`payload of ${payload.length} B for ${count} records, expected ${want}`)
  const firstIndex = readField(payload, TR.firstIndex.type, TR.firstIndex.offset)
  const total = readField(payload, TR.total.type, TR.total.offset)
  if (firstIndex + count > total) return bad(`records ${firstIndex}..${firstIndex + count - 1} lie past the trace's ${total}`)
  const words: number[][] = []
  for (let r = 0; r < count; r++) {
    const base = TRACE_LAYOUT.bytes + r * TRACE_RECORD_BYTES
    words.push(TRACE_WORDS.map((_, w) => payload.readUInt32LE(base + 4 * w)))
  }
  return {
    ok: true,
    value: {
      seq,
      tap: readField(payload, TR.tap.type, TR.tap.offset),
      firstIndex,
      total,
      triggerIndex: readField(payload, TR.triggerIndex.type, TR.triggerIndex.offset),
      lost: readField(payload, TR.lost.type, TR.lost.offset),
      words,
      receivedAt,
    },
  }
}
