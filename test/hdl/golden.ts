// Golden model for the pcie_scope_bar_top and probe_counters testbenches.
//
// Writes random request vectors, the completions the BAR responder must send and the
// counter values the probe must reach, as $readmemh files. The rules are written here
// from docs/contracts.md §1 and docs/pcie.md (TLP header layout with DW0 in [127:96],
// Fmt/Type decode, Length and byte enables to requested bytes, completion fields),
// independently of the RTL.
//
// Counters come from the generated list (COUNTERS, host/src/core/generated.ts): every counter
// key has exactly one rule in COUNTER_RULES below, checked when this module loads, so a counter
// added to spec/registers.json without a rule here stops every HDL test with its name.
//
// usage: tsx test/hdl/golden.ts [--out build/hdl/golden] [--seed N] [--strb 8] [--scale 1] [--mps 256]

import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { COUNTERS, SIZE_CLASSES, type CounterKey } from '../../host/src/core/generated.js'

export const COMPLETER_ID = 0x0200
export const MAX_PAYLOAD_BYTES = 256

/** Testbench phases: the TB program (hdl/tb/tb_pcie_scope_bar_top.sv) runs them in this order. */
// split: CPL_SPLIT in force (0: one CplD per read; 64 or 128: split at that boundary)
// filter: the address filter window in force (FILTER_*), null when off
export interface FilterWindow { base: bigint; limit: bigint }
/** Phase 3's window: about half of the generated reads (addresses are half below 4 GiB, half above) fall inside. */
export const FILTER_WINDOW: FilterWindow = { base: 0x8000_0000n, limit: 0x7fff_ffff_ffff_ffffn }
export const PHASES = [
  { name: 'latency-exact', enabled: true, clearBefore: false, split: 0, filter: null },  // BAR_LATENCY 250, tx always ready, wide gaps
  { name: 'stress', enabled: true, clearBefore: false, split: 64, filter: null },        // BAR_LATENCY 7, random tx ready, back to back
  { name: 'disabled', enabled: false, clearBefore: false, split: 128, filter: null },    // CTRL.ENABLE = 0: counters must not move
  { name: 'after-clear', enabled: true, clearBefore: true, split: 128, filter: FILTER_WINDOW }, // CMD.CLEAR, BAR_LATENCY 0, filter on
] as const

/**
 * The address filter's rule (probe_addr_filter.v, hdl/README.md): the header's Address field as a
 * dword-aligned byte address (64-bit for a 4-DW header) inside [base, limit]; no window, or a limit
 * below the base, lets everything through.
 */
export function inWindow(hdr: bigint, w: FilterWindow | null): boolean {
  if (w === null || w.limit < w.base) return true
  const fourDw = field(hdr, 125, 125) === 1
  const addr = fourDw ? (BigInt(field(hdr, 63, 32)) << 32n) | (BigInt(field(hdr, 31, 2)) << 2n) : BigInt(field(hdr, 63, 34)) << 2n
  return addr >= w.base && addr <= w.limit
}

export interface Request {
  phase: number
  hdr: bigint          // 128-bit header image, DW0 in [127:96]
  gap: number          // idle clocks before the TLP
  beats: number        // payload beats (0: header only, one beat)
}

export interface Decoded {
  memRead: boolean; locked: boolean; lenDw: number; lead: number; bytes: number; zeroLen: boolean
  nonPosted: boolean; answerData: boolean
  /** MWr (Fmt 01x, Type 00000): `bytes` is what its enables write, by the read rule */
  memWrite: boolean
  /** EP set (DW0 bit 14) on a TLP that is not a prefix */
  poisoned: boolean
}

/** Mulberry32: small seeded PRNG, same sequence on every platform. */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const field = (hdr: bigint, hi: number, lo: number): number => Number((hdr >> BigInt(lo)) & ((1n << BigInt(hi - lo + 1)) - 1n))

/** Offset of the first enabled byte (0 for an all-zero enable). */
export function leadOf(be: number): number {
  for (let i = 0; i < 4; i++) if (be & (1 << i)) return i
  return 0
}
/** Bytes after the last enabled byte (0 for an all-zero enable). */
export function trailOf(be: number): number {
  for (let i = 3; i >= 0; i--) if (be & (1 << i)) return 3 - i
  return 0
}

