import { describe, expect, it } from 'vitest'
import { crc16 } from '../../../host/src/protocol/crc16.js'
import { CRC16 } from '../../../host/src/core/generated.js'

describe('crc16', () => {
  it('matches the CRC-16/CCITT-FALSE check value from the spec', () => {
    expect(crc16(Buffer.from('123456789', 'ascii'))).toBe(CRC16.check)
    expect(CRC16.check).toBe(0x29b1)
  })
  it('returns init for empty input and can be continued over pieces', () => {
    expect(crc16(Buffer.alloc(0))).toBe(CRC16.init)
    const data = Buffer.from('hello, pcie-scope')
    expect(crc16(data.subarray(7), crc16(data.subarray(0, 7)))).toBe(crc16(data))
  })
  it('equals the bit-by-bit definition for every length and split (the two-byte table path)', () => {
    // the CRC straight from its definition: one bit at a time, no tables
    const bitwise = (data: Uint8Array, crc: number = CRC16.init): number => {
      let c = crc
      for (const b of data) {
        c ^= b << 8
        for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ CRC16.poly) & 0xffff : (c << 1) & 0xffff
      }
      return (c ^ CRC16.xorout) & 0xffff
    }
    let seed = 12345
    const rand = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24
    for (let len = 0; len < 70; len++) {
      const data = Uint8Array.from({ length: len }, rand)
      expect(crc16(data)).toBe(bitwise(data))
      const cut = len >> 1
      expect(crc16(data.subarray(cut), crc16(data.subarray(0, cut)))).toBe(bitwise(data))
    }
  })
  it('detects single-bit flips', () => {
    const data = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8])
    const ref = crc16(data)
    for (let i = 0; i < data.length * 8; i++) {
      const d = Buffer.from(data)
      d[i >> 3]! ^= 1 << (i & 7)
      expect(crc16(d)).not.toBe(ref)
    }
  })
})
