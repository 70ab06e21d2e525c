// Descriptor vectors for the UltraScale+ adapters (hdl/xilinx/rtl/): one table of field layouts
// per descriptor, tuser variant and the generic header image (docs/xilinx.md restates them from
// AMD PG213), a packer and an unpacker that work field by field from those tables, and a
// seeded builder of the four channels' beats (CQ and RC in, RQ and CC out) with the generic
// stream's beats on the other side. tb_xil_adapters reads what writeXilinxVectors writes.
// Run by hand: npx tsx test/hdl/xilinx/descriptors.ts --out build/hdl/xilinx --width 512 --straddle 1
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rng } from '../golden.js'

export interface Field {
  name: string
  lsb: number
  width: number
}
export type Table = readonly Field[]

const f = (name: string, lsb: number, width: number): Field => ({ name, lsb, width })

/** One of `xs`, chosen by `r` in [0, 1). */
function choose<T>(xs: readonly T[], r: number): T {
  const x = xs[Math.floor(r * xs.length)]
  if (x === undefined) throw new Error('choose: empty list')
  return x
}

// ---------------------------------------------------------------- the field tables (PG213)

/** Completer request descriptor, 128 bits. */
export const CQ_DESC: Table = [
  f('at', 0, 2), f('addr', 2, 62), f('dwords', 64, 11), f('reqType', 75, 4), f('reqId', 80, 16), f('tag', 96, 8),
  f('targetFn', 104, 8), f('barId', 112, 3), f('barAperture', 115, 6), f('tc', 121, 3), f('attr', 124, 3),
]
/** Completer completion descriptor, 96 bits. */
export const CC_DESC: Table = [
  f('lowerAddr', 0, 7), f('at', 8, 2), f('byteCount', 16, 13), f('locked', 29, 1), f('dwords', 32, 11),
  f('status', 43, 3), f('poisoned', 46, 1), f('reqId', 48, 16), f('tag', 64, 8), f('cplId', 72, 16),
  f('cplIdEn', 88, 1), f('tc', 89, 3), f('attr', 92, 3), f('forceEcrc', 95, 1),
]
/** Requester request descriptor, 128 bits. */
export const RQ_DESC: Table = [
  f('at', 0, 2), f('addr', 2, 62), f('dwords', 64, 11), f('reqType', 75, 4), f('poisoned', 79, 1), f('reqId', 80, 16),
  f('tag', 96, 8), f('cplId', 104, 16), f('reqIdEn', 120, 1), f('tc', 121, 3), f('attr', 124, 3), f('forceEcrc', 127, 1),
]
/** Requester completion descriptor, 96 bits. */
export const RC_DESC: Table = [
  f('lowerAddr', 0, 12), f('error', 12, 4), f('byteCount', 16, 13), f('locked', 29, 1), f('done', 30, 1),
  f('dwords', 32, 11), f('status', 43, 3), f('poisoned', 46, 1), f('reqId', 48, 16), f('tag', 64, 8),
  f('cplId', 72, 16), f('tc', 89, 3), f('attr', 92, 3),
]

/** tuser layouts: at 512 bits the straddle fields (pointers: 128-bit lane for sop, DW for eop). */
export const CQ_USER_512: Table = [
  f('firstBe0', 0, 4), f('firstBe1', 4, 4), f('lastBe0', 8, 4), f('lastBe1', 12, 4), f('byteEn', 16, 64),
  f('isSop0', 80, 1), f('isSop1', 81, 1), f('sopPtr0', 82, 2), f('sopPtr1', 84, 2), f('isEop0', 86, 1), f('isEop1', 87, 1),
  f('eopPtr0', 88, 4), f('eopPtr1', 92, 4), f('discontinue', 96, 1), f('tph', 97, 22), f('parity', 119, 64),
]
export const CQ_USER_256: Table = [
  f('firstBe', 0, 4), f('lastBe', 4, 4), f('byteEn', 8, 32), f('sop', 40, 1), f('discontinue', 41, 1), f('tph', 42, 11),
  f('parity', 53, 32),
]
export const RC_USER_512: Table = [
  f('byteEn', 0, 64), f('isSop0', 64, 1), f('isSop1', 65, 1), f('isSop2', 66, 1), f('isSop3', 67, 1),
  f('sopPtr0', 68, 2), f('sopPtr1', 70, 2), f('sopPtr2', 72, 2), f('sopPtr3', 74, 2),
  f('isEop0', 76, 1), f('isEop1', 77, 1), f('isEop2', 78, 1), f('isEop3', 79, 1),
  f('eopPtr0', 80, 4), f('eopPtr1', 84, 4), f('eopPtr2', 88, 4), f('eopPtr3', 92, 4), f('discontinue', 96, 1), f('parity', 97, 64),
]
export const RC_USER_256: Table = [
  f('byteEn', 0, 32), f('isSof0', 32, 1), f('isSof1', 33, 1), f('isEof0', 34, 1), f('eofPtr0', 35, 3),
  f('isEof1', 38, 1), f('eofPtr1', 39, 3), f('discontinue', 42, 1), f('parity', 43, 32),
]
export const RQ_USER_512: Table = [
  f('firstBe0', 0, 4), f('firstBe1', 4, 4), f('lastBe0', 8, 4), f('lastBe1', 12, 4), f('addrOffset', 16, 4),
  f('isSop0', 20, 1), f('isSop1', 21, 1), f('sopPtr0', 22, 2), f('sopPtr1', 24, 2), f('isEop0', 26, 1), f('isEop1', 27, 1),
  f('eopPtr0', 28, 4), f('eopPtr1', 32, 4), f('discontinue', 36, 1), f('tph', 37, 24), f('seqNum0', 61, 6), f('seqNum1', 67, 6),
  f('parity', 73, 64),
]
export const RQ_USER_256: Table = [
  f('firstBe', 0, 4), f('lastBe', 4, 4), f('addrOffset', 8, 3), f('discontinue', 11, 1), f('tph', 12, 12), f('seqNum', 24, 4),
  f('parity', 28, 32), f('seqNumHi', 60, 2),
]
export const CC_USER_512: Table = [
  f('isSop0', 0, 1), f('isSop1', 1, 1), f('sopPtr0', 2, 2), f('sopPtr1', 4, 2), f('isEop0', 6, 1), f('isEop1', 7, 1),
  f('eopPtr0', 8, 4), f('eopPtr1', 12, 4), f('discontinue', 16, 1), f('parity', 17, 64),
]
export const CC_USER_256: Table = [f('discontinue', 0, 1), f('parity', 1, 32)]