export function decode(hdr: bigint, mps = MAX_PAYLOAD_BYTES): Decoded {
  const fmt = field(hdr, 127, 125)
  const type = field(hdr, 124, 120)
  const lenRaw = field(hdr, 105, 96)
  const lbe = field(hdr, 71, 68)
  const fbe = field(hdr, 67, 64)
  const lenDw = lenRaw === 0 ? 1024 : lenRaw
  const memRead = (fmt >> 1) === 0 && (type >> 1) === 0
  const locked = (type & 1) === 1
  const zeroLen = lenDw === 1 && fbe === 0
  const lead = leadOf(fbe)
  const trail = trailOf(lenDw === 1 ? fbe : lbe)
  const bytes = zeroLen ? 0 : lenDw * 4 - lead - trail
  const prefix = (fmt & 4) !== 0
  const io = type === 0b00010
  const cfg = (type >> 1) === 0b0010
  const atomic = (type >> 2) === 0b011 && type !== 0b01111
  const nonPosted = !prefix && (memRead || io || cfg || atomic)
  const answerData = memRead && !locked && lenDw * 4 <= mps
  const memWrite = (fmt >> 1) === 0b01 && type === 0
  const poisoned = !prefix && field(hdr, 110, 110) === 1
  return { memRead, locked, lenDw, lead, bytes, zeroLen, nonPosted, answerData, memWrite, poisoned }
}

/** Size classes as generated from spec/registers.json: `bytes` null for the catch-all. */
export interface SizeClassEntry { readonly bytes: number | null; readonly counter: string }

/** The size class of a memory read of `bytes` requested bytes: the exact class, else the catch-all. */
export function sizeClassOf(bytes: number, classes: readonly SizeClassEntry[] = SIZE_CLASSES): SizeClassEntry {
  const exact = classes.find((c) => c.bytes === bytes)
  const other = classes.find((c) => c.bytes === null)
  const cls = exact ?? other
  if (!cls) throw new Error(`golden model: no size class for ${bytes} bytes and no catch-all class in SIZE_CLASSES`)
  return cls
}

/** DW-aligned address bits [31:2] of a memory request. */
function addrDw(hdr: bigint): number {
  const fmt = field(hdr, 127, 125)
  return (fmt & 1) ? field(hdr, 31, 2) : field(hdr, 63, 34)
}

export interface Completion { hdr: bigint; addrDw: number; nDw: number; reqIndex: number; ur: boolean }

/** The completion the BAR responder must send for a non-posted request (no split); reads above `mps` bytes get UR. */
export function completionFor(hdr: bigint, reqIndex: number, mps = MAX_PAYLOAD_BYTES): Completion {
  const d = decode(hdr, mps)
  const a = addrDw(hdr)
  const ur = !d.answerData
  const byteCount = !d.memRead ? 4 : (d.zeroLen ? 1 : d.bytes & 0xfff)
  const lowerAddr = d.memRead ? (((a & 0x1f) << 2) | d.lead) : 0
  return cplOf(hdr, reqIndex, { ur, addrDw: a, nDw: ur ? 0 : d.lenDw, byteCount, lowerAddr })
}

/**
 * The completions for a request with CPL_SPLIT = split: a read answered with data is cut at
 * every multiple of `split` bytes of address (64 or 128, a root complex's Read Completion
 * Boundary); each CplD carries the bytes still to come as Byte Count and its first byte's
 * address as Lower Address. Any other split value, and every UR, is one completion.
 */
export function completionsFor(hdr: bigint, reqIndex: number, split: number, mps = MAX_PAYLOAD_BYTES): Completion[] {
  const whole = completionFor(hdr, reqIndex, mps)
  if (whole.ur || (split !== 64 && split !== 128)) return [whole]
  const d = decode(hdr)
  let first = addrDw(hdr) * 4 + d.lead
  let left = d.zeroLen ? 1 : d.bytes
  const out: Completion[] = []
  for (;;) {
    const bound = (Math.floor(first / split) + 1) * split
    const last = first + left <= bound
    const end = last ? first + left : bound
    const addrDwFirst = Math.floor(first / 4)
    const nDw = Math.ceil(end / 4) - addrDwFirst
    out.push(cplOf(hdr, reqIndex, { ur: false, addrDw: addrDwFirst, nDw, byteCount: left & 0xfff, lowerAddr: first & 0x7f }))
    if (last) return out
    left -= end - first
    first = end
  }
}

