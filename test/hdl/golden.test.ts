// Golden model unit tests (no simulator): hand-worked header decodes and completions, and the
// counter rule table checked against the generated counter list.
// Run: npx vitest run test/hdl/golden.test.ts
import { describe, expect, it } from 'vitest'
import { COUNTERS, SIZE_CLASSES } from '../../host/src/core/generated.js'
import {
  COUNTER_RULES, FILTER_WINDOW, PHASES, RULED_COUNTERS, buildCounterRules, completionFor, completionsFor, decode, expectedCounters, generate,
  inWindow, poisonSome, sizeClassOf, totals,
} from './golden.js'

// header image from DW0..DW3
const img = (dw0: number, dw1: number, dw2: number, dw3 = 0): bigint =>
  (BigInt(dw0 >>> 0) << 96n) | (BigInt(dw1 >>> 0) << 64n) | (BigInt(dw2 >>> 0) << 32n) | BigInt(dw3 >>> 0)

describe('golden model, hand-worked cases (requested bytes, docs/pcie.md)', () => {
  it.each([
    // [what, header, requested bytes, size-class counter]
    ['MRd 3DW 128 B', img(0x00000020, 0x010000ff, 0x1000), 128, 'mrd128'],
    ['MRd 4DW 32 B', img(0x20000008, 0x010000ff, 0x1, 0x80), 32, 'mrd32'],
    ['9 DW, FBE 1100, LBE 0011 = 32 B', img(0x00000009, 0x0100003c, 0x1000), 32, 'mrd32'],
    ['Length 1, FBE 0110 = 2 B', img(0x00000001, 0x01000006, 0x1000), 2, 'mrdOther'],
    ['Length 1, FBE 0101 = 3 B (span)', img(0x00000001, 0x01000005, 0x1000), 3, 'mrdOther'],
    ['zero-length read = 0 B', img(0x00000001, 0x01000000, 0x1000), 0, 'mrdOther'],
    ['Length 0 = 1024 DW = 4096 B', img(0x00000000, 0x010000ff, 0x1000), 4096, 'mrdOther'],
    ['Length 2, FBE 1000, LBE 0001 = 2 B', img(0x00000002, 0x01000018, 0x1000), 2, 'mrdOther'],
    ['MRd 64 DW = 256 B', img(0x00000040, 0x010000ff, 0x1000), 256, 'mrd256'],
    ['MRd 4DW 128 DW = 512 B', img(0x20000080, 0x010000ff, 0x1, 0x0), 512, 'mrd512'],
    ['129 DW, FBE 1000, LBE 0111 = 512 B', img(0x00000081, 0x01000078, 0x1000), 512, 'mrd512'],
  ])('%s', (_what, hdr, bytes, counter) => {
    const d = decode(hdr)
    expect(d.memRead).toBe(true)
    expect(d.bytes).toBe(bytes)
    expect(sizeClassOf(d.bytes).counter).toBe(counter)
  })

  it('builds the CplD and UR headers', () => {
    // MRd 3DW, tag 0x2a, requester 0x0100, 64 B at 0x1044 (lead 0)
    const c = completionFor(img(0x00000010, 0x01002aff, 0x00001044), 0)
    expect(c.hdr).toBe(img(0x4a000010, 0x02000040, 0x01002a44))
    expect(c.nDw).toBe(16)
    expect(c.addrDw).toBe(0x1044 >> 2)
    // zero-length read: 1 DW, Byte Count 1
    expect(completionFor(img(0x00000001, 0x01002a00, 0x00001044), 0).hdr).toBe(img(0x4a000001, 0x02000001, 0x01002a44))
    // Length 0 (4096 B): UR, Byte Count 4096 encodes as 0
    expect(completionFor(img(0x00000000, 0x01002aff, 0x00001000), 0).hdr).toBe(img(0x0a000000, 0x02002000, 0x01002a00))
    // MRdLk: UR; CfgRd0: UR with Byte Count 4, Lower Address 0
    expect(completionFor(img(0x01000001, 0x01002a0f, 0x00001004), 0).ur).toBe(true)
    expect(completionFor(img(0x04000001, 0x01002a0f, 0x01000010), 0).hdr).toBe(img(0x0a000000, 0x02002004, 0x01002a00))
    // split at 64-B boundaries: 128 B at 0x1020 (lead 0) is 32 + 64 + 32 B; Byte Count counts down
    const split = completionsFor(img(0x00000020, 0x01002aff, 0x00001020), 0, 64)
    expect(split.map((x) => x.hdr)).toEqual([
      img(0x4a000008, 0x02000080, 0x01002a20),
      img(0x4a000010, 0x02000060, 0x01002a40),
      img(0x4a000008, 0x02000020, 0x01002a00),
    ])
    expect(split.map((x) => x.addrDw)).toEqual([0x1020 >> 2, 0x1040 >> 2, 0x1080 >> 2])
    // 128 B at +32 with 128-B boundaries: 96 + 32; a first byte mid-DW (FBE 1100: lead 2) keeps its lower address
    expect(completionsFor(img(0x00000020, 0x01002aff, 0x00001020), 0, 128).map((x) => x.nDw)).toEqual([24, 8])
    const odd = completionsFor(img(0x00000011, 0x01002a3c, 0x0000103c), 0, 64)
    expect(odd.map((x) => [x.nDw, x.hdr & 0x7fn << 32n])).toEqual([
      [1, 0x3en << 32n],
      [16, 0x40n << 32n],
    ])
    // no split (0, or any value but 64 and 128), and every UR, is one completion
    expect(completionsFor(img(0x00000020, 0x01002aff, 0x00001020), 0, 0)).toHaveLength(1)
    expect(completionsFor(img(0x00000020, 0x01002aff, 0x00001020), 0, 96)).toHaveLength(1)
    expect(completionsFor(img(0x01000001, 0x01002a0f, 0x00001004), 0, 64)).toHaveLength(1)
    // MWr and Msg are posted
    expect(decode(img(0x40000001, 0x0100000f, 0x1000)).nonPosted).toBe(false)
    expect(decode(img(0x30000000, 0x01000000, 0, 0)).nonPosted).toBe(false)
  })
})