/** The generic stream's 128-bit header image (docs/pcie.md, "Header image"): DW0 in [127:96]. */
export const HDR: Table = [
  f('length', 96, 10), f('at', 106, 2), f('attr10', 108, 2), f('ep', 110, 1), f('td', 111, 1), f('th', 112, 1), f('ln', 113, 1),
  f('attr2', 114, 1), f('t8', 115, 1), f('tc', 116, 3), f('t9', 119, 1), f('type', 120, 5), f('fmt', 125, 3),
  // requests: DW1 and the address DWs
  f('firstBe', 64, 4), f('lastBe', 68, 4), f('tag', 72, 8), f('reqId', 80, 16), f('dw2', 32, 32), f('dw3', 0, 32),
]
/** Completion DW1 / DW2 in the header image (Requester ID and Tag move to DW2). */
export const CPL_HDR: Table = [
  ...HDR.filter((x) => x.lsb >= 96),
  f('byteCount', 64, 12), f('bcm', 76, 1), f('status', 77, 3), f('cplId', 80, 16),
  f('lowerAddr', 32, 7), f('tag', 40, 8), f('reqId', 48, 16),
]

export const USER_WIDTH = { cq: { 512: 183, 256: 88 }, rc: { 512: 161, 256: 75 }, rq: { 512: 137, 256: 62 }, cc: { 512: 81, 256: 33 } } as const

/**
 * Versal blocks with straddle off (framing 'tlast'): tuser widths from PG343 (PL PCIE, 512 bits:
 * CQ and RQ from its port-update table; RC and CC not listed there, so PG213's) and PG346 (CPM5,
 * 1024 bits). Only first_be / last_be are read or written, at PG213's positions (docs/xilinx.md, "Versal blocks":
 * not checked against the Versal field tables); the rest of each received tuser is random here,
 * so an adapter that reads more of it fails.
 */
export const VERSAL_USER_WIDTH = { cq: { 512: 229, 1024: 465 }, rc: { 512: 161, 1024: 337 }, rq: { 512: 183, 1024: 373 }, cc: { 512: 81, 1024: 165 } } as const
export type Framing = 'pg213' | 'tlast'
export type Width = 256 | 512 | 1024
/** first_be / last_be positions with tlast framing (xil_cq_rx / xil_rq_tx FIRST_BE_LSB, LAST_BE_LSB). */
export function versalBeTable(w: number, userBits: number): Table {
  const last = w === 32 ? 16 : w === 16 ? 8 : 4
  return [f('firstBe', 0, 4), f('lastBe', last, 4), f('rest', 32, userBits - 32)]
}

export function tableWidth(t: Table): number {
  return Math.max(...t.map((x) => x.lsb + x.width))
}

/** Pack named values into a vector; unknown names, overlaps and values too wide throw. */
export function pack(t: Table, v: Record<string, number | bigint>): bigint {
  let out = 0n
  for (const [name, value] of Object.entries(v)) {
    const fl = t.find((x) => x.name === name)
    if (!fl) throw new Error(`no field ${name}`)
    const b = BigInt(value)
    if (b < 0n || b >> BigInt(fl.width) !== 0n) throw new Error(`${name} = ${value} does not fit ${fl.width} bits`)
    out |= b << BigInt(fl.lsb)
  }
  return out
}

