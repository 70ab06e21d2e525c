// host/src/core/trace.ts: trace records decoded from their register words, and reads paired with
// their completions by the tracker's rules.
import { describe, expect, it } from 'vitest'
import { decodeTraceRecord, pairReads, type TraceRecord } from '../../../host/src/core/trace.js'

// a record's words: header DW0..DW3, clock low word, info (clock high, segment, stream, tap)
function words(dw: [number, number, number, number], clock: number, opts: { seg?: number; cpl?: boolean; tap?: number } = {}): number[] {
  const info = ((opts.tap ?? 0) << 24) | ((opts.cpl ? 1 : 0) << 18) | ((opts.seg ?? 0) << 16) | Math.floor(clock / 2 ** 32)
  return [...dw, clock % 2 ** 32, info >>> 0]
}
// MRd 4DW: Fmt 001, Length, requester, tag, BEs, 64-bit address
const mrd = (clock: number, tag: number, len: number, addr: number, rid = 0x0100, be = 0xff) =>
  decodeTraceRecord(
    words([(0b001 << 29) | (len & 0x3ff), (rid << 16) | ((tag & 0xff) << 8) | be, Math.floor(addr / 2 ** 32), addr % 2 ** 32], clock),
  )
// CplD: Fmt 010 Type 01010, Length, status, Byte Count; requester, tag, lower address
const cpld = (
  clock: number,
  tag: number,
  len: number,
  bc: number,
  opts: { rid?: number; la?: number; status?: number; data?: boolean } = {},
) =>
  decodeTraceRecord(
    words(
      [
        ((opts.data === false ? 0b000 : 0b010) << 29) | (0b01010 << 24) | (len & 0x3ff),
        (0x0001 << 16) | ((opts.status ?? 0) << 13) | (bc & 0xfff),
        ((opts.rid ?? 0x0100) << 16) | ((tag & 0xff) << 8) | (opts.la ?? 0),
        0,
      ],
      clock,
      { cpl: true },
    ),
  )

describe('decodeTraceRecord', () => {
  it('reads the header fields, the 48-bit clock, segment, stream and tap', () => {
    const r = decodeTraceRecord(
      words([(0b001 << 29) | (1 << 23) | (1 << 19) | 32, 0x0200_2a_ff, 0x1, 0x2000_0040], 2 ** 40 + 7, { seg: 3, tap: 1 }),
    )
    expect(r).toMatchObject({ kind: 'MRD', clock: 2 ** 40 + 7, segment: 3, stream: 'request', tap: 1, lengthDw: 32 })
    expect(r.tag).toBe(0x32a) // T9, T8 and 0x2a
    expect(r.requesterId).toBe(0x0200)
    expect(r.address).toBe(2 ** 32 + 0x2000_0040)
    expect(r.requestedBytes).toBe(128)
  })
  it('applies the byte enables, reads Length 0 as 1024 DW and a 3-DW address', () => {
    // Length 2, FirstBE 1100 (2 skipped), LastBE 0011 (2 skipped): 4 bytes
    const r = decodeTraceRecord(words([2, 0x0100_0000 | 0x3c, 0x8000_0004, 0], 0))
    expect(r.requestedBytes).toBe(4)
    expect(r.address).toBe(0x8000_0004)
    expect(decodeTraceRecord(words([0, 0x0f, 0, 0], 0)).lengthDw).toBe(1024)
    expect(decodeTraceRecord(words([1, 0x00, 0, 0], 0)).requestedBytes).toBe(0)
  })
  it('reads a completion: requester and tag from DW2, status, Byte Count (0 is 4096), lower address', () => {
    const c = cpld(5, 9, 16, 0, { la: 0x42, status: 0 })
    expect(c).toMatchObject({
      kind: 'CPLD',
      stream: 'completion',
      tag: 9,
      requesterId: 0x0100,
      byteCount: 4096,
      lowerAddress: 0x42,
      status: 0,
    })
    expect(cpld(5, 9, 0, 4, { data: false, status: 1 }).kind).toBe('CPL')
    expect(decodeTraceRecord(words([(0b010 << 29) | 4, 0, 0, 0], 0)).kind).toBe('MWR')
    expect(decodeTraceRecord(words([(0b000 << 29) | (0b00100 << 24) | 1, 0, 0, 0], 0)).kind).toBe('OTHER')
    expect(() => decodeTraceRecord([1, 2, 3])).toThrow(RangeError)
  })
})

describe('pairReads', () => {
  it('pairs split completions with their read by requester and tag: latencies, bytes, end', () => {
    const recs: TraceRecord[] = [
      mrd(100, 1, 64, 0x1000), // 256 B
      mrd(101, 2, 32, 0x2000), // 128 B
      cpld(150, 1, 32, 256), // first half of tag 1
      cpld(160, 2, 32, 128), // all of tag 2
      cpld(170, 1, 32, 128), // last half of tag 1
    ]
    const p = pairReads(recs)
    expect(p.unexpected).toEqual([])
    expect(p.reads).toHaveLength(2)
    expect(p.reads[0]).toMatchObject({
      tag: 1,
      requestedBytes: 256,
      firstLatency: 50,
      lastLatency: 70,
      bytes: 256,
      completions: 2,
      end: 'done',
      records: [0, 2, 4],
    })
    expect(p.reads[1]).toMatchObject({ tag: 2, firstLatency: 59, lastLatency: 59, bytes: 128, end: 'done' })
  })
  it('counts a lower address in the first completion, ends a read on an error status, leaves an unanswered one open', () => {
    const p = pairReads([
      mrd(0, 3, 2, 0x1004, 0x0100, 0xfe),
      cpld(9, 3, 2, 7, { la: 0x05 }),
      mrd(10, 4, 1, 0x0),
      cpld(20, 4, 0, 4, { data: false, status: 1 }),
      mrd(30, 5, 1, 0),
    ])
    expect(p.reads[0]).toMatchObject({ bytes: 7, end: 'done', lastLatency: 9 })
    expect(p.reads[1]).toMatchObject({ end: 'error', lastLatency: 10, bytes: 0 })
    expect(p.reads[1]!.firstLatency).toBeUndefined()
    expect(p.reads[2]!.end).toBe('open')
    expect(p.reads[2]!.lastLatency).toBeUndefined()
  })
  it('calls a completion unexpected when no read is outstanding on its tag and requester, or in the same clock as its read', () => {
    const p = pairReads([mrd(0, 1, 1, 0), cpld(0, 1, 1, 4), cpld(5, 1, 1, 4, { rid: 0x0300 }), cpld(6, 7, 1, 4), cpld(7, 1, 1, 4)])
    expect(p.unexpected).toEqual([1])
    expect(p.earlier).toEqual([2, 3]) // no read of requester 0x0300, nor on tag 7, is in the trace
    expect(p.reads[0]).toMatchObject({ end: 'done', lastLatency: 7 })
  })
  it('tells completions of reads made before the first record from unexpected ones', () => {
    // tag 2 answered before its first read is recorded, then read and answered, then answered again
    const p = pairReads([cpld(0, 2, 1, 4), mrd(1, 2, 1, 0), cpld(5, 2, 1, 4), cpld(9, 2, 1, 4)])
    expect(p.earlier).toEqual([0])
    expect(p.unexpected).toEqual([3])
    expect(p.reads).toHaveLength(1)
  })
})
