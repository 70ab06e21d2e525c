/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, not reflected, xorout 0x0000), parameters from
 * the generated protocol tables. Check value: crc16("123456789") === CRC16.check (0x29B1).
 */
import { CRC16 } from '../core/generated.js'

/** T0[i]: the register after shifting byte i through it (the classic one-byte table). */
const T0: Uint16Array = (() => {
  const t = new Uint16Array(256)
  for (let i = 0; i < 256; i++) {
    let c = i << 8
    for (let b = 0; b < 8; b++) c = c & 0x8000 ? ((c << 1) ^ CRC16.poly) & 0xffff : (c << 1) & 0xffff
    t[i] = c
  }
  return t
})()

/**
 * T1[i]: byte i shifted through 16 zero bits, i.e. T0[i] shifted one byte further. With it two
 * input bytes cost two lookups (slice-by-2): for x = crc ^ (b0 << 8 | b1), the next register is
 * T1[x >> 8] ^ T0[x & 0xff], since shifting is linear in the register's bits.
 */
const T1: Uint16Array = (() => {
  const t = new Uint16Array(256)
  for (let i = 0; i < 256; i++) t[i] = ((T0[i]! << 8) & 0xffff) ^ T0[T0[i]! >>> 8]!
  return t
})()

/** CRC over `data`; pass a previous result as `crc` to continue over several pieces. */
export const crc16 = (data: Uint8Array, crc: number = CRC16.init): number => {
  let c = crc & 0xffff
  const pairs = data.length & ~1
  let i = 0
  for (; i < pairs; i += 2) {
    const x = c ^ ((data[i]! << 8) | data[i + 1]!)
    c = T1[x >>> 8]! ^ T0[x & 0xff]!
  }
  if (i < data.length) c = ((c << 8) & 0xffff) ^ T0[((c >>> 8) ^ data[i]!) & 0xff]!
  return (c ^ CRC16.xorout) & 0xffff
}
