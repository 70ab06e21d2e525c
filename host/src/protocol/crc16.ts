/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, not reflected, xorout 0x0000), parameters from
 * the generated protocol tables. Check value: crc16("123456789") === CRC16.check (0x29B1).
 */
import { CRC16 } from '../core/generated.js'

const TABLE: Uint16Array = (() => {
  const t = new Uint16Array(256)
  for (let i = 0; i < 256; i++) {
    let c = i << 8
    for (let b = 0; b < 8; b++) c = c & 0x8000 ? ((c << 1) ^ CRC16.poly) & 0xffff : (c << 1) & 0xffff
    t[i] = c
  }
  return t
})()

/** CRC over `data`; pass a previous result as `crc` to continue over several pieces. */
export const crc16 = (data: Uint8Array, crc: number = CRC16.init): number => {
  let c = crc & 0xffff
  for (let i = 0; i < data.length; i++) c = ((c << 8) & 0xffff) ^ TABLE[((c >>> 8) ^ data[i]!) & 0xff]!
  return (c ^ CRC16.xorout) & 0xffff
}
