/**
 * Consistent Overhead Byte Stuffing. The encoded form contains no 0x00, so 0x00 delimits frames
 * on the wire. Decoding errors are returned as values, never thrown.
 */

/** Worst-case encoded length of `n` raw bytes (without the delimiter). */
export const cobsMaxEncodedLength = (n: number): number => n + Math.ceil(n / 254) + (n === 0 ? 1 : 0)

/** Encode `data`; the result has no 0x00 and does not include the trailing delimiter. */
export const cobsEncode = (data: Uint8Array): Buffer => {
  const out = Buffer.allocUnsafe(cobsMaxEncodedLength(data.length) + 1)
  let codeIdx = 0
  let o = 1
  let code = 1
  for (let i = 0; i < data.length; i++) {
    const b = data[i]!
    if (b === 0) {
      out[codeIdx] = code
      codeIdx = o++
      code = 1
    } else {
      out[o++] = b
      code++
      if (code === 0xff) {
        out[codeIdx] = code
        codeIdx = o++
        code = 1
      }
    }
  }
  out[codeIdx] = code
  return out.subarray(0, o)
}

export type CobsDecodeError = 'empty' | 'zero-byte' | 'truncated'
export type CobsDecodeResult = { ok: true; data: Buffer } | { ok: false; error: CobsDecodeError }

/**
 * Decode one COBS block (the bytes between two delimiters, delimiter excluded) into a fresh
 * Buffer (never a view of `enc`, which may be a pooled serialport buffer).
 */
export const cobsDecode = (enc: Uint8Array): CobsDecodeResult => {
  if (enc.length === 0) return { ok: false, error: 'empty' }
  // one native scan for a stray zero instead of a test per byte in the copy loop below
  if (enc.indexOf(0) !== -1) return { ok: false, error: 'zero-byte' }
  const out = Buffer.allocUnsafe(enc.length)
  let i = 0
  let o = 0
  while (i < enc.length) {
    const code = enc[i]!
    const end = i + code
    if (end > enc.length) return { ok: false, error: 'truncated' }
    for (let j = i + 1; j < end; j++) out[o++] = enc[j]!
    i = end
    if (code !== 0xff && i < enc.length) out[o++] = 0
  }
  // `out` is ours alone, so a view of it is as good as a copy
  return { ok: true, data: out.subarray(0, o) }
}
