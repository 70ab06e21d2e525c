/**
 * The device's side of the probe protocol, for the tests' fake devices and captures: decode a
 * COMMAND, encode RESPONSE, SNAPSHOT, INTERVAL, HISTOGRAM and TAP_* payloads and whole frames.
 * The host never sends these, so they stay out of host/src; they share the layouts and field
 * helpers of host/src/protocol/messages.ts, so both sides read one spec.
 */
import { PsError } from '../../../host/src/core/errors.js'
import { SPEC_HISTOGRAM_LAYOUT, type HistogramLayout } from '../../../host/src/core/latency-histogram.js'
import {
  COMMAND_LAYOUT,
  COMMANDS,
  COUNTERS,
  HISTOGRAM_KINDS,
  HISTOGRAM_LAYOUT,
  INTERVAL_LAYOUT,
  INTERVAL_MAX_RECORDS,
  INTERVAL_RECORD_BYTES,
  RESPONSE_LAYOUT,
  SNAPSHOT_FLAG,
  SNAPSHOT_LAYOUT,
  TAP_HISTOGRAM_LAYOUT,
  TAP_SNAPSHOT_LAYOUT,
  TAPS,
  type CommandName,
  type CounterKey,
} from '../../../host/src/core/generated.js'
import {
  HISTOGRAM_REASONS,
  type Counters,
  type IntervalBatch,
  type Snapshot,
  type TapHistogram,
  type TapSnapshot,
} from '../../../host/src/core/probe.js'
import { buildRawFrame, rawFrameOnWire } from '../../../host/src/protocol/frame.js'
import {
  commandName,
  decodeFields,
  FW_FIELDS,
  readField,
  RECORD_FIELDS,
  writeField,
  type CommandArgs,
  type FieldDef,
  type HistogramBody,
  type HistogramFields,
} from '../../../host/src/protocol/messages.js'

const COUNTER_BYTES = 8
const IV = INTERVAL_LAYOUT.fields
const HG = HISTOGRAM_LAYOUT.fields
const TS = TAP_SNAPSHOT_LAYOUT.fields
const TH = TAP_HISTOGRAM_LAYOUT.fields

/** Encode a frame for the wire: COBS bytes followed by the 0x00 delimiter. */
export const encodeFrame = (type: number, seq: number, payload: Uint8Array = Buffer.alloc(0)): Buffer =>
  rawFrameOnWire(buildRawFrame(type, seq, payload))

/** A Counters record with every key at 0. */
export const zeroCounters = (): Counters => {
  const c = {} as Counters
  for (const d of COUNTERS) c[d.key as CounterKey] = 0
  return c
}

/** Decode a COMMAND payload. */
export const decodeCommand = (
  payload: Buffer,
): { ok: true; cmd: number; name: CommandName | undefined; args: CommandArgs; argBytes: Buffer } | { ok: false; message: string } => {
  if (payload.length < COMMAND_LAYOUT.bytes) return { ok: false, message: 'empty COMMAND payload' }
  const cmd = readField(payload, COMMAND_LAYOUT.fields.cmd.type, COMMAND_LAYOUT.fields.cmd.offset)
  const name = commandName(cmd)
  const argBytes = Buffer.from(payload.subarray(COMMAND_LAYOUT.bytes))
  if (!name) return { ok: true, cmd, name, args: {}, argBytes }
  const def = COMMANDS[name]
  if (argBytes.length !== def.argsBytes)
    return { ok: false, message: `${name}: ${argBytes.length} argument bytes, expected ${def.argsBytes}` }
  return { ok: true, cmd, name, args: decodeFields(argBytes, def.args), argBytes }
}

/** Encode a RESPONSE payload. */
export const encodeResponse = (cmd: number, status: number, requestSeq: number, reply: Uint8Array = Buffer.alloc(0)): Buffer => {
  const buf = Buffer.alloc(RESPONSE_LAYOUT.bytes + reply.length)
  const f = RESPONSE_LAYOUT.fields
  writeField(buf, f.cmd.type, f.cmd.offset, cmd, 'cmd')
  writeField(buf, f.status.type, f.status.offset, status, 'status')
  writeField(buf, f.requestSeq.type, f.requestSeq.offset, requestSeq, 'requestSeq')
  buf.set(reply, RESPONSE_LAYOUT.bytes)
  return buf
}

/** Encode reply fields of command `name`. */
export const encodeReply = (name: CommandName, values: Record<string, number>): Buffer => {
  const def = COMMANDS[name]
  const buf = Buffer.alloc(def.replyBytes)
  for (const f of def.reply as readonly FieldDef[]) writeField(buf, f.type, f.offset, values[f.name] ?? 0, `${name}.${f.name}`)
  return buf
}