export function unpack(t: Table, v: bigint): Record<string, bigint> {
  const out: Record<string, bigint> = {}
  for (const fl of t) out[fl.name] = (v >> BigInt(fl.lsb)) & ((1n << BigInt(fl.width)) - 1n)
  return out
}

// ---------------------------------------------------------------- requests and completions

export type ReqKind = 'MRd' | 'MWr' | 'IORd' | 'IOWr' | 'FetchAdd' | 'Swap' | 'CAS' | 'MRdLk' | 'CfgRd0' | 'CfgRd1' | 'CfgWr0' | 'CfgWr1' | 'Msg' | 'Vdm' | 'Ats' | 'Reserved'

/** Request Type code (CQ / RQ bits 78:75) and the header's Type; `mem` = routed by a 32/64-bit address. */
export const REQ_KINDS: Record<ReqKind, { code: number; type: number; data: boolean; mem: boolean; cfg: boolean }> = {
  MRd: { code: 0b0000, type: 0b00000, data: false, mem: true, cfg: false },
  MWr: { code: 0b0001, type: 0b00000, data: true, mem: true, cfg: false },
  IORd: { code: 0b0010, type: 0b00010, data: false, mem: false, cfg: false },
  IOWr: { code: 0b0011, type: 0b00010, data: true, mem: false, cfg: false },
  FetchAdd: { code: 0b0100, type: 0b01100, data: true, mem: true, cfg: false },
  Swap: { code: 0b0101, type: 0b01101, data: true, mem: true, cfg: false },
  CAS: { code: 0b0110, type: 0b01110, data: true, mem: true, cfg: false },
  MRdLk: { code: 0b0111, type: 0b00001, data: false, mem: true, cfg: false },
  CfgRd0: { code: 0b1000, type: 0b00100, data: false, mem: false, cfg: true },
  CfgRd1: { code: 0b1001, type: 0b00101, data: false, mem: false, cfg: true },
  CfgWr0: { code: 0b1010, type: 0b00100, data: true, mem: false, cfg: true },
  CfgWr1: { code: 0b1011, type: 0b00101, data: true, mem: false, cfg: true },
  Msg: { code: 0b1100, type: 0b10000, data: false, mem: false, cfg: false },
  Vdm: { code: 0b1101, type: 0b10010, data: false, mem: false, cfg: false },
  Ats: { code: 0b1110, type: 0b10001, data: false, mem: false, cfg: false },
  Reserved: { code: 0b1111, type: 0b11111, data: false, mem: false, cfg: false },
}

export interface Req {
  kind: ReqKind
  /** byte address (dword-aligned); configuration: the register's byte offset */
  addr: bigint
  /** configuration: target bus/device/function */
  target: number
  lenDw: number
  reqId: number
  tag: number
  tc: number
  attr: number
  at: number
  ep: number
  firstBe: number
  lastBe: number
  payload: number[]
}

export interface Cpl {
  cplId: number
  status: number
  /** bytes still to come, 1..4096 */
  byteCount: number
  locked: boolean
  reqId: number
  tag: number
  lowerAddr: number
  tc: number
  attr: number
  ep: number
  payload: number[]
  /** RC Error Code */
  error: number
  done: boolean
}

export interface Tlp {
  hdr: bigint
  payload: number[]
}

const lo32 = (a: bigint): number => Number(a & 0xffff_fffcn)

/** Header image of a request, written from the request's fields (not from any descriptor). */
export function reqHeader(r: Req): bigint {
  const k = REQ_KINDS[r.kind]
  const four = k.mem && r.addr >= 1n << 32n
  const common = {
    fmt: (k.data ? 2 : 0) | (four ? 1 : 0), type: k.type, tc: r.tc, attr2: r.attr >> 2, attr10: r.attr & 3, ep: r.ep, at: r.at,
    length: r.lenDw & 0x3ff, reqId: r.reqId, tag: r.tag, lastBe: r.lastBe, firstBe: r.firstBe,
  }
  if (k.cfg) return pack(HDR, { ...common, dw2: ((r.target << 16) | (Number(r.addr) & 0xffc)) >>> 0 })
  if (four) return pack(HDR, { ...common, dw2: Number(r.addr >> 32n), dw3: lo32(r.addr) })
  return pack(HDR, { ...common, dw2: lo32(r.addr) })
}

/** Header image of a completion, from its fields. */
export function cplHeader(c: Cpl): bigint {
  return pack(CPL_HDR, {
    fmt: c.payload.length ? 2 : 0, type: c.locked ? 0b01011 : 0b01010, tc: c.tc, attr2: c.attr >> 2, attr10: c.attr & 3, ep: c.ep,
    length: c.payload.length & 0x3ff, cplId: c.cplId, status: c.status, byteCount: c.byteCount & 0xfff, reqId: c.reqId, tag: c.tag,
    lowerAddr: c.lowerAddr & 0x7f,
  })
}

const dwords = (n: number) => (n === 0 ? 1024 : n)