describe('golden model, writes, completions without data, poisoned TLPs', () => {
  const rule = (key: string) => RULED_COUNTERS.find((c) => c.key === key)!.rule
  const onRequest = (key: string, hdr: bigint, inWin = true) => {
    const r = rule(key)
    return r.kind === 'events' && r.request ? r.request(decode(hdr), inWin) : 0n
  }
  const onCompletion = (key: string, hdr: bigint) => {
    const r = rule(key)
    return r.kind === 'events' && r.completion ? r.completion({ hdr, addrDw: 0, nDw: 0, reqIndex: 0, ur: false }) : 0n
  }

  it.each([
    // [what, header, bytes written]
    ['MWr 3DW 16 DW', img(0x40000010, 0x010000ff, 0x1000), 64],
    ['MWr 4DW 3 DW, FBE 1100, LBE 0011', img(0x60000003, 0x0100003c, 0x1, 0x1000), 8],
    ['zero-length MWr (Length 1, FBE 0)', img(0x40000001, 0x01000000, 0x1000), 0],
  ])('%s: MWR_COUNT 1, MWR_BYTES by the enables, no MRd counter', (_what, hdr, bytes) => {
    expect(decode(hdr).memWrite).toBe(true)
    expect(onRequest('mwrCount', hdr)).toBe(1n)
    expect(onRequest('mwrBytes', hdr)).toBe(BigInt(bytes))
    expect(onRequest('mrdBytes', hdr)).toBe(0n)
    // outside the filter window a write counts nowhere
    expect(onRequest('mwrCount', hdr, false)).toBe(0n)
    expect(onRequest('mwrBytes', hdr, false)).toBe(0n)
  })

  it('counts no MWr for reads, messages with data, IO/configuration writes or atomics', () => {
    for (const dw0 of [0x00000010, 0x72000001, 0x42000001, 0x44000001, 0x4c000001, 0x4a000001]) {
      expect(onRequest('mwrCount', img(dw0, 0x010000ff, 0x1000)), dw0.toString(16)).toBe(0n)
    }
  })

  it('counts completions without data from the header: Cpl and CplLk of any status, never CplD', () => {
    expect(onCompletion('cplCount', img(0x0a000000, 0x02002004, 0x01002a00))).toBe(1n) // Cpl UR
    expect(onCompletion('cplCount', img(0x0b000000, 0x02000004, 0x01002a00))).toBe(1n) // CplLk SC
    expect(onCompletion('cplCount', img(0x4a000010, 0x02000040, 0x01002a44))).toBe(0n) // CplD
    expect(onCompletion('cplCount', img(0x4b000010, 0x02000040, 0x01002a44))).toBe(0n) // CplDLk
  })

  it('counts EP on either tap, on any TLP but a prefix, whatever the filter', () => {
    expect(onRequest('poisoned', img(0x40004010, 0x010000ff, 0x1000))).toBe(1n)        // poisoned MWr
    expect(onRequest('poisoned', img(0x40004010, 0x010000ff, 0x1000), false)).toBe(1n) // outside the window too
    expect(onRequest('poisoned', img(0x00004010, 0x010000ff, 0x1000))).toBe(1n)        // EP on a read: seen, counted
    expect(onRequest('poisoned', img(0x40000010, 0x010000ff, 0x1000))).toBe(0n)
    expect(onRequest('poisoned', img(0x90004000, 0, 0))).toBe(0n)                       // a prefix has no EP bit
    expect(onCompletion('poisoned', img(0x4a004010, 0x02000040, 0x01002a44))).toBe(1n)
    expect(onCompletion('poisoned', img(0x0a004000, 0x02002004, 0x01002a00))).toBe(1n)
    expect(onCompletion('poisoned', img(0x4a000010, 0x02000040, 0x01002a44))).toBe(0n)
  })

  it('poisons some of the probe-only bench completions, the same ones for a seed, and leaves the rest as the responder sends them', () => {
    const reqs = generate(1, 8)
    const cpls = expectedCounters(reqs).cpls
    const a = poisonSome(cpls, 1)
    expect(a).toEqual(poisonSome(cpls, 1))
    const ep = a.filter((c) => (c.hdr >> 110n) & 1n)
    expect(ep.length).toBeGreaterThan(cpls.length / 30)
    expect(ep.some((c) => c.ur) && ep.some((c) => !c.ur)).toBe(true)
    a.forEach((c, i) => expect(c.hdr & ~(1n << 110n)).toBe(cpls[i]!.hdr))
    expect(cpls.every((c) => ((c.hdr >> 110n) & 1n) === 0n)).toBe(true)
  })
})