function cplOf(hdr: bigint, reqIndex: number, f: { ur: boolean; addrDw: number; nDw: number; byteCount: number; lowerAddr: number }): Completion {
  const { ur, nDw, byteCount, lowerAddr } = f
  const tag10 = (field(hdr, 119, 119) << 9) | (field(hdr, 115, 115) << 8) | field(hdr, 79, 72)
  const tc = field(hdr, 118, 116)
  const attr2 = field(hdr, 114, 114)
  const attr10 = field(hdr, 109, 108)
  const reqId = field(hdr, 95, 80)
  const dw0 = ((ur ? 0x0a : 0x4a) << 24) | ((tag10 >> 9) << 23) | (tc << 20) | (((tag10 >> 8) & 1) << 19) |
    (attr2 << 18) | (attr10 << 12) | (nDw & 0x3ff)
  const dw1 = (COMPLETER_ID << 16) | ((ur ? 1 : 0) << 13) | byteCount
  const dw2 = (reqId << 16) | ((tag10 & 0xff) << 8) | lowerAddr
  const h = (BigInt(dw0 >>> 0) << 96n) | (BigInt(dw1 >>> 0) << 64n) | (BigInt(dw2 >>> 0) << 32n)
  return { hdr: h, addrDw: f.addrDw, nDw, reqIndex, ur }
}

interface HdrFields {
  fmt: number; type: number; len: number; fbe: number; lbe: number; addr: bigint
  tag?: number; tc?: number; attr?: number; reqId?: number; dw2?: number; dw3?: number; ep?: boolean
}

function build(f: HdrFields): bigint {
  const tag = f.tag ?? 0
  const attr = f.attr ?? 0
  const dw0 = (f.fmt << 29) | (f.type << 24) | ((tag >> 9) << 23) | ((f.tc ?? 0) << 20) | (((tag >> 8) & 1) << 19) |
    ((attr >> 2) << 18) | ((f.ep ? 1 : 0) << 14) | ((attr & 3) << 12) | (f.len & 0x3ff)
  const dw1 = ((f.reqId ?? 0) << 16) | ((tag & 0xff) << 8) | (f.lbe << 4) | f.fbe
  let dw2: number, dw3: number
  if (f.dw2 !== undefined) { dw2 = f.dw2; dw3 = f.dw3 ?? 0 }
  else if (f.fmt & 1) { dw2 = Number(f.addr >> 32n); dw3 = Number(f.addr & 0xfffffffcn) }
  else { dw2 = Number(f.addr & 0xfffffffcn); dw3 = 0 }
  return (BigInt(dw0 >>> 0) << 96n) | (BigInt(dw1 >>> 0) << 64n) | (BigInt(dw2 >>> 0) << 32n) | BigInt(dw3 >>> 0)
}