export function cqDesc(r: Req, rnd: () => number): bigint {
  return pack(CQ_DESC, {
    at: r.at, addr: r.addr >> 2n, dwords: dwords(r.lenDw), reqType: REQ_KINDS[r.kind].code, reqId: r.reqId, tag: r.tag,
    targetFn: Math.floor(rnd() * 256), barId: Math.floor(rnd() * 7), barAperture: Math.floor(rnd() * 64), tc: r.tc, attr: r.attr,
  })
}

/** The RQ descriptor the adapter must send for a request (Requester ID Enable set). */
export function rqDesc(r: Req): bigint {
  const k = REQ_KINDS[r.kind]
  return pack(RQ_DESC, {
    at: r.at, addr: k.cfg ? (r.addr & 0xffcn) >> 2n : r.addr >> 2n, dwords: dwords(r.lenDw), reqType: k.code, poisoned: r.ep,
    reqId: r.reqId, tag: r.tag, cplId: k.cfg ? r.target : 0, reqIdEn: 1, tc: r.tc, attr: r.attr,
  })
}

export function rcDesc(c: Cpl): bigint {
  return pack(RC_DESC, {
    lowerAddr: c.lowerAddr, error: c.error, byteCount: c.byteCount, locked: c.locked ? 1 : 0, done: c.done ? 1 : 0,
    dwords: c.payload.length, status: c.status, poisoned: c.ep, reqId: c.reqId, tag: c.tag, cplId: c.cplId, tc: c.tc, attr: c.attr,
  })
}

/** The CC descriptor the adapter must send for a completion (Completer ID Enable set). */
export function ccDesc(c: Cpl): bigint {
  return pack(CC_DESC, {
    lowerAddr: c.lowerAddr & 0x7f, byteCount: c.byteCount, locked: c.locked ? 1 : 0, dwords: c.payload.length, status: c.status,
    poisoned: c.ep, reqId: c.reqId, tag: c.tag, cplId: c.cplId, cplIdEn: 1, tc: c.tc, attr: c.attr,
  })
}

/** RC Error Codes the adapter passes (real completions); the rest are the block's own verdicts. */
export const RC_PASS_ERRORS = [0, 1, 2]

// ---------------------------------------------------------------- beats

export interface GenericBeat {
  data: number[]
  strb: number
  hdr: bigint
  sop: boolean
  eop: boolean
}
export interface AxisBeat {
  data: number[]
  keep: number
  last: boolean
  user: bigint
}

/** A TLP on the generic stream: header with the first beat, payload from DW0, header-only = one beat, strb 0. */
export function genericBeats(t: Tlp, w: number): GenericBeat[] {
  const n = Math.max(1, Math.ceil(t.payload.length / w))
  const out: GenericBeat[] = []
  for (let b = 0; b < n; b++) {
    const data = t.payload.slice(b * w, (b + 1) * w)
    out.push({ data, strb: 2 ** data.length - 1, hdr: b === 0 ? t.hdr : 0n, sop: b === 0, eop: b === n - 1 })
  }
  return out
}

const descDws = (d: bigint, n: number): number[] => Array.from({ length: n }, (_, i) => Number((d >> BigInt(32 * i)) & 0xffff_ffffn))

/** Transmit side (RQ, CC): each TLP starts a beat, descriptor then payload, no straddle. */
export function txBeats(kind: 'rq' | 'cc', desc: bigint, be: number, payload: number[], w: number, framing: Framing = 'pg213'): AxisBeat[] {
  const dws = [...descDws(desc, kind === 'rq' ? 4 : 3), ...payload]
  const n = Math.ceil(dws.length / w)
  const out: AxisBeat[] = []
  for (let b = 0; b < n; b++) {
    const data = dws.slice(b * w, (b + 1) * w)
    const sop = b === 0
    const last = b === n - 1
    let user = 0n
    if (framing === 'tlast') {
      user = kind === 'rq' && sop ? pack(versalBeTable(w, 64), { firstBe: be & 15, lastBe: be >> 4 }) : 0n
    } else if (kind === 'rq' && w === 16) {
      user = pack(RQ_USER_512, { isSop0: sop ? 1 : 0, isEop0: last ? 1 : 0, eopPtr0: last ? data.length - 1 : 0, ...(sop ? { firstBe0: be & 15, lastBe0: be >> 4 } : {}) })
    } else if (kind === 'rq') {
      user = sop ? pack(RQ_USER_256, { firstBe: be & 15, lastBe: be >> 4 }) : 0n
    } else if (w === 16) {
      user = pack(CC_USER_512, { isSop0: sop ? 1 : 0, isEop0: last ? 1 : 0, eopPtr0: last ? data.length - 1 : 0 })
    }
    out.push({ data, keep: 2 ** data.length - 1, last, user })
  }
  return out
}

export interface RxTlp {
  desc: bigint
  descDw: number
  payload: number[]
  be: number
}