describe('golden model counter rules follow the generated counter list', () => {
  it('has one rule per generated counter, in index order', () => {
    expect(RULED_COUNTERS.map((c) => c.key)).toEqual(COUNTERS.map((c) => c.key))
  })

  it('throws, naming the counter, for a counter that exists only in the spec', () => {
    // a key the spec cannot have yet: the suffix is not a valid counter-key character
    const extra = [...COUNTERS, { name: 'SPEC_ONLY', key: 'specOnly-unit-test', index: COUNTERS.length }]
    expect(() => buildCounterRules(extra)).toThrow(/counter SPEC_ONLY \(key 'specOnly-unit-test', index \d+\) has no rule/)
  })

  it('throws for a rule whose key is not a generated counter', () => {
    expect(() => buildCounterRules(COUNTERS, SIZE_CLASSES, { ...COUNTER_RULES, stale: { kind: 'cycles' } }))
      .toThrow(/rule for 'stale', which is not a counter key/)
    const withoutBarUr = COUNTERS.filter((c) => c.key !== 'barUr')
    expect(() => buildCounterRules(withoutBarUr)).toThrow(/rule for 'barUr'/)
  })

  it('gives a new size class its rule from the size-class table, with no golden-model edit', () => {
    const classes = [...SIZE_CLASSES.filter((c) => c.bytes !== null), { bytes: 1024, counter: 'mrd1024' }, ...SIZE_CLASSES.filter((c) => c.bytes === null)]
    const counters = [...COUNTERS, { name: 'MRD_1024', key: 'mrd1024', index: COUNTERS.length }]
    const ruled = buildCounterRules(counters, classes)
    const r1024 = ruled.find((c) => c.key === 'mrd1024')!.rule
    const other = ruled.find((c) => c.key === 'mrdOther')!.rule
    const read1024 = decode(img(0x00000100, 0x010000ff, 0x1000))
    const read4096 = decode(img(0x00000000, 0x010000ff, 0x1000))
    expect(r1024.kind === 'events' && r1024.request?.(read1024, true)).toBe(1n)
    expect(other.kind === 'events' && other.request?.(read1024, true)).toBe(0n)
    expect(other.kind === 'events' && other.request?.(read4096, true)).toBe(1n)
    // outside the filter window a read counts in no class
    expect(r1024.kind === 'events' && r1024.request?.(read1024, false)).toBe(0n)
  })

  it('moves every event counter in the default vectors (a counter that stays 0 proves nothing)', () => {
    const reqs = generate(1, 8)
    const t = totals(reqs, expectedCounters(reqs).cpls)
    const still = RULED_COUNTERS.filter((c, i) => c.rule.kind === 'events' && t[i] === 0n).map((c) => c.name)
    expect(still).toEqual([])
  })
})

