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