/**
 * Receive side (CQ, RC): TLPs laid out on the beats as the block would. Without straddle each
 * TLP starts a beat. With it a TLP may start at the next allowed position of the beat in which
 * the previous one ended: CQ at 512 bits DW0 or DW8 (two TLPs per beat), RC at 512 bits any
 * 128-bit lane (four), RC at 256 bits DW0 or DW4 (two); `packed` is the chance to try.
 */
export function rxBeats(kind: 'cq' | 'rc', tlps: RxTlp[], w: number, straddle: boolean, rnd: () => number, packed = 0.7, framing: Framing = 'pg213'): AxisBeat[] {
  const starts = kind === 'cq' ? [0, 8] : w === 16 ? [0, 4, 8, 12] : [0, 4]
  const maxPerBeat = kind === 'rc' && w === 16 ? 4 : 2
  const placed: { start: number; end: number; t: RxTlp }[] = []
  let pos = 0 // first free DW of the stream
  for (const t of tlps) {
    const len = t.descDw + t.payload.length
    let start = Math.ceil(pos / w) * w
    if (straddle && pos % w !== 0 && rnd() < packed) {
      const beat = Math.floor(pos / w)
      const at = starts.find((s) => beat * w + s >= pos)
      const inBeat = (p: { start: number; end: number }) => Math.floor(p.start / w) === beat
      const endsInBeat = (p: { start: number; end: number }) => Math.floor(p.end / w) === beat
      const s = at === undefined ? undefined : beat * w + at
      const ends = placed.filter(endsInBeat).length + (s !== undefined && Math.floor((s + len - 1) / w) === beat ? 1 : 0)
      if (s !== undefined && placed.filter(inBeat).length < maxPerBeat && ends <= maxPerBeat) start = s
    }
    placed.push({ start, end: start + len - 1, t })
    pos = start + len
  }
  const nBeats = Math.ceil(pos / w)
  const out: AxisBeat[] = []
  for (let b = 0; b < nBeats; b++) {
    const data = new Array<number>(w).fill(0)
    let keep = 0
    const u: Record<string, number | bigint> = {}
    const begin = placed.filter((p) => Math.floor(p.start / w) === b)
    const finish = placed.filter((p) => Math.floor(p.end / w) === b)
    for (const p of placed) {
      const dws = [...descDws(p.t.desc, p.t.descDw), ...p.t.payload]
      dws.forEach((v, i) => {
        const at = p.start + i
        if (Math.floor(at / w) === b) {
          data[at % w] = v
          keep |= 1 << at % w
        }
      })
    }
    const carried = placed.some((p) => p.start < b * w && p.end >= b * w)
    const ending = finish.length > 0 && !placed.some((p) => p.start <= b * w + w - 1 && p.end > b * w + w - 1)
    if (framing === 'tlast') {
      // one TLP per beat starts at most (no straddle): byte enables on CQ, the rest random
      const bits = VERSAL_USER_WIDTH[kind][w === 32 ? 1024 : 512]
      const rest = BigInt(Math.floor(rnd() * 2 ** 32)) | (BigInt(Math.floor(rnd() * 2 ** 32)) << 64n)
      const first = begin[0]
      const be = kind === 'cq' && first ? { firstBe: first.t.be & 15, lastBe: first.t.be >> 4 } : { firstBe: int4(rnd), lastBe: int4(rnd) }
      out.push({ data, keep, last: ending, user: pack(versalBeTable(w, bits), { ...be, rest }) })
      continue
    }
    if (w === 16) {
      begin.forEach((p, i) => {
        u[`isSop${i}`] = 1
        u[`sopPtr${i}`] = (p.start % w) / 4
        if (kind === 'cq') {
          u[`firstBe${i}`] = p.t.be & 15
          u[`lastBe${i}`] = p.t.be >> 4
        }
      })
      finish.forEach((p, i) => {
        u[`isEop${i}`] = 1
        u[`eopPtr${i}`] = p.end % w
      })
    } else if (kind === 'cq') {
      const first = begin[0]
      if (first) Object.assign(u, { sop: 1, firstBe: first.t.be & 15, lastBe: first.t.be >> 4 })
    } else {
      begin.forEach((_, i) => (u[`isSof${i}`] = 1))
      finish.forEach((p, i) => {
        u[`isEof${i}`] = 1
        u[`eofPtr${i}`] = p.end % w
      })
      if (carried && begin[0] && begin[0].start % w !== 4) throw new Error('RC 256: a start after a carried TLP must be at DW4')
    }
    // random parity: the adapters must ignore it
    u.parity = BigInt(Math.floor(rnd() * 2 ** 32))
    const table = kind === 'cq' ? (w === 16 ? CQ_USER_512 : CQ_USER_256) : w === 16 ? RC_USER_512 : RC_USER_256
    out.push({ data, keep: w === 16 || kind === 'rc' ? keep : keep, last: ending, user: pack(table, u) })
  }
  return out
}