/** Random request generator: GPU-like reads plus every corner the probe and responder must handle. */
export function generate(seed: number, strb: number, scale = 1): Request[] {
  const r = rng(seed)
  const int = (n: number) => Math.floor(r() * n)
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!
  const common = () => ({ tag: int(1024), tc: int(8), attr: int(8), reqId: int(0x10000) })
  const addr64 = (): bigint => {
    const hi = r() < 0.5 ? 0n : BigInt(1 + int(0xffffffff))
    return (hi << 32n) | BigInt(int(0x100000000))
  }
  const memFmt = (addr: bigint, read: boolean): number => {
    // below 4 GiB a 3DW header is required; exercise a 4DW with a zero high word now and then
    const four = (addr >> 32n) !== 0n || r() < 0.1
    return (read ? 0 : 2) | (four ? 1 : 0)
  }
  const beatsFor = (dw: number) => Math.ceil(dw / strb)
  // EP on TLPs with data (a transmitter may set it only there; the probe counts it on any TLP)
  const poison = () => r() < 0.08
  const exactSizes = SIZE_CLASSES.flatMap((c) => (c.bytes === null ? [] : [c.bytes]))

  const gpuRead = (): bigint => {
    const size = pick([32, 64, 96, 128])
    const line = addr64() & ~0x7fn
    const addr = line + BigInt(32 * int((128 - size) / 32 + 1))
    return build({ fmt: memFmt(addr, true), type: 0, len: size / 4, fbe: 0xf, lbe: 0xf, addr, ...common() })
  }
  const oddRead = (): bigint => {
    const c = int(6)
    const addr = addr64() & ~3n
    if (c === 0) {
      // partial enables that still request exactly an exact class's bytes: classed by bytes, not Length
      const size = pick(exactSizes.filter((b) => b < 4096))
      const [fbe, lbe] = pick([[0xc, 0x3], [0x8, 0x7], [0xe, 0x1]] as const)
      return build({ fmt: memFmt(addr, true), type: 0, len: size / 4 + 1, fbe, lbe, addr, ...common() })
    }
    if (c === 1) {
      // one DW, any non-zero enable (non-contiguous is legal here)
      return build({ fmt: memFmt(addr, true), type: 0, len: 1, fbe: 1 + int(15), lbe: 0, addr, ...common() })
    }
    if (c === 2) {
      return build({ fmt: memFmt(addr, true), type: 0, len: 2, fbe: 1 + int(15), lbe: 1 + int(15), addr, ...common() })
    }
    const len = 3 + int(62)
    return build({
      fmt: memFmt(addr, true), type: 0, len, fbe: pick([0xf, 0xe, 0xc, 0x8]), lbe: pick([0xf, 0x7, 0x3, 0x1]), addr, ...common(),
    })
  }

  const kinds: Array<[number, () => { hdr: bigint, beats: number }]> = [
    [45, () => ({ hdr: gpuRead(), beats: 0 })],
    [15, () => ({ hdr: oddRead(), beats: 0 })],
    [6, () => { // every exact size class, whole DWs (those above MAX_PAYLOAD_BYTES get UR)
      const size = pick(exactSizes)
      const addr = addr64() & ~3n
      return { hdr: build({ fmt: memFmt(addr, true), type: 0, len: size / 4, fbe: 0xf, lbe: size > 4 ? 0xf : 0, addr, ...common() }), beats: 0 }
    }],
    [3, () => { // zero-length read
      const addr = addr64() & ~3n
      return { hdr: build({ fmt: memFmt(addr, true), type: 0, len: 1, fbe: 0, lbe: 0, addr, ...common() }), beats: 0 }
    }],
    [5, () => { // longer than MAX_PAYLOAD_BYTES (Length 0 = 1024 DW): UR
      const addr = addr64() & ~3n
      const len = pick([0, 65, 128, 1023, 0, 66 + int(900)])
      return { hdr: build({ fmt: memFmt(addr, true), type: 0, len, fbe: pick([0xf, 0xe]), lbe: pick([0xf, 0x3]), addr, ...common() }), beats: 0 }
    }],
    [2, () => { // MRdLk: a memory read on the wire, UR from an endpoint
      const addr = addr64() & ~3n
      return { hdr: build({ fmt: memFmt(addr, true), type: 1, len: 8, fbe: 0xf, lbe: 0xf, addr, ...common() }), beats: 0 }
    }],
    [10, () => { // MWr: posted, dropped; partial enables, now and then zero-length (Length 1, FirstBE 0)
      const addr = addr64() & ~3n
      const len = 1 + int(40)
      const fbe = len === 1 ? int(16) : pick([0xf, 0xf, 0xe, 0xc, 0x8])
      const lbe = len > 1 ? pick([0xf, 0xf, 0x7, 0x3, 0x1]) : 0
      return { hdr: build({ fmt: memFmt(addr, false), type: 0, len, fbe, lbe, addr, ...common(), ep: poison() }), beats: beatsFor(len) }
    }],
    [3, () => { // Msg / MsgD: posted, dropped
      const data = r() < 0.5
      return {
        hdr: build({ fmt: data ? 3 : 1, type: 0x10 | int(6), len: data ? 1 : 0, fbe: int(16), lbe: int(16), addr: 0n, dw2: int(0x100000000), dw3: int(0x100000000), ...common(), ep: data && poison() }),
        beats: data ? 1 : 0,
      }
    }],
    [5, () => { // configuration and IO requests: UR
      const c = int(4)
      const type = [0b00100, 0b00101, 0b00010, 0b00010][c]!
      const write = r() < 0.5
      return {
        hdr: build({ fmt: write ? 2 : 0, type, len: 1, fbe: 1 + int(15), lbe: 0, addr: BigInt(int(0x100000000)), ...common(), ep: write && poison() }),
        beats: write ? 1 : 0,
      }
    }],
    [2, () => { // atomics (FetchAdd / Swap / CAS): non-posted with data, UR
      const addr = addr64() & ~7n
      const type = pick([0b01100, 0b01101, 0b01110])
      const len = type === 0b01110 ? 2 : 1
      return { hdr: build({ fmt: memFmt(addr, false), type, len, fbe: 0, lbe: 0, addr, ...common(), ep: poison() }), beats: beatsFor(len) }
    }],
    [1, () => { // a completion on the request stream: dropped
      return { hdr: build({ fmt: 2, type: 0b01010, len: 1, fbe: 0, lbe: 0, addr: BigInt(int(0x100000000)), ...common(), ep: poison() }), beats: 1 }
    }],
  ]
  const total = kinds.reduce((s, [w]) => s + w, 0)
  const anyRequest = () => {
    let x = r() * total
    for (const [w, f] of kinds) { if ((x -= w) < 0) return f() }
    return kinds[0]![1]()
  }

  const out: Request[] = []
  const n = (k: number) => Math.max(1, Math.round(k * scale))
  for (let i = 0; i < n(24); i++) out.push({ phase: 0, hdr: gpuRead(), gap: 8 + int(13), beats: 0 })
  for (let i = 0; i < n(1500); i++) {
    const q = anyRequest()
    out.push({ phase: 1, ...q, gap: r() < 0.85 ? 0 : 1 + int(3) })
  }
  for (let i = 0; i < n(80); i++) out.push({ phase: 2, ...anyRequest(), gap: int(3) })
  for (let i = 0; i < n(600); i++) out.push({ phase: 3, ...anyRequest(), gap: r() < 0.7 ? 0 : int(5) })
  return out
}