/** Encode a SNAPSHOT payload. */
export const encodeSnapshot = (s: Pick<Snapshot, 'index' | 'onDemand' | 'enabled' | 'counters' | 'firmware'>): Buffer => {
  const L = SNAPSHOT_LAYOUT.fields
  const buf = Buffer.alloc(SNAPSHOT_LAYOUT.bytes)
  const flags = (s.onDemand ? SNAPSHOT_FLAG.ON_DEMAND : 0) | (s.enabled ? SNAPSHOT_FLAG.ENABLED : 0)
  writeField(buf, L.flags.type, L.flags.offset, flags, 'flags')
  writeField(buf, L.index.type, L.index.offset, s.index, 'index')
  for (const c of COUNTERS) writeField(buf, 'u64', L.counters.offset + c.index * COUNTER_BYTES, s.counters[c.key as CounterKey] ?? 0, c.key)
  for (const k of FW_FIELDS) writeField(buf, L[k].type, L[k].offset, s.firmware[k], k)
  return buf
}

/** Encode an INTERVAL payload. */
export const encodeInterval = (b: Pick<IntervalBatch, 'firstIndex' | 'dropped' | 'overflow' | 'records'>): Buffer => {
  if (b.records.length > INTERVAL_MAX_RECORDS)
    throw new PsError('PS_REQUEST_INVALID', `at most ${INTERVAL_MAX_RECORDS} records per INTERVAL frame`)
  const buf = Buffer.alloc(INTERVAL_LAYOUT.bytes + b.records.length * INTERVAL_RECORD_BYTES)
  writeField(buf, IV.count.type, IV.count.offset, b.records.length, 'count')
  writeField(buf, IV.firstIndex.type, IV.firstIndex.offset, b.firstIndex, 'firstIndex')
  writeField(buf, IV.dropped.type, IV.dropped.offset, b.dropped, 'dropped')
  writeField(buf, IV.overflow.type, IV.overflow.offset, b.overflow, 'overflow')
  b.records.forEach((rec, r) => {
    const base = INTERVAL_LAYOUT.bytes + r * INTERVAL_RECORD_BYTES
    for (const f of RECORD_FIELDS) {
      const v = rec[f.key]
      if (f.hi === undefined) writeField(buf, 'u32', base + f.lo, v, f.key)
      else {
        writeField(buf, 'u32', base + f.lo, v % 0x1_0000_0000, f.key)
        writeField(buf, 'u32', base + f.hi, Math.floor(v / 0x1_0000_0000), f.key)
      }
    }
  })
  return buf
}

/** A histogram to encode: the spec's layout unless it says another. */
export type HistogramToEncode = Omit<HistogramBody, 'layout'> & { layout?: HistogramLayout }

const writeHistogramBody = (buf: Buffer, f: HistogramFields, h: HistogramToEncode): void => {
  const layout = h.layout ?? SPEC_HISTOGRAM_LAYOUT
  if (h.bins.length !== layout.bins + 1)
    throw new PsError('PS_REQUEST_INVALID', `a histogram has ${layout.bins + 1} bins, got ${h.bins.length}`)
  writeField(buf, f.reason.type, f.reason.offset, HISTOGRAM_REASONS.indexOf(h.reason), 'reason')
  writeField(
    buf,
    f.kind.type,
    f.kind.offset,
    HISTOGRAM_KINDS.findIndex((k) => k.key === h.kind),
    'kind',
  )
  writeField(buf, f.snapshotIndex.type, f.snapshotIndex.offset, h.snapshotIndex, 'snapshotIndex')
  writeField(buf, f.subBinsLog2.type, f.subBinsLog2.offset, Math.log2(layout.subBins), 'subBinsLog2')
  writeField(buf, f.firstEdgeLog2.type, f.firstEdgeLog2.offset, Math.log2(layout.firstEdgeClocks), 'firstEdgeLog2')
  writeField(buf, f.binCount.type, f.binCount.offset, layout.bins, 'binCount')
  h.bins.forEach((v, k) => writeField(buf, 'u64', f.bins.offset + 8 * k, v, `bins[${k}]`))
}

/** Encode a HISTOGRAM payload. */
export const encodeHistogram = (h: HistogramToEncode): Buffer => {
  const buf = Buffer.alloc(HG.bins.offset + 8 * h.bins.length)
  writeHistogramBody(buf, HG, h)
  return buf
}

/** Encode a TAP_SNAPSHOT payload. */
export const encodeTapSnapshot = (s: Pick<TapSnapshot, 'tap' | 'snapshotIndex' | 'counters'>): Buffer => {
  const buf = Buffer.alloc(TAP_SNAPSHOT_LAYOUT.bytes)
  writeField(
    buf,
    TS.tap.type,
    TS.tap.offset,
    TAPS.findIndex((t) => t.key === s.tap),
    'tap',
  )
  writeField(buf, TS.snapshotIndex.type, TS.snapshotIndex.offset, s.snapshotIndex, 'snapshotIndex')
  for (const c of COUNTERS)
    writeField(buf, 'u64', TS.counters.offset + c.index * COUNTER_BYTES, s.counters[c.key as CounterKey] ?? 0, c.key)
  return buf
}

/** Encode a TAP_HISTOGRAM payload. */
export const encodeTapHistogram = (h: Pick<TapHistogram, 'tap'> & HistogramToEncode): Buffer => {
  const buf = Buffer.alloc(TH.bins.offset + 8 * h.bins.length)
  writeField(
    buf,
    TH.tap.type,
    TH.tap.offset,
    TAPS.findIndex((t) => t.key === h.tap),
    'tap',
  )
  writeHistogramBody(buf, TH, h)
  return buf
}