// ---------------------------------------------------------------- the scenario

export interface Channel<I, O> {
  input: I[]
  expect: O[]
  drops: number
}
export interface Vectors {
  cq: Channel<AxisBeat, GenericBeat>
  rc: Channel<AxisBeat, GenericBeat>
  rq: Channel<GenericBeat, AxisBeat>
  cc: Channel<GenericBeat, AxisBeat>
  /** round trip: reads sent on RQ whose completions came back through RC */
  roundTrip: { reads: number; completions: number }
}

const RX_KINDS: ReqKind[] = ['MRd', 'MRd', 'MRd', 'MWr', 'MWr', 'IORd', 'IOWr', 'FetchAdd', 'Swap', 'CAS', 'MRdLk']
const CQ_UNSUPPORTED: ReqKind[] = ['CfgRd0', 'CfgWr1', 'Msg', 'Vdm', 'Ats', 'Reserved']

function randomReq(kind: ReqKind, rnd: () => number, maxDw: number): Req {
  const k = REQ_KINDS[kind]
  const int = (n: number) => Math.floor(rnd() * n)
  let lenDw = 1 + int(maxDw)
  if (kind === 'IORd' || kind === 'IOWr' || k.cfg) lenDw = 1
  if (kind === 'FetchAdd' || kind === 'Swap') lenDw = rnd() < 0.5 ? 1 : 2
  if (kind === 'CAS') lenDw = choose([2, 4, 8], rnd())
  if (kind === 'MWr' && rnd() < 0.05) lenDw = 1024
  const high = k.mem && rnd() < 0.5
  const addr = k.cfg ? BigInt(int(1024) * 4) : high ? (BigInt(1 + int(0xffff)) << 32n) | BigInt(int(2 ** 30) * 4) : BigInt(int(2 ** 30) * 4)
  const data = k.data ? Array.from({ length: lenDw }, () => int(2 ** 32)) : []
  return {
    kind, addr, target: int(65536), lenDw: lenDw === 1024 ? 0 : lenDw, reqId: int(65536), tag: int(256), tc: int(8), attr: int(8),
    at: k.mem ? int(3) : 0, ep: int(8) === 0 ? 1 : 0, firstBe: 1 + int(15), lastBe: lenDw > 1 ? 1 + int(15) : 0, payload: data,
  }
}

const beOf = (r: Req) => (r.lastBe << 4) | r.firstBe
const int4 = (rnd: () => number) => Math.floor(rnd() * 16)

/** Completions of a read of `bytes` at `addr`, split at 64-byte boundaries (a Read Completion Boundary). */
function splitRead(r: Req, bytes: number, cplId: number, rnd: () => number): Cpl[] {
  const out: Cpl[] = []
  let a = Number(r.addr & 0xfffn)
  let left = bytes
  while (left > 0) {
    const n = Math.min(left, 64 - (a % 64))
    const first = a & ~3
    const dws = Math.ceil((a + n - first) / 4)
    out.push({
      cplId, status: 0, byteCount: left, locked: false, reqId: r.reqId, tag: r.tag, lowerAddr: a & 0xfff, tc: r.tc, attr: r.attr, ep: 0,
      payload: Array.from({ length: dws }, () => Math.floor(rnd() * 2 ** 32)), error: 0, done: n === left,
    })
    a += n
    left -= n
  }
  return out
}