/*
 * Counter rules: one per counter key of the generated COUNTERS list.
 */

/**
 * How a counter moves. 'events' counters are fully predicted here: the increment each request
 * and each completion adds (while CTRL.ENABLE is set; CMD.CLEAR zeroes them). The other two kinds
 * depend on clock edges only the bench sees, so the bench checks them itself:
 * 'cycles' must equal the number of clocks while enabled, 'free' runs on every clock, is never
 * cleared, and must advance by exactly the clocks between two snapshots.
 * 'tracker' counters are probe_tracker's statistics (outstanding reads, latencies, completion
 * errors): they depend on the clock of every request and completion and on tag reuse, so the
 * tracker's own bench (hdl/tb/tb_probe_tracker.sv, with its cycle model, 1..4 segments) checks
 * them exactly, and the twin's tests check Little's law and the identities on real traffic;
 * the top bench reads them (they must elaborate and be readable) without predicting them.
 */
// A request rule is told whether the request lies inside the address filter's window (always
// true with the filter off): reads and writes outside count nowhere, POISONED counts the wire.
export type CounterRule =
  | { kind: 'cycles' }
  | { kind: 'free' }
  | { kind: 'tracker' }
  | { kind: 'events'; request?: (d: Decoded, inWindow: boolean) => bigint; completion?: (c: Completion) => bigint }

/** Bench code of each rule kind (counters.hex, read by hdl/tb/*.sv). */
export const RULE_CODE = { events: 0, cycles: 1, free: 2, tracker: 3 } as const

type SizeCounterKey = (typeof SIZE_CLASSES)[number]['counter']
type TrackerCounterKey = Extract<(typeof COUNTERS)[number], { source: 'tracker' }>['key']
/** Counters with a hand-written rule: every counter that is neither a size class nor the tracker's. */
export type FixedCounterKey = Exclude<CounterKey, SizeCounterKey>