describe('golden model, address filter (probe_addr_filter.v)', () => {
  it('judges the Address field as the RTL does: 3-DW and 4-DW headers, limit inclusive, off when limit < base', () => {
    const w = { base: 0x1000n, limit: 0x1_0000_0fffn }
    expect(inWindow(img(0x00000020, 0x010000ff, 0x1000), w)).toBe(true)          // 3DW at 0x1000: the base
    expect(inWindow(img(0x00000020, 0x010000ff, 0xffc), w)).toBe(false)          // 3DW just below
    expect(inWindow(img(0x20000008, 0x010000ff, 0x1, 0xffc), w)).toBe(true)      // 4DW at 0x1_0000_0ffc
    expect(inWindow(img(0x20000008, 0x010000ff, 0x1, 0x1000), w)).toBe(false)    // 4DW just past the limit
    expect(inWindow(img(0x20000008, 0x010000ff, 0x1, 0x1003), w)).toBe(false)    // address bits 1:0 are not address
    expect(inWindow(img(0x00000020, 0x010000ff, 0x0), { base: 2n, limit: 1n })).toBe(true) // limit < base: off
    expect(inWindow(img(0x00000020, 0x010000ff, 0x0), null)).toBe(true)
  })

  it('phase 3 filters: some reads in, some out, and only the reads inside count', () => {
    const p3 = PHASES.findIndex((p) => p.filter !== null)
    expect(PHASES[p3]!.filter).toBe(FILTER_WINDOW)
    const reqs = generate(1, 8)
    const reads = reqs.filter((q) => q.phase === p3 && decode(q.hdr).memRead)
    const inside = reads.filter((q) => inWindow(q.hdr, FILTER_WINDOW))
    expect(inside.length).toBeGreaterThan(reads.length / 5)
    expect(reads.length - inside.length).toBeGreaterThan(reads.length / 5)
    const e = expectedCounters(reqs)
    const mrdBytes = RULED_COUNTERS.findIndex((c) => c.key === 'mrdBytes')
    expect(e.reqCum.at(-1)![mrdBytes]).toBe(inside.reduce((a, q) => a + BigInt(decode(q.hdr).bytes), 0n))
    // writes follow the same window; poisoned TLPs count whatever it says
    const writes = reqs.filter((q) => q.phase === p3 && decode(q.hdr).memWrite)
    const writesIn = writes.filter((q) => inWindow(q.hdr, FILTER_WINDOW))
    expect(writesIn.length).toBeGreaterThan(0)
    expect(writesIn.length).toBeLessThan(writes.length)
    const mwrCount = RULED_COUNTERS.findIndex((c) => c.key === 'mwrCount')
    expect(e.reqCum.at(-1)![mwrCount]).toBe(BigInt(writesIn.length))
    const poisoned = RULED_COUNTERS.findIndex((c) => c.key === 'poisoned')
    expect(e.reqCum.at(-1)![poisoned]).toBe(BigInt(reqs.filter((q) => q.phase === p3 && decode(q.hdr).poisoned).length))
  })
})
