import { describe, expect, it } from 'vitest'
import { cobsDecode, cobsEncode, cobsMaxEncodedLength } from '../../../host/src/protocol/cobs.js'

const roundTrip = (data: Buffer) => {
  const enc = cobsEncode(data)
  expect(enc.includes(0)).toBe(false)
  expect(enc.length).toBeLessThanOrEqual(cobsMaxEncodedLength(data.length) + 1)
  const dec = cobsDecode(enc)
  expect(dec.ok).toBe(true)
  if (dec.ok) expect(dec.data.equals(data)).toBe(true)
}

describe('COBS', () => {
  it('encodes the classic examples', () => {
    expect([...cobsEncode(Buffer.from([0x00]))]).toEqual([0x01, 0x01])
    expect([...cobsEncode(Buffer.from([0x00, 0x00]))]).toEqual([0x01, 0x01, 0x01])
    expect([...cobsEncode(Buffer.from([0x11, 0x22, 0x00, 0x33]))]).toEqual([0x03, 0x11, 0x22, 0x02, 0x33])
    expect([...cobsEncode(Buffer.from([0x11, 0x00, 0x00, 0x00]))]).toEqual([0x02, 0x11, 0x01, 0x01, 0x01])
    expect([...cobsEncode(Buffer.alloc(0))]).toEqual([0x01])
  })
  it('round-trips edge lengths and all byte values', () => {
    for (const n of [0, 1, 2, 253, 254, 255, 256, 508, 1000]) {
      roundTrip(Buffer.alloc(n, 0x5a))
      roundTrip(Buffer.alloc(n, 0))
      roundTrip(Buffer.from(Array.from({ length: n }, (_, i) => i & 0xff)))
    }
  })
  it('round-trips random data', () => {
    let s = 12345
    const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff), s & 0xff)
    for (let t = 0; t < 200; t++) roundTrip(Buffer.from(Array.from({ length: rnd() + (t & 3) * 100 }, () => (rnd() < 40 ? 0 : rnd()))))
  })
  it('returns errors as values', () => {
    expect(cobsDecode(Buffer.alloc(0))).toEqual({ ok: false, error: 'empty' })
    expect(cobsDecode(Buffer.from([0x05, 1, 2]))).toEqual({ ok: false, error: 'truncated' })
    expect(cobsDecode(Buffer.from([0x03, 1, 0]))).toEqual({ ok: false, error: 'zero-byte' })
    expect(cobsDecode(Buffer.from([0x00]))).toEqual({ ok: false, error: 'zero-byte' })
  })
  it('returns a fresh buffer, not a view of the input', () => {
    const enc = cobsEncode(Buffer.from([1, 2, 3]))
    const dec = cobsDecode(enc)
    enc.fill(0xee)
    expect(dec.ok && [...dec.data]).toEqual([1, 2, 3])
  })
})