export function buildVectors(seed: number, width: Width, straddle: boolean, count = 200, framing: Framing = 'pg213'): Vectors {
  if (framing === 'tlast' && straddle) throw new Error('tlast framing has no straddle')
  const rnd = rng(seed)
  const w = width / 32
  const int = (n: number) => Math.floor(rnd() * n)

  // CQ: requests from the link; unsupported types dropped whole
  const cqReqs: Req[] = []
  let cqDrops = 0
  for (let i = 0; i < count; i++) {
    const bad = rnd() < 0.1
    const kind = choose(bad ? CQ_UNSUPPORTED : RX_KINDS, rnd())
    // the CQ descriptor has no poisoned bit: a request from CQ always reads EP 0
    cqReqs.push({ ...randomReq(kind, rnd, rnd() < 0.3 ? 40 : 4), ep: 0 })
    if (bad) cqDrops++
  }
  const cqTlps = cqReqs.map((r) => ({ desc: cqDesc(r, rnd), descDw: 4, payload: r.payload, be: beOf(r) }))
  const cq = {
    input: rxBeats('cq', cqTlps, w, straddle && width === 512, rnd, 0.7, framing),
    expect: cqReqs.filter((r) => REQ_KINDS[r.kind].code < 8).flatMap((r) => genericBeats({ hdr: reqHeader(r), payload: r.payload }, w)),
    drops: cqDrops,
  }

  // RQ: requests to the link (the round trip's first half); messages and completions dropped
  const rqReqs: Req[] = []
  const rqIn: Tlp[] = []
  let rqDrops = 0
  for (let i = 0; i < count; i++) {
    const pick = rnd()
    if (pick < 0.05) {
      rqIn.push({ hdr: reqHeader(randomReq('Msg', rnd, 1)), payload: [] })
      rqDrops++
      continue
    }
    if (pick < 0.08) {
      rqIn.push({ hdr: cplHeader(choose(splitRead(randomReq('MRd', rnd, 1), 4, 0x100, rnd), 0)), payload: [1, 2] })
      rqDrops++
      continue
    }
    const kind: ReqKind = pick < 0.6 ? 'MRd' : pick < 0.8 ? 'MWr' : choose(['CfgRd0', 'CfgRd1', 'CfgWr0', 'CfgWr1', 'IORd', 'MRdLk', 'CAS'] as const, rnd())
    const r = randomReq(kind, rnd, rnd() < 0.3 ? 64 : 8)
    if (kind === 'MRd') r.lastBe = r.lenDw > 1 ? 0xf : 0
    if (kind === 'MRd') r.firstBe = 0xf
    rqReqs.push(r)
    rqIn.push({ hdr: reqHeader(r), payload: r.payload })
  }
  const rq = {
    input: rqIn.flatMap((t) => genericBeats(t, w)),
    expect: rqReqs.flatMap((r) => txBeats('rq', rqDesc(r), beOf(r), r.payload, w, framing)),
    drops: rqDrops,
  }

  // RC: the completions of RQ's reads, built from the RQ descriptors the adapter must send
  // (unpacked field by field), expected on the generic side from the original requests
  const rcCpls: Cpl[] = []
  const expectCpls: Cpl[] = []
  let reads = 0
  let rcDrops = 0
  for (const r of rqReqs) {
    const d = unpack(RQ_DESC, rqDesc(r))
    if (d.reqId !== BigInt(r.reqId) || d.tag !== BigInt(r.tag) || d.tc !== BigInt(r.tc) || d.attr !== BigInt(r.attr)) {
      throw new Error('RQ descriptor lost the request IDs')
    }
    const k = REQ_KINDS[r.kind]
    if (k.data && !k.cfg) continue // posted (and the CAS's answer is not modelled)
    const cplId = 0x0100 + int(256)
    let cpls: Cpl[]
    if (r.kind === 'MRd') {
      reads++
      cpls = splitRead({ ...r, reqId: Number(d.reqId), tag: Number(d.tag), tc: Number(d.tc), attr: Number(d.attr) }, dwords(r.lenDw) * 4, cplId, rnd)
    } else {
      const withData = r.kind === 'CfgRd0' || r.kind === 'CfgRd1' || r.kind === 'IORd'
      cpls = [{
        cplId, status: r.kind === 'MRdLk' ? 1 : 0, byteCount: 4, locked: r.kind === 'MRdLk', reqId: Number(d.reqId), tag: Number(d.tag),
        lowerAddr: 0, tc: Number(d.tc), attr: Number(d.attr), ep: 0, payload: withData ? [int(2 ** 32)] : [], error: r.kind === 'MRdLk' ? 2 : 0, done: true,
      }]
    }
    for (const c of cpls) {
      rcCpls.push(c)
      expectCpls.push({ ...c, reqId: r.reqId, tag: r.tag, tc: r.tc, attr: r.attr })
      // now and then a completion the block judged (bad byte count, mismatch, tag, timeout): dropped
      if (rnd() < 0.06) {
        const error = choose([3, 4, 5, 6, 8, 9], rnd())
        rcCpls.push({ ...c, error, payload: error >= 8 ? [] : c.payload })
        rcDrops++
      } else if (rnd() < 0.04) {
        const p = { ...c, error: 1, ep: 1 }
        rcCpls.push(p)
        expectCpls.push({ ...p, reqId: r.reqId, tag: r.tag, tc: r.tc, attr: r.attr })
      }
    }
  }
  const rc = {
    input: rxBeats('rc', rcCpls.map((c) => ({ desc: rcDesc(c), descDw: 3, payload: c.payload, be: 0 })), w, straddle, rnd, 0.7, framing),
    expect: expectCpls.flatMap((c) => genericBeats({ hdr: cplHeader(c), payload: c.payload }, w)),
    drops: rcDrops,
  }

  // CC: completions to the link; requests dropped
  const ccCpls: Cpl[] = []
  const ccIn: Tlp[] = []
  let ccDrops = 0
  for (let i = 0; i < count; i++) {
    if (rnd() < 0.08) {
      ccIn.push({ hdr: reqHeader(randomReq(rnd() < 0.5 ? 'MRd' : 'MWr', rnd, 2)), payload: [] })
      ccDrops++
      continue
    }
    const n = rnd() < 0.15 ? 0 : 1 + int(rnd() < 0.3 ? 64 : 8)
    const c: Cpl = {
      cplId: int(65536), status: n ? 0 : choose([1, 2, 4], rnd()), byteCount: 1 + int(4096), locked: rnd() < 0.1, reqId: int(65536), tag: int(256),
      lowerAddr: int(128), tc: int(8), attr: int(8), ep: int(8) === 0 ? 1 : 0, payload: Array.from({ length: n }, () => int(2 ** 32)), error: 0, done: true,
    }
    ccCpls.push(c)
    ccIn.push({ hdr: cplHeader(c), payload: c.payload })
  }
  const cc = {
    input: ccIn.flatMap((t) => genericBeats(t, w)),
    expect: ccCpls.flatMap((c) => txBeats('cc', ccDesc(c), 0, c.payload, w, framing)),
    drops: ccDrops,
  }
  return { cq, rc, rq, cc, roundTrip: { reads, completions: expectCpls.length } }
}

