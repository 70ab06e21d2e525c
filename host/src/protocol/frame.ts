/**
 * Frame = COBS(type u8 | seq u16 LE | payload | crc u16 LE) + 0x00, the CRC covering type, seq and
 * payload. Sizes and type ids come from the generated protocol tables.
 */
import { PsError, type PsErrorCode } from '../core/errors.js'
import { cobsEncode } from './cobs.js'
import { crc16 } from './crc16.js'
import { FRAME_TYPE, FRAMING, type FrameTypeName } from '../core/generated.js'

export interface Frame {
  /** frame type id (FRAME_TYPE) */
  type: number
  /** u16 sequence number of the sender */
  seq: number
  /** payload, a Buffer of its own */
  payload: Buffer
}

const TYPE_NAMES = new Map<number, FrameTypeName>((Object.entries(FRAME_TYPE) as [FrameTypeName, number][]).map(([n, id]) => [id, n]))

/** Name of a frame type id, or undefined when the id is not in the spec. */
export const frameTypeName = (type: number): FrameTypeName | undefined => TYPE_NAMES.get(type)

/** Raw (pre-COBS) bytes of a frame: header, payload and CRC. */
export const buildRawFrame = (type: number, seq: number, payload: Uint8Array = Buffer.alloc(0)): Buffer => {
  if (!Number.isInteger(type) || type < 0 || type > 0xff) throw new PsError('PS_REQUEST_INVALID', `frame type ${type} is not a u8`)
  if (payload.length > FRAMING.maxPayloadBytes) {
    throw new PsError('PS_FRAME_OVERFLOW', `payload of ${payload.length} B exceeds the ${FRAMING.maxPayloadBytes}-B frame limit`)
  }
  const raw = Buffer.alloc(FRAMING.headerBytes + payload.length + FRAMING.crcBytes)
  raw.writeUInt8(type, 0)
  raw.writeUInt16LE(seq & 0xffff, 1)
  raw.set(payload, FRAMING.headerBytes)
  const crcAt = FRAMING.headerBytes + payload.length
  raw.writeUInt16LE(crc16(raw.subarray(0, crcAt)), crcAt)
  return raw
}

/** Raw frame bytes (buildRawFrame's) as they go on the wire: COBS, then the delimiter. */
export const rawFrameOnWire = (raw: Uint8Array): Buffer => {
  const enc = cobsEncode(raw)
  const out = Buffer.allocUnsafe(enc.length + 1)
  enc.copy(out)
  out[enc.length] = FRAMING.delimiter
  return out
}

export type FrameErrorCode = Extract<PsErrorCode, 'PS_FRAME_SHORT' | 'PS_FRAME_CRC' | 'PS_FRAME_UNKNOWN_TYPE' | 'PS_FRAME_OVERFLOW'>
export type ParseFrameResult = { ok: true; frame: Frame } | { ok: false; code: FrameErrorCode; message: string; frame?: Frame }

/**
 * Parse COBS-decoded bytes. Checks length, then CRC, then the type id; an unknown type with a
 * good CRC comes back as PS_FRAME_UNKNOWN_TYPE together with the frame. The payload is a copy
 * unless `owned` says `raw` belongs to the caller alone (the decoder's fresh COBS output), in
 * which case it is a view and the copy is saved.
 */
export const parseFrame = (raw: Uint8Array, owned = false): ParseFrameResult => {
  const min = FRAMING.headerBytes + FRAMING.crcBytes
  if (raw.length < min) return { ok: false, code: 'PS_FRAME_SHORT', message: `frame of ${raw.length} B is shorter than ${min} B` }
  if (raw.length > FRAMING.maxRawBytes) {
    return { ok: false, code: 'PS_FRAME_OVERFLOW', message: `frame of ${raw.length} B exceeds ${FRAMING.maxRawBytes} B` }
  }
  const buf = Buffer.from(raw.buffer, raw.byteOffset, raw.length)
  const crcAt = raw.length - FRAMING.crcBytes
  const want = buf.readUInt16LE(crcAt)
  const got = crc16(buf.subarray(0, crcAt))
  if (want !== got) {
    return {
      ok: false,
      code: 'PS_FRAME_CRC',
      message: `CRC mismatch: frame says 0x${want.toString(16).padStart(4, '0')}, computed 0x${got.toString(16).padStart(4, '0')}`,
    }
  }
  const frame: Frame = {
    type: buf.readUInt8(0),
    seq: buf.readUInt16LE(1),
    payload: owned ? buf.subarray(FRAMING.headerBytes, crcAt) : Buffer.from(buf.subarray(FRAMING.headerBytes, crcAt)),
  }
  if (!TYPE_NAMES.has(frame.type)) {
    return { ok: false, code: 'PS_FRAME_UNKNOWN_TYPE', message: `unknown frame type 0x${frame.type.toString(16)}`, frame }
  }
  return { ok: true, frame }
}