/** The rule of every counter that is not a size class. A counter added to the spec needs one here. */
export const COUNTER_RULES: Record<FixedCounterKey, CounterRule> = {
  cycles: { kind: 'cycles' },
  timestamp: { kind: 'free' },
  mrdBytes: { kind: 'events', request: (d, inWin) => (d.memRead && inWin ? BigInt(d.bytes) : 0n) },
  cpldCount: { kind: 'events', completion: (c) => (c.ur ? 0n : 1n) },
  cpldBytes: { kind: 'events', completion: (c) => (c.ur ? 0n : BigInt(c.nDw * 4)) },
  barUr: { kind: 'events', completion: (c) => (c.ur ? 1n : 0n) },
  // from the completion's header (Fmt 000, Type 0101x), not from `ur`: the probe decodes the wire
  cplCount: { kind: 'events', completion: (c) => (field(c.hdr, 127, 125) === 0 && field(c.hdr, 124, 121) === 0b0101 ? 1n : 0n) },
  mwrCount: { kind: 'events', request: (d, inWin) => (d.memWrite && inWin ? 1n : 0n) },
  mwrBytes: { kind: 'events', request: (d, inWin) => (d.memWrite && inWin ? BigInt(d.bytes) : 0n) },
  poisoned: {
    kind: 'events',
    request: (d) => (d.poisoned ? 1n : 0n),
    completion: (c) => (field(c.hdr, 127, 127) === 0 && field(c.hdr, 110, 110) === 1 ? 1n : 0n),
  },
  ...trackerRules(),
}

/** Every counter the spec gives to probe_tracker gets the 'tracker' rule; no other counter can. */
function trackerRules(): Record<TrackerCounterKey, CounterRule> {
  return Object.fromEntries(COUNTERS.filter((c) => c.source === 'tracker').map((c) => [c.key, { kind: 'tracker' }])) as Record<
    TrackerCounterKey,
    CounterRule
  >
}

/** A size-class counter: one per memory read whose requested bytes fall in its class. */
function sizeClassRule(cls: SizeClassEntry, classes: readonly SizeClassEntry[]): CounterRule {
  return { kind: 'events', request: (d, inWin) => (d.memRead && inWin && sizeClassOf(d.bytes, classes) === cls ? 1n : 0n) }
}

export interface CounterEntry { readonly name: string; readonly key: string; readonly index: number }
export interface RuledCounter { name: string; key: string; index: number; rule: CounterRule }

/**
 * The rule of every counter, in counter-index order. Size-class counters take theirs from the
 * size-class table; every other counter must have exactly one entry in `fixed`. Throws, naming
 * the counters, when a counter has no rule or a rule names no counter.
 */
export function buildCounterRules(
  counters: readonly CounterEntry[] = COUNTERS,
  classes: readonly SizeClassEntry[] = SIZE_CLASSES,
  fixed: Readonly<Record<string, CounterRule>> = COUNTER_RULES,
): RuledCounter[] {
  const problems: string[] = []
  const keys = new Set(counters.map((c) => c.key))
  for (const cls of classes) {
    if (!keys.has(cls.counter)) problems.push(`size class ${cls.bytes ?? 'other'} names counter key '${cls.counter}', which is not in COUNTERS`)
  }
  const out = counters.map((c, i): RuledCounter | undefined => {
    if (c.index !== i) problems.push(`counter ${c.name} has index ${c.index}, expected ${i}`)
    const cls = classes.find((k) => k.counter === c.key)
    const hand = Object.hasOwn(fixed, c.key) ? fixed[c.key] : undefined
    if (cls && hand) problems.push(`counter ${c.name} (key '${c.key}') is a size class and also has a rule in COUNTER_RULES`)
    const rule = cls ? sizeClassRule(cls, classes) : hand
    if (!rule) {
      problems.push(`counter ${c.name} (key '${c.key}', index ${c.index}) has no rule: add '${c.key}' to COUNTER_RULES in test/hdl/golden.ts`)
      return undefined
    }
    return { name: c.name, key: c.key, index: c.index, rule }
  })
  for (const key of Object.keys(fixed)) {
    if (!keys.has(key)) problems.push(`COUNTER_RULES has a rule for '${key}', which is not a counter key in COUNTERS (spec/registers.json)`)
  }
  if (problems.length) throw new Error(`golden model: counters and rules disagree:\n  ${problems.join('\n  ')}`)
  return out as RuledCounter[]
}