// ---------------------------------------------------------------- hex files for the bench

const hexOf = (v: bigint, bits: number) => v.toString(16).padStart(Math.ceil(bits / 4), '0')
const dataOf = (dws: number[]) => dws.reduce((a, v, i) => a | (BigInt(v >>> 0) << BigInt(32 * i)), 0n)

/**
 * A vector line is ctl then data. pg213 (256-bit ctl) AXI side: [191:0] tuser, [207:192] tkeep,
 * [208] tlast; generic side: [127:0] hdr, [143:128] strb, [144] sop, [145] eop. tlast (544-bit
 * ctl, room for 1024-bit beats): tuser [479:0], tkeep [511:480], tlast [512]; hdr [127:0],
 * strb [159:128], sop [160], eop [161]. tb_xil_adapters takes the same offsets.
 */
export const CTL = {
  pg213: { bits: 256, keep: 192n, last: 208n, sop: 144n },
  tlast: { bits: 544, keep: 480n, last: 512n, sop: 160n },
} as const
export const axisCtl = (b: AxisBeat, fr: Framing = 'pg213') => (BigInt(b.last ? 1 : 0) << CTL[fr].last) | (BigInt(b.keep >>> 0) << CTL[fr].keep) | b.user
export const genericCtl = (b: GenericBeat, fr: Framing = 'pg213') =>
  (BigInt(b.eop ? 1 : 0) << (CTL[fr].sop + 1n)) | (BigInt(b.sop ? 1 : 0) << CTL[fr].sop) | (BigInt(b.strb >>> 0) << 128n) | b.hdr

export function writeXilinxVectors(dir: string, seed: number, width: Width, straddle: boolean, count = 200, framing: Framing = 'pg213'): Vectors {
  mkdirSync(dir, { recursive: true })
  const v = buildVectors(seed, width, straddle, count, framing)
  const axisCtlF = (b: AxisBeat) => axisCtl(b, framing)
  const genericCtlF = (b: GenericBeat) => genericCtl(b, framing)
  const write = (name: string, lines: string[]) => writeFileSync(join(dir, name), lines.join('\n') + '\n')
  const line = (data: number[], ctl: bigint) => hexOf(ctl, CTL[framing].bits) + hexOf(dataOf(data), width)
  const chans: Array<{ name: string; input: string[]; expect: string[]; drops: number }> = [
    { name: 'cq', input: v.cq.input.map((b) => line(b.data, axisCtlF(b))), expect: v.cq.expect.map((b) => line(b.data, genericCtlF(b))), drops: v.cq.drops },
    { name: 'rc', input: v.rc.input.map((b) => line(b.data, axisCtlF(b))), expect: v.rc.expect.map((b) => line(b.data, genericCtlF(b))), drops: v.rc.drops },
    { name: 'rq', input: v.rq.input.map((b) => line(b.data, genericCtlF(b))), expect: v.rq.expect.map((b) => line(b.data, axisCtlF(b))), drops: v.rq.drops },
    { name: 'cc', input: v.cc.input.map((b) => line(b.data, genericCtlF(b))), expect: v.cc.expect.map((b) => line(b.data, axisCtlF(b))), drops: v.cc.drops },
  ]
  for (const c of chans) {
    write(`${c.name}_in.hex`, c.input)
    write(`${c.name}_out.hex`, c.expect)
  }
  const counts = chans.flatMap((c) => [c.input.length, c.expect.length, c.drops])
  write('counts.hex', counts.map((n) => hexOf(BigInt(n), 32)))
  return v
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name: string, dflt: string) => {
    const i = process.argv.indexOf(name)
    return (i >= 0 ? process.argv[i + 1] : undefined) ?? dflt
  }
  const width = Number(arg('--width', '512')) as Width
  const framing = arg('--framing', 'pg213') as Framing
  const v = writeXilinxVectors(arg('--out', 'build/hdl/xilinx'), Number(arg('--seed', '1')), width, arg('--straddle', framing === 'tlast' ? '0' : '1') === '1', Number(arg('--count', '200')), framing)
  console.log(`cq ${v.cq.input.length} beats in, rc ${v.rc.input.length}, rq ${v.rq.input.length}, cc ${v.cc.input.length}; round trip ${v.roundTrip.reads} reads`)
}
