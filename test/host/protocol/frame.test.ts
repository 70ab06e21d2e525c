import { describe, expect, it } from 'vitest'
import { cobsDecode } from '../../../host/src/protocol/cobs.js'
import { buildRawFrame, frameTypeName, parseFrame } from '../../../host/src/protocol/frame.js'
import { FRAME_TYPE, FRAMING } from '../../../host/src/core/generated.js'
import { isPsError } from '../../../host/src/core/errors.js'
import { encodeFrame } from './device-codec.js'

const decodeWire = (wire: Buffer) => {
  expect(wire[wire.length - 1]).toBe(0)
  expect(wire.subarray(0, -1).includes(0)).toBe(false)
  const d = cobsDecode(wire.subarray(0, -1))
  if (!d.ok) throw new Error(d.error)
  return d.data
}

describe('frame', () => {
  it('round-trips type, seq and payload', () => {
    for (const [type, seq, payload] of [
      [FRAME_TYPE.COMMAND, 0, Buffer.from([1, 0, 0, 0, 0])],
      [FRAME_TYPE.RESPONSE, 0xffff, Buffer.alloc(0)],
      [FRAME_TYPE.SNAPSHOT, 0x1234, Buffer.alloc(FRAMING.maxPayloadBytes, 0)],
    ] as const) {
      const r = parseFrame(decodeWire(encodeFrame(type, seq, payload)))
      expect(r.ok).toBe(true)
      if (r.ok) expect(r.frame).toEqual({ type, seq, payload: Buffer.from(payload) })
    }
  })
  it('lays out header little-endian with the CRC last', () => {
    const raw = buildRawFrame(0x01, 0x0302, Buffer.from([0xaa]))
    expect([...raw.subarray(0, 4)]).toEqual([0x01, 0x02, 0x03, 0xaa])
    expect(raw.length).toBe(FRAMING.headerBytes + 1 + FRAMING.crcBytes)
  })
  it('rejects payloads above the limit', () => {
    expect(() => encodeFrame(1, 0, Buffer.alloc(FRAMING.maxPayloadBytes + 1))).toThrowError(
      expect.objectContaining({ code: 'PS_FRAME_OVERFLOW' }),
    )
  })
  it('reports short frames, CRC errors and unknown types as values', () => {
    expect(parseFrame(Buffer.from([1, 2]))).toMatchObject({ ok: false, code: 'PS_FRAME_SHORT' })
    const raw = buildRawFrame(FRAME_TYPE.RESPONSE, 7, Buffer.from([1, 2, 3]))
    raw[3]! ^= 0x40
    expect(parseFrame(raw)).toMatchObject({ ok: false, code: 'PS_FRAME_CRC' })
    const unk = parseFrame(buildRawFrame(0x7e, 9, Buffer.from([5])))
    expect(unk).toMatchObject({ ok: false, code: 'PS_FRAME_UNKNOWN_TYPE', frame: { type: 0x7e, seq: 9 } })
  })
  it('copies the payload unless the caller hands the bytes over', () => {
    const raw = buildRawFrame(FRAME_TYPE.RESPONSE, 3, Buffer.from([7, 8, 9]))
    const copied = parseFrame(raw)
    const owned = parseFrame(raw, true)
    raw.fill(0xee, FRAMING.headerBytes, FRAMING.headerBytes + 3)
    expect(copied.ok && [...copied.frame.payload]).toEqual([7, 8, 9])
    expect(owned.ok && [...owned.frame.payload]).toEqual([0xee, 0xee, 0xee]) // a view: no copy made
  })
  it('names frame types from the spec', () => {
    expect(frameTypeName(FRAME_TYPE.SNAPSHOT)).toBe('SNAPSHOT')
    expect(frameTypeName(0x55)).toBeUndefined()
    expect(isPsError(new Error('x'))).toBe(false)
  })
})
