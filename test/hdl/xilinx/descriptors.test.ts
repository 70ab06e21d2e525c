// The descriptor tables and the field packer of the adapter vectors: no simulator needed.
import { describe, expect, it } from 'vitest'
import * as d from './descriptors.js'

const TABLES: Array<[string, d.Table, number]> = [
  ['CQ_DESC', d.CQ_DESC, 128], ['CC_DESC', d.CC_DESC, 96], ['RQ_DESC', d.RQ_DESC, 128], ['RC_DESC', d.RC_DESC, 96],
  ['CQ_USER_512', d.CQ_USER_512, d.USER_WIDTH.cq[512]], ['CQ_USER_256', d.CQ_USER_256, d.USER_WIDTH.cq[256]],
  ['RC_USER_512', d.RC_USER_512, d.USER_WIDTH.rc[512]], ['RC_USER_256', d.RC_USER_256, d.USER_WIDTH.rc[256]],
  ['RQ_USER_512', d.RQ_USER_512, d.USER_WIDTH.rq[512]], ['RQ_USER_256', d.RQ_USER_256, d.USER_WIDTH.rq[256]],
  ['CC_USER_512', d.CC_USER_512, d.USER_WIDTH.cc[512]], ['CC_USER_256', d.CC_USER_256, d.USER_WIDTH.cc[256]],
  ['HDR', d.HDR, 128], ['CPL_HDR', d.CPL_HDR, 128],
]

describe('field tables', () => {
  it.each(TABLES)('%s: no overlapping fields, within %i bits', (_, t, width) => {
    let used = 0n
    for (const fl of t) {
      const mask = ((1n << BigInt(fl.width)) - 1n) << BigInt(fl.lsb)
      expect(used & mask, fl.name).toBe(0n)
      used |= mask
    }
    expect(d.tableWidth(t)).toBeLessThanOrEqual(width)
  })

  it('packs and unpacks field by field', () => {
    const v = { at: 2, addr: 0x1234_5678_9abc_defn >> 2n, dwords: 1024, reqType: 1, reqId: 0xbeef, tag: 0x5a, tc: 5, attr: 6 }
    const u = d.unpack(d.CQ_DESC, d.pack(d.CQ_DESC, v))
    for (const [k, x] of Object.entries(v)) expect(u[k]).toBe(BigInt(x))
    expect(d.pack(d.RC_DESC, { error: 9 })).toBe(9n << 12n)
  })

  it('refuses unknown fields and values too wide', () => {
    expect(() => d.pack(d.CC_DESC, { nope: 1 })).toThrow(/no field nope/)
    expect(() => d.pack(d.CC_DESC, { tc: 8 })).toThrow(/does not fit 3 bits/)
  })
})

describe('vectors', () => {
  it('round trip: every RQ read is answered by RC completions carrying its IDs', () => {
    const v = d.buildVectors(3, 512, true, 100)
    expect(v.roundTrip.reads).toBeGreaterThan(20)
    expect(v.rc.expect.filter((b) => b.sop).length).toBe(v.roundTrip.completions)
  })

  it('straddles: some 512-bit CQ and RC beats start two or more TLPs', () => {
    const v = d.buildVectors(1, 512, true, 200)
    const starts = (u: bigint, t: d.Table) => Object.entries(d.unpack(t, u)).filter(([k, x]) => /^isSop\d$/.test(k) && x === 1n).length
    expect(v.cq.input.some((b) => starts(b.user, d.CQ_USER_512) === 2)).toBe(true)
    expect(v.rc.input.some((b) => starts(b.user, d.RC_USER_512) >= 3)).toBe(true)
    const flat = d.buildVectors(1, 512, false, 200)
    expect(flat.cq.input.every((b) => starts(b.user, d.CQ_USER_512) <= 1)).toBe(true)
  })

  it('a 3-DW request below 4 GiB and a 4-DW one above it', () => {
    const base = { kind: 'MRd' as const, target: 0, lenDw: 1, reqId: 1, tag: 2, tc: 0, attr: 0, at: 0, ep: 0, firstBe: 15, lastBe: 0, payload: [] }
    expect(d.unpack(d.HDR, d.reqHeader({ ...base, addr: 0xffff_fffcn })).fmt).toBe(0n)
    const h = d.unpack(d.HDR, d.reqHeader({ ...base, addr: 0x1_0000_0000n }))
    expect([h.fmt, h.dw2, h.dw3]).toEqual([1n, 1n, 0n])
  })
})

describe('vectors in the Versal form (tlast framing)', () => {
  it.each([512, 1024] as const)('%i bits: every TLP starts a beat at DW0, tkeep is contiguous, tuser fits', (width) => {
    const v = d.buildVectors(2, width, false, 120, 'tlast')
    const w = width / 32
    for (const kind of ['cq', 'rc', 'rq', 'cc'] as const) {
      const beats = kind === 'cq' || kind === 'rc' ? v[kind].input : v[kind].expect
      let inTlp = false
      for (const b of beats) {
        // contiguous from DW0; only a tlast beat may be short
        const keep = BigInt(b.keep >>> 0)
        expect(keep & (keep + 1n), kind).toBe(0n)
        if (!b.last) expect(keep, kind).toBe((1n << BigInt(w)) - 1n)
        expect(b.user >> BigInt(d.VERSAL_USER_WIDTH[kind][width]), kind).toBe(0n)
        inTlp = !b.last
      }
      expect(inTlp, `${kind} ends on a tlast`).toBe(false)
    }
    // the transmit side writes only the byte enables, on a TLP's first beat
    const be = d.versalBeTable(w, 64)
    const firsts = v.rq.expect.filter((_, i, a) => i === 0 || a[i - 1]!.last)
    expect(firsts.some((b) => b.user !== 0n)).toBe(true)
    expect(v.rq.expect.filter((b) => !firsts.includes(b)).every((b) => b.user === 0n)).toBe(true)
    expect(firsts.every((b) => d.unpack(be, b.user).rest === 0n)).toBe(true)
    expect(v.cc.expect.every((b) => b.user === 0n)).toBe(true)
    expect(v.roundTrip.reads).toBeGreaterThan(20)
  })

  it('has no straddle', () => {
    expect(() => d.buildVectors(1, 512, true, 10, 'tlast')).toThrow(/no straddle/)
  })
})