/** Every generated counter with its rule; checked at module load. */
export const RULED_COUNTERS: readonly RuledCounter[] = buildCounterRules()

const requestIncrements = (d: Decoded, inWin: boolean): bigint[] =>
  RULED_COUNTERS.map(({ rule }) => (rule.kind === 'events' && rule.request ? rule.request(d, inWin) : 0n))
const completionIncrements = (c: Completion): bigint[] =>
  RULED_COUNTERS.map(({ rule }) => (rule.kind === 'events' && rule.completion ? rule.completion(c) : 0n))
const addInto = (acc: bigint[], inc: bigint[]): void => { inc.forEach((v, i) => { acc[i] = acc[i]! + v }) }

export interface Expected {
  reqCum: bigint[][]   // per request: every counter's request-driven part after it, counter-index order
  cpls: Completion[]
  cplCum: bigint[][]   // per completion: every counter's completion-driven part after it
}

/**
 * Expected counter values after each request / completion: count only in enabled phases, zero
 * at a clear. A counter's value at a snapshot is its reqCum part plus its cplCum part.
 */
export function expectedCounters(reqs: Request[], mps = MAX_PAYLOAD_BYTES): Expected {
  const n = RULED_COUNTERS.length
  const rx = new Array<bigint>(n).fill(0n)
  const tx = new Array<bigint>(n).fill(0n)
  const reqCum: bigint[][] = []
  const cpls: Completion[] = []
  const cplCum: bigint[][] = []
  let phase = -1
  reqs.forEach((q, i) => {
    if (q.phase !== phase) {
      phase = q.phase
      if (PHASES[phase]!.clearBefore) { rx.fill(0n); tx.fill(0n) }
    }
    const en = PHASES[phase]!.enabled
    const d = decode(q.hdr)
    // outside the filter window a read or write counts nowhere; completions still count (the wire's)
    if (en) addInto(rx, requestIncrements(d, inWindow(q.hdr, PHASES[phase]!.filter)))
    reqCum.push([...rx])
    if (d.nonPosted) {
      for (const c of completionsFor(q.hdr, i, PHASES[phase]!.split, mps)) {
        if (en) addInto(tx, completionIncrements(c))
        cpls.push(c)
        cplCum.push([...tx])
      }
    }
  })
  return { reqCum, cpls, cplCum }
}

/** Every counter over every request and completion, whatever the phase, filter off (0 for clock-driven counters). */
export function totals(reqs: Request[], cpls: Completion[]): bigint[] {
  const t = new Array<bigint>(RULED_COUNTERS.length).fill(0n)
  for (const q of reqs) addInto(t, requestIncrements(decode(q.hdr), true))
  for (const c of cpls) addInto(t, completionIncrements(c))
  return t
}

/**
 * The completion stream of the probe-only bench (tb_probe_counters): the responder's completions
 * with EP set on about one in twelve, with data or without, as a completer that poisons would
 * send (the BAR responder never does, so the top bench cannot show POISONED on its completion tap).
 */
export function poisonSome(cpls: readonly Completion[], seed: number): Completion[] {
  const r = rng(seed ^ 0x5eed_e9)
  return cpls.map((c) => (r() < 0.08 ? { ...c, hdr: c.hdr | (1n << 110n) } : c))
}

const hex = (v: bigint, digits: number) => v.toString(16).padStart(digits, '0')
/** One $readmemh word of every counter, counter i at bits [64*i +: 64]. */
const counterWord = (vs: bigint[]) => [...vs].reverse().map((v) => hex(v, 16)).join('')
/** Counter names in counters.hex: 24 ASCII characters, right-aligned. */
const NAME_CHARS = 24
const asciiWord = (s: string): bigint => [...s.slice(0, NAME_CHARS)].reduce((a, ch) => (a << 8n) | BigInt(ch.charCodeAt(0) & 0x7f), 0n)

