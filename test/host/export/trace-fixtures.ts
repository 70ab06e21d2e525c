// A small synthetic TLP trace for the trace exports' tests: two reads (one split in two
// completions, one on a tag with T9/T8), a 3-DW MWr, an unexpected completion, a UR.
import { decodeTraceRecord, type Trace } from '../../../host/src/core/trace.js'

export const CLOCK_HZ = 250_000_000

/** a record's words: header DW0..DW3, clock low word, info (clock high, segment, stream, tap) */
export const recordWords = (
  dw: [number, number, number, number],
  clock: number,
  opts: { seg?: number; cpl?: boolean; tap?: number } = {},
): number[] => {
  const info = ((opts.tap ?? 0) << 24) | ((opts.cpl ? 1 : 0) << 18) | ((opts.seg ?? 0) << 16) | Math.floor(clock / 2 ** 32)
  return [...dw, clock % 2 ** 32, info >>> 0].map((w) => w >>> 0)
}

/** MRd 4DW: Fmt 001, Length, requester, tag (T9/T8 in DW0), BEs, 64-bit address */
export const mrdWords = (clock: number, tag: number, len: number, addr: number, rid = 0x0100, tap = 0): number[] =>
  recordWords(
    [
      (0b001 << 29) | (((tag >> 9) & 1) << 23) | (((tag >> 8) & 1) << 19) | (len & 0x3ff),
      (rid << 16) | ((tag & 0xff) << 8) | 0xff,
      Math.floor(addr / 2 ** 32),
      addr % 2 ** 32,
    ],
    clock,
    { tap },
  )

/** MWr 3DW: Fmt 010 Type 0, 32-bit address */
export const mwrWords = (clock: number, len: number, addr: number, rid = 0x0100): number[] =>
  recordWords([(0b010 << 29) | (len & 0x3ff), (rid << 16) | 0xff, addr, 0], clock)

/** CplD (or Cpl without data): completer 0x0001, status, Byte Count; requester, tag, lower address */
export const cplWords = (
  clock: number,
  tag: number,
  len: number,
  bc: number,
  o: { rid?: number; la?: number; status?: number; data?: boolean; seg?: number } = {},
): number[] =>
  recordWords(
    [
      ((o.data === false ? 0b000 : 0b010) << 29) | (((tag >> 9) & 1) << 23) | (((tag >> 8) & 1) << 19) | (0b01010 << 24) | (len & 0x3ff),
      (0x0001 << 16) | ((o.status ?? 0) << 13) | (bc & 0xfff),
      ((o.rid ?? 0x0100) << 16) | ((tag & 0xff) << 8) | (o.la ?? 0),
      0,
    ],
    clock,
    { cpl: true, seg: o.seg ?? 0 },
  )

export const syntheticTrace = (): Trace => {
  const words = [
    mrdWords(1000, 5, 32, 0x1_0000_1000), // 0: read, 128 B
    mrdWords(1001, 0x305, 16, 0x1_0000_2040), // 1: read on tag 0x305, 64 B
    mwrWords(1002, 1, 0x8000_0010), // 2
    cplWords(1250, 5, 16, 128), // 3: first half of read 0
    cplWords(1251, 9, 1, 4, { rid: 0x0200 }), // 4: of an earlier read (nobody read tag 9 in the trace)
    cplWords(1260, 5, 16, 64, { la: 0x40, seg: 1 }), // 5: second half: read 0 done
    cplWords(2 ** 33 + 5, 0x305, 0, 64, { status: 1, data: false }), // 6: UR ends read 1, a clock above 32 bits
  ]
  return {
    tap: 0,
    words,
    records: words.map((w) => decodeTraceRecord(w)),
    triggered: true,
    triggerIndex: 1,
    full: false,
    lost: 0,
  }
}