/** `mps`: the top's MAX_PAYLOAD_BYTES the bench is built with (tb_pcie_scope_bar_top's MPS). */
export function writeVectors(dir: string, seed: number, strb: number, scale = 1, mps = MAX_PAYLOAD_BYTES): { requests: number, completions: number } {
  const reqs = generate(seed, strb, scale)
  const e = expectedCounters(reqs, mps)
  const nUr = e.cpls.filter((c) => c.ur).length
  mkdirSync(dir, { recursive: true })
  const lines = (xs: string[]) => xs.join('\n') + '\n'
  // requests, completions, strb, counters, UR completions
  writeFileSync(join(dir, 'sizes.hex'), lines([reqs.length, e.cpls.length, strb, RULED_COUNTERS.length, nUr].map((v) => hex(BigInt(v), 8))))
  // per counter, in index order: name[199:8] (ASCII, right-aligned) rule code[7:0] (RULE_CODE)
  writeFileSync(join(dir, 'counters.hex'), lines(RULED_COUNTERS.map((c) => hex(asciiWord(c.name), NAME_CHARS * 2) + hex(BigInt(RULE_CODE[c.rule.kind]), 2))))
  writeFileSync(join(dir, 'req_hdr.hex'), lines(reqs.map((q) => hex(q.hdr, 32))))
  // meta: phase[31:28] gap[27:20] beats[19:12] completions[8:1] non_posted[0]
  const cplsOf = new Array<number>(reqs.length).fill(0)
  for (const c of e.cpls) cplsOf[c.reqIndex]!++
  writeFileSync(join(dir, 'req_meta.hex'), lines(reqs.map((q, i) =>
    hex(BigInt(((q.phase << 28) | (q.gap << 20) | (q.beats << 12) | (cplsOf[i]! << 1) | (decode(q.hdr).nonPosted ? 1 : 0)) >>> 0), 8))))
  writeFileSync(join(dir, 'req_cum.hex'), lines(e.reqCum.map(counterWord)))
  // completion: hdr[191:64] addr_dw[63:32] n_dw[31:16] req_index[15:0]
  writeFileSync(join(dir, 'cpl.hex'), lines(e.cpls.map((c) =>
    hex(c.hdr, 32) + hex(BigInt(c.addrDw), 8) + hex(BigInt(c.nDw), 4) + hex(BigInt(c.reqIndex), 4))))
  writeFileSync(join(dir, 'cpl_cum.hex'), lines(e.cplCum.map(counterWord)))
  // the filter window of phase 3: base lo, base hi, limit lo, limit hi
  const w32 = (v: bigint, hi: boolean) => hex(hi ? v >> 32n : v & 0xffff_ffffn, 8)
  writeFileSync(join(dir, 'filter.hex'), lines([w32(FILTER_WINDOW.base, false), w32(FILTER_WINDOW.base, true), w32(FILTER_WINDOW.limit, false), w32(FILTER_WINDOW.limit, true)]))
  // probe-only bench: every request and every completion header counted once, whatever the phase;
  // its completion tap sees some of them poisoned (probe_cpl.hex: header only)
  const probeCpls = poisonSome(e.cpls, seed)
  writeFileSync(join(dir, 'probe_cpl.hex'), lines(probeCpls.map((c) => hex(c.hdr, 32))))
  writeFileSync(join(dir, 'probe_totals.hex'), lines(totals(reqs, probeCpls).map((v) => hex(v, 16))))
  return { requests: reqs.length, completions: e.cpls.length }
}

function main(argv: string[]): void {
  const arg = (name: string, dflt: string) => {
    const i = argv.indexOf(`--${name}`)
    return (i >= 0 ? argv[i + 1] : undefined) ?? dflt
  }
  const out = arg('out', 'build/hdl/golden')
  const res = writeVectors(out, Number(arg('seed', '1')), Number(arg('strb', '8')), Number(arg('scale', '1')), Number(arg('mps', String(MAX_PAYLOAD_BYTES))))
  process.stdout.write(`${out}: ${res.requests} requests, ${res.completions} completions\n`)
}

// run as a script only (test/hdl/switch-golden.ts imports this module)
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) main(process.argv.slice(2))
