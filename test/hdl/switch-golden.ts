// Golden router for the two-port switch (hdl/rtl/switch/): an independent TypeScript model of
// the routing, configuration-space and completion rules of docs/pcie.md ("Switch"). Given a TLP
// arriving at a port it says where the TLP goes (rewritten or not), or which completion the
// switch answers with, and keeps the per-port fate counters. `writeSwitchVectors` turns seeded
// scenarios (enumeration, illegal targets, GPU reads, random mixed traffic, full rate) into the
// hex files tb_sw_router reads.
// Run by hand: npx tsx test/hdl/switch-golden.ts --out build/hdl/switch-golden --seed 1
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SWITCH_COUNTERS, SWITCH_IDS, type SwitchCounterName } from '../../host/src/core/generated.js'
import { decode, rng } from './golden.js'

export type Port = 'up' | 'dn'
export type Cls = 'P' | 'NP' | 'CPL'

/** A TLP on the generic stream: header image (DW0 in [127:96]) and payload DWs. */
export interface Tlp {
  hdr: bigint
  payload: number[]
}

export type Fate =
  | { kind: 'fwd'; to: Port; cls: Cls; tlp: Tlp; counter: SwitchCounterName }
  | { kind: 'local'; to: Port; cpl: Tlp; counter: SwitchCounterName }
  | { kind: 'drop'; counter: SwitchCounterName }

const bits = (v: bigint, hi: number, lo: number): number => Number((v >> BigInt(lo)) & ((1n << BigInt(hi - lo + 1)) - 1n))
const other = (p: Port): Port => (p === 'up' ? 'dn' : 'up')

// ---------------------------------------------------------------- TLP builders

function dw0(fmt: number, type: number, lenDw: number, tag = 0): bigint {
  const t9 = (tag >> 9) & 1
  const t8 = (tag >> 8) & 1
  return BigInt(((fmt << 29) | (type << 24) | (t9 << 23) | (t8 << 19) | (lenDw & 0x3ff)) >>> 0)
}
const hdrOf = (d0: bigint, d1: number, d2: number, d3 = 0): bigint =>
  (d0 << 96n) | (BigInt(d1 >>> 0) << 64n) | (BigInt(d2 >>> 0) << 32n) | BigInt(d3 >>> 0)
const reqDw1 = (reqId: number, tag: number, lbe: number, fbe: number): number =>
  ((reqId << 16) | ((tag & 0xff) << 8) | (lbe << 4) | fbe) >>> 0

export function cfgRd(type1: boolean, bus: number, dev: number, fn: number, reg: number, reqId = 0, tag = 0): Tlp {
  const d2 = ((bus << 24) | (dev << 19) | (fn << 16) | ((reg & 0x3ff) << 2)) >>> 0
  return { hdr: hdrOf(dw0(0, type1 ? 5 : 4, 1, tag), reqDw1(reqId, tag, 0, 0xf), d2), payload: [] }
}
export function cfgWr(type1: boolean, bus: number, dev: number, fn: number, reg: number, data: number, be = 0xf, reqId = 0, tag = 0): Tlp {
  const d2 = ((bus << 24) | (dev << 19) | (fn << 16) | ((reg & 0x3ff) << 2)) >>> 0
  return { hdr: hdrOf(dw0(2, type1 ? 5 : 4, 1, tag), reqDw1(reqId, tag, 0, be), d2), payload: [data >>> 0] }
}
/** MRd (no payload) or MWr (payload given); 4DW when the address is at or above 4 GiB. */
export function mem(addr: bigint, lenDw: number, reqId: number, tag: number, payload?: number[]): Tlp {
  const four = addr >= 1n << 32n
  const fmt = (payload ? 2 : 0) | (four ? 1 : 0)
  const lbe = lenDw > 1 ? 0xf : 0
  const d1 = reqDw1(reqId, tag, lbe, 0xf)
  const hdr = four
    ? hdrOf(dw0(fmt, 0, lenDw, tag), d1, Number(addr >> 32n), Number(addr & 0xfffffffcn))
    : hdrOf(dw0(fmt, 0, lenDw, tag), d1, Number(addr & 0xfffffffcn))
  return { hdr, payload: payload ?? [] }
}
export function cpl(completerId: number, reqId: number, tag: number, status: number, byteCount: number, lowerAddr: number, payload: number[]): Tlp {
  const fmt = payload.length ? 2 : 0
  const d1 = ((completerId << 16) | (status << 13) | (byteCount & 0xfff)) >>> 0
  const d2 = ((reqId << 16) | ((tag & 0xff) << 8) | (lowerAddr & 0x7f)) >>> 0
  return { hdr: hdrOf(dw0(fmt, 0b01010, payload.length, tag), d1, d2), payload }
}
/** Message with routing subfield r (Type 10rrr), 4DW; DW2/DW3 the target ID or address. */
export function msg(r: number, code: number, reqId: number, d2 = 0, d3 = 0, payload: number[] = []): Tlp {
  const fmt = payload.length ? 3 : 1
  return { hdr: hdrOf(dw0(fmt, 0b10000 | r, payload.length), (reqId << 16) | (code & 0xff), d2, d3), payload }
}
export function ioRd(addr: number, reqId: number, tag: number): Tlp {
  return { hdr: hdrOf(dw0(0, 0b00010, 1, tag), reqDw1(reqId, tag, 0, 0xf), addr & 0xfffffffc), payload: [] }
}

// ---------------------------------------------------------------- configuration space

/** The real link values mirrored into each port's PCI Express capability. */
export const LINKS = {
  up: { maxSpeed: 4, maxWidth: 16, speed: 4, width: 16, up: true },
  dn: { maxSpeed: 4, maxWidth: 16, speed: 3, width: 8, up: true },
} as const

// writable bits of each DW: [rw, rw1c]; every other bit of DWs 0..1023 is read-only
const WRITABLE: Record<number, [number, number]> = {
  1: [0x0000_0006, 0xf900_0000], // command: memory space, bus master; status error bits
  3: [0x0000_00ff, 0],           // cache line size
  6: [0x00ff_ffff, 0],           // primary, secondary, subordinate bus
  7: [0, 0xf900_0000],           // secondary status error bits
  8: [0xfff0_fff0, 0],           // memory base / limit
  9: [0xfff0_fff0, 0],           // prefetchable base / limit, low
  10: [0xffff_ffff, 0],          // prefetchable base, upper 32
  11: [0xffff_ffff, 0],          // prefetchable limit, upper 32
  15: [0x0003_00ff, 0],          // bridge control parity / SERR, interrupt line
  18: [0x0000_00ef, 0x000f_0000], // device control; device status error bits
  20: [0x0000_00c3, 0],          // link control
}

export class CfgSpace {
  private readonly stored = new Map<number, number>()
  constructor(readonly port: Port) {}

  private fixed(dw: number): number {
    const ids = SWITCH_IDS
    const link = LINKS[this.port]
    switch (dw) {
      case 0: return (((this.port === 'up' ? ids.upstreamDeviceId : ids.downstreamDeviceId) << 16) | ids.vendorId) >>> 0
      case 1: return 0x0010_0000
      case 2: return ((ids.classCode << 8) | ids.revisionId) >>> 0
      case 3: return 0x0001_0000
      case 9: return 0x0001_0001
      case 13: return 0x40
      case 16: return (((this.port === 'up' ? 5 : 6) << 20) | (2 << 16) | 0x10) >>> 0
      case 17: return 0x8001
      case 19: return (((this.port === 'up' ? 0 : 1) << 24) | (link.maxWidth << 4) | link.maxSpeed) >>> 0
      case 20: return ((this.port === 'dn' && link.up ? 1 << 29 : 0) | (link.width << 20) | (link.speed << 16)) >>> 0
      default: return 0
    }
  }
  read(dw: number): number {
    const [rw, rw1c] = WRITABLE[dw] ?? [0, 0]
    const m = (rw | rw1c) >>> 0
    return ((this.fixed(dw) & ~m) | ((this.stored.get(dw) ?? 0) & m)) >>> 0
  }
  write(dw: number, be: number, data: number): void {
    const [rw, rw1c] = WRITABLE[dw] ?? [0, 0]
    let bytes = 0
    for (let i = 0; i < 4; i++) if (be & (1 << i)) bytes |= 0xff << (8 * i)
    const cur = this.stored.get(dw) ?? 0
    const wrRw = rw & bytes
    const clear = rw1c & bytes & data
    this.stored.set(dw, ((cur & ~wrRw & ~clear) | (data & wrRw)) >>> 0)
  }
  urDetected(): void {
    this.stored.set(18, ((this.stored.get(18) ?? 0) | (1 << 19)) >>> 0)
  }
  get memEnable(): boolean { return (this.read(1) & 2) !== 0 }
  get busMaster(): boolean { return (this.read(1) & 4) !== 0 }
  get primary(): number { return this.read(6) & 0xff }
  get secondary(): number { return (this.read(6) >> 8) & 0xff }
  get subordinate(): number { return (this.read(6) >> 16) & 0xff }
  /** Inside the memory window or the 64-bit prefetchable window (inclusive, 1 MiB granules). */
  claims(addr: bigint): boolean {
    const mb = addr >> 20n
    const m = this.read(8)
    const memBase = BigInt((m >>> 4) & 0xfff)
    const memLimit = BigInt((m >>> 20) & 0xfff)
    const p = this.read(9)
    const pBase = (BigInt(this.read(10)) << 12n) | BigInt((p >>> 4) & 0xfff)
    const pLimit = (BigInt(this.read(11)) << 12n) | BigInt((p >>> 20) & 0xfff)
    return (mb >> 12n === 0n && mb >= memBase && mb <= memLimit) || (mb >= pBase && mb <= pLimit)
  }
}

// ---------------------------------------------------------------- the switch

export class SwitchModel {
  readonly cfg = { up: new CfgSpace('up'), dn: new CfgSpace('dn') }
  readonly counters: Record<Port, number[]> = { up: SWITCH_COUNTERS.map(() => 0), dn: SWITCH_COUNTERS.map(() => 0) }

  /** The fate of `tlp` arriving at `from`, with its side effects (configuration writes, counters). */
  receive(from: Port, tlp: Tlp): Fate {
    const f = this.route(from, tlp)
    this.counters[from][SWITCH_COUNTERS.indexOf(f.counter)]! += 1
    return f
  }

  private addr(hdr: bigint): bigint {
    const fmt = bits(hdr, 127, 125)
    return fmt & 1 ? (BigInt(bits(hdr, 63, 32)) << 32n) | BigInt(bits(hdr, 31, 2) << 2) : BigInt(bits(hdr, 63, 34)) << 2n
  }

  private route(from: Port, tlp: Tlp): Fate {
    const { up, dn } = this.cfg
    const hdr = tlp.hdr
    const fmt = bits(hdr, 127, 125)
    const type = bits(hdr, 124, 120)
    const fwd = (cls: Cls, t: Tlp = tlp): Fate => ({ kind: 'fwd', to: other(from), cls, tlp: t, counter: 'FWD' })
    const drop = (counter: SwitchCounterName): Fate => ({ kind: 'drop', counter })
    const ur = (): Fate => {
      this.cfg[from].urDetected()
      return { kind: 'local', to: from, cpl: this.completion(from, tlp, 'ur'), counter: 'UR' }
    }
    const isMem = type >> 1 === 0
    const isAtomic = type >> 2 === 0b011 && type !== 0b01111
    const write = (fmt & 2) !== 0
    if (fmt & 4 || (isMem && write && type & 1)) return drop('MALFORMED')

    const a = this.addr(hdr)
    const memOk =
      from === 'up'
        ? up.memEnable && dn.memEnable && up.claims(a) && dn.claims(a)
        : up.busMaster && dn.busMaster && !up.claims(a) && !dn.claims(a)
    const bus = bits(hdr, 63, 56)
    const inUp = bus >= up.secondary && bus <= up.subordinate
    const inDn = bus >= dn.secondary && bus <= dn.subordinate
    const idOk = from === 'up' ? inUp && inDn : !inUp

    if (isMem || isAtomic) {
      const posted = isMem && write
      if (!memOk || (from === 'dn' && isMem && type & 1)) return posted ? drop('DROP_POSTED') : ur()
      return fwd(posted ? 'P' : 'NP')
    }
    if (type >> 1 === 0b0010) {
      if (from === 'dn') return ur()
      const dev0fn0 = bits(hdr, 55, 48) === 0
      if (!(type & 1)) return dev0fn0 ? this.local(tlp, 'up') : ur()
      if (bus === up.secondary) return dev0fn0 ? this.local(tlp, 'dn') : ur()
      if (inUp && bus === dn.secondary) {
        if (bits(hdr, 55, 51) !== 0) return ur()
        return fwd('NP', { hdr: hdr & ~(1n << 120n), payload: tlp.payload })
      }
      return inUp && inDn ? fwd('NP') : ur()
    }
    if (type >> 1 === 0b0101) return idOk ? fwd('CPL') : drop('DROP_CPL')
    if (type >> 3 === 0b10) {
      switch (type & 7) {
        case 0:
        case 5:
          return from === 'dn' ? fwd('P') : drop('MALFORMED')
        case 1:
          return memOk ? fwd('P') : drop('DROP_POSTED')
        case 2:
          return idOk ? fwd('P') : drop('DROP_POSTED')
        case 3:
          return from === 'up' ? fwd('P') : drop('MALFORMED')
        default:
          return drop('MSG_LOCAL')
      }
    }
    if (type === 0b00010) return ur()
    return drop('MALFORMED')
  }

  /** A configuration request for one of the switch's own ports: the access, then its completion. */
  private local(tlp: Tlp, target: Port): Fate {
    const write = bits(tlp.hdr, 126, 126) === 1
    const dw = bits(tlp.hdr, 43, 34)
    // the completion carries the IDs as they were when the request arrived (a write to the
    // bus numbers changes the Completer ID of later completions only)
    const cplTlp = this.completion(target, tlp, write ? 'sc' : 'scData', write ? undefined : this.cfg[target].read(dw))
    if (write) this.cfg[target].write(dw, bits(tlp.hdr, 67, 64), tlp.payload[0] ?? 0)
    return { kind: 'local', to: 'up', cpl: cplTlp, counter: 'CFG_LOCAL' }
  }

  /** The port's own ID: the upstream port is device 0 on its primary bus, the downstream port device 0 on the internal bus. */
  portId(p: Port): number {
    return (p === 'up' ? this.cfg.up.primary : this.cfg.up.secondary) << 8
  }

  private completion(by: Port, req: Tlp, kind: 'ur' | 'sc' | 'scData', data?: number): Tlp {
    const h = req.hdr
    const d = decode(h)
    const tag = (bits(h, 119, 119) << 9) | (bits(h, 115, 115) << 8) | bits(h, 79, 72)
    let byteCount = 4
    let lower = 0
    if (kind === 'ur' && d.memRead) {
      byteCount = d.zeroLen ? 1 : d.bytes & 0xfff
      lower = ((bits(h, 127, 125) & 1 ? bits(h, 6, 2) : bits(h, 38, 34)) << 2) | d.lead
    }
    const c = cpl(this.portId(by), bits(h, 95, 80), tag, kind === 'ur' ? 1 : 0, byteCount, lower, kind === 'scData' ? [data ?? 0] : [])
    // TC and Attr are echoed from the request
    const echo = (1n << 118n) | (1n << 117n) | (1n << 116n) | (1n << 114n) | (1n << 109n) | (1n << 108n)
    return { hdr: c.hdr | (h & echo), payload: c.payload }
  }
}

// ---------------------------------------------------------------- vectors for tb_sw_router

export const DATA_DW = 8 // 256-bit beats

/**
 * The stream's shape: DWs per beat and TLP segments per beat (the straddled format of
 * bar_responder and the switch: a beat is `segments` segments of dataDw / segments DWs; a TLP
 * starts in any segment and runs on into the next ones).
 */
export interface Layout {
  segments: number
  dataDw: number
}
export const ONE_SEGMENT: Layout = { segments: 1, dataDw: DATA_DW }

/** Segments of a TLP, segDw DWs each: [sop, eop, strb, data DWs]; a header-only TLP is one segment with strb 0. */
export function beatsOf(t: Tlp, segDw = DATA_DW): { sop: boolean; eop: boolean; strb: number; data: number[] }[] {
  const n = Math.max(1, Math.ceil(t.payload.length / segDw))
  const out = []
  for (let b = 0; b < n; b++) {
    const data = t.payload.slice(b * segDw, (b + 1) * segDw)
    out.push({ sop: b === 0, eop: b === n - 1, strb: (1 << data.length) - 1, data })
  }
  return out
}

const hex = (v: bigint, bits: number): string => v.toString(16).padStart(Math.ceil(bits / 4), '0')

/** One output segment as tb_sw_router compares it: {sop, eop, strb, data, hdr} (hdr 0 after the first). */
function segmentHex(t: Tlp, segDw: number): string[] {
  return beatsOf(t, segDw).map((b) => {
    let data = 0n
    b.data.forEach((v, i) => (data |= BigInt(v >>> 0) << BigInt(32 * i)))
    const hdr = b.sop ? t.hdr : 0n
    const word = (BigInt(b.sop ? 1 : 0) << BigInt(1 + segDw + 32 * segDw + 128)) |
      (BigInt(b.eop ? 1 : 0) << BigInt(segDw + 32 * segDw + 128)) |
      (BigInt(b.strb) << BigInt(32 * segDw + 128)) | (data << 128n) | hdr
    return hex(word, 2 + segDw + 32 * segDw + 128)
  })
}

/**
 * Input beats of one port: {sop[S], eop[S], valid[S], strb, data, hdr[S*128]} per beat (segment s's
 * header at [128*s], its DWs at data[32*segDw*s]). The TLPs in order, each starting in the segment
 * after the last one's end, or after `idle()` empty segments; the last beat padded with empty ones; a
 * beat left with no TLP in it is left out.
 */
export function packBeats(tlps: Tlp[], layout: Layout, idle: () => number = () => 0): string[] {
  const S = layout.segments
  const segDw = layout.dataDw / S
  const segs: ({ sop: boolean; eop: boolean; strb: number; data: number[]; hdr: bigint } | null)[] = []
  for (const t of tlps) {
    for (let i = idle(); i > 0; i--) segs.push(null)
    for (const b of beatsOf(t, segDw)) segs.push({ ...b, hdr: b.sop ? t.hdr : 0n })
  }
  while (segs.length % S) segs.push(null)
  const width = 3 * S + layout.dataDw + 32 * layout.dataDw + 128 * S
  const out: string[] = []
  for (let b = 0; b < segs.length; b += S) {
    let sop = 0n, eop = 0n, valid = 0n, strb = 0n, data = 0n, hdr = 0n
    for (let s = 0; s < S; s++) {
      const g = segs[b + s]
      if (!g) continue
      const bit = 1n << BigInt(s)
      valid |= bit
      if (g.sop) sop |= bit
      if (g.eop) eop |= bit
      strb |= BigInt(g.strb) << BigInt(s * segDw)
      g.data.forEach((v, i) => (data |= BigInt(v >>> 0) << BigInt(32 * (s * segDw + i))))
      hdr |= g.hdr << BigInt(128 * s)
    }
    // a beat of empty segments only is no beat (the bench's idle clocks are its own)
    if (!valid) continue
    const sh = (v: bigint, at: number) => v << BigInt(at)
    const dBits = 32 * layout.dataDw
    const word = sh(sop, 2 * S + layout.dataDw + dBits + 128 * S) | sh(eop, S + layout.dataDw + dBits + 128 * S) |
      sh(valid, layout.dataDw + dBits + 128 * S) | sh(strb, dBits + 128 * S) | sh(data, 128 * S) | hdr
    out.push(hex(word, width))
  }
  return out
}

export interface Phase {
  name: string
  /** random idle clocks on inputs and random ready on outputs; false: full rate, checked for bubbles */
  backpressure: boolean
  /** each egress's np_ok (the link partner takes a non-posted request) drops for random stretches */
  npRandom?: boolean
  /**
   * these egress ports' np_ok stays low until every posted TLP and completion of the phase has
   * left them (none of them may wait behind a non-posted request), then rises
   */
  npBlocked?: Port[]
  up: Tlp[]
  dn: Tlp[]
}

/**
 * Output lists per egress port: forwarded P / NP / CPL in arrival order, local completions; with
 * each TLP the posted TLPs and the completions forwarded to that port before it (in this phase).
 */
export type Lists = Record<Port, Record<Cls | 'LOC', { tlp: Tlp; postedBefore: number; cplBefore: number }[]>>

export function expectOutputs(sw: SwitchModel, phase: Phase): Lists {
  const lists: Lists = {
    up: { P: [], NP: [], CPL: [], LOC: [] },
    dn: { P: [], NP: [], CPL: [], LOC: [] },
  }
  // each ingress is in order; the phase's configuration is fixed before traffic from the GPU side
  // (the generator never mixes fate-changing configuration writes with dn traffic)
  for (const from of ['up', 'dn'] as const) {
    let posted = 0
    let cpls = 0
    for (const t of phase[from]) {
      const f = sw.receive(from, t)
      if (f.kind === 'fwd') {
        lists[f.to][f.cls].push({ tlp: f.tlp, postedBefore: posted, cplBefore: cpls })
        if (f.cls === 'P') posted++
        if (f.cls === 'CPL') cpls++
      } else if (f.kind === 'local') lists[f.to].LOC.push({ tlp: f.cpl, postedBefore: 0, cplBefore: 0 })
    }
  }
  return lists
}

// bus numbers and windows an OS would pick: root bus 0, switch up port on 1, internal bus 2, GPU on 3
export const ENUM = { primary: 0, upSec: 2, upSub: 3, dnSec: 3, dnSub: 3, mem: [0xf00, 0xf0f], pref: [0x38_000n, 0x38_3ffn] } as const
const HOST_ID = 0x0000 // root port requester ID
const GPU_ID = 0x0300 // bus 3, device 0

/** Configuration as an OS enumerates root port -> switch up port -> down port -> GPU. */
export function enumeration(): Tlp[] {
  const t: Tlp[] = []
  let tag = 0
  const rd = (type1: boolean, bus: number, reg: number) => t.push(cfgRd(type1, bus, 0, 0, reg, HOST_ID, tag++ & 0xff))
  const wr = (type1: boolean, bus: number, reg: number, v: number, be = 0xf) => t.push(cfgWr(type1, bus, 0, 0, reg, v, be, HOST_ID, tag++ & 0xff))
  // upstream port (type 0 on bus 1)
  for (const r of [0, 2, 3, 13, 16, 17, 19, 20]) rd(false, 1, r)
  wr(false, 1, 6, (0xff << 16) | (ENUM.upSec << 8) | 1) // primary 1, secondary 2, subordinate 0xff while scanning
  rd(false, 1, 6)
  // downstream port (type 1 to bus 2, device 0)
  for (const r of [0, 2, 3, 16, 19, 20]) rd(true, ENUM.upSec, r)
  wr(true, ENUM.upSec, 6, (0xff << 16) | (ENUM.dnSec << 8) | ENUM.upSec)
  rd(true, ENUM.upSec, 6)
  // the GPU: type 1 to bus 3 becomes type 0 below the switch
  rd(true, ENUM.dnSec, 0)
  // the scan found nothing further: subordinate numbers closed
  wr(true, ENUM.upSec, 6, 0x30000 | (ENUM.dnSec << 8) | ENUM.upSec, 0x4)
  wr(false, 1, 6, 0x30000 | (ENUM.upSec << 8) | 1, 0x4)
  // windows: both ports forward [0xF000_0000, 0xF0FF_FFFF] and the 64-bit [0x38_0000_0000, 0x38_3FFF_FFFF]
  for (const [type1, bus] of [[false, 1], [true, ENUM.upSec]] as const) {
    wr(type1, bus, 8, (ENUM.mem[1] << 20) | (ENUM.mem[0] << 4))
    wr(type1, bus, 9, (Number(ENUM.pref[1] & 0xfffn) << 20) | (Number(ENUM.pref[0] & 0xfffn) << 4))
    wr(type1, bus, 10, Number(ENUM.pref[0] >> 12n))
    wr(type1, bus, 11, Number(ENUM.pref[1] >> 12n))
    wr(type1, bus, 1, 0x6) // memory space, bus master
    for (const r of [1, 6, 8, 9, 10, 11]) rd(type1, bus, r)
  }
  wr(false, 1, 3, 0x10, 0x1) // cache line size
  rd(false, 1, 3)
  return t
}

/** Configuration targets the switch must refuse with UR, and TLPs it must discard. */
export function illegal(): Tlp[] {
  return [
    cfgRd(false, 1, 1, 0, 0, HOST_ID, 1), // type 0, device 1
    cfgRd(false, 1, 0, 3, 0, HOST_ID, 2), // type 0, function 3
    cfgRd(true, ENUM.upSec, 1, 0, 0, HOST_ID, 3), // internal bus, device 1
    cfgRd(true, ENUM.dnSec, 2, 0, 0, HOST_ID, 4), // below the down port, device 2
    cfgRd(true, 9, 0, 0, 0, HOST_ID, 5), // beyond the subordinate bus
    cfgWr(true, 0x20, 0, 0, 6, 0, 0xf, HOST_ID, 6),
    mem(0xe000_0000n, 4, HOST_ID, 7), // outside the windows: UR
    mem(0xe000_0000n, 2, HOST_ID, 8, [1, 2]), // posted: discarded
    ioRd(0x1000, HOST_ID, 9),
    cpl(0x0300, 0x0500, 10, 0, 4, 0, [0xabc]), // requester on no bus below
    msg(0, 0x20, HOST_ID), // to the root complex, flowing down
    msg(4, 0x50, HOST_ID), // local
    { hdr: 0x8000_0000n << 96n, payload: [] }, // a prefix
    cfgRd(false, 1, 0, 0, 18, HOST_ID, 11), // Device Status: UR Detected now set
  ]
}

/**
 * Reprogramming after enumeration: a deeper bus range (type 1 for buses 4..5 forwarded unchanged),
 * a smaller memory window and Bus Master off on the downstream port; then the GPU's requests with
 * Bus Master off (UR / discarded; its completions still pass); then the enumerated settings again.
 */
export function reprogram(): { narrow: Tlp[]; gpu: Tlp[]; restore: Tlp[] } {
  const narrow = [
    cfgWr(false, 1, 0, 0, 6, (5 << 16) | (ENUM.upSec << 8) | 1, 0xf, HOST_ID, 1),
    cfgWr(true, ENUM.upSec, 0, 0, 6, (5 << 16) | (ENUM.dnSec << 8) | ENUM.upSec, 0xf, HOST_ID, 2),
    cfgWr(true, ENUM.upSec, 0, 0, 8, (0xf03 << 20) | (0xf00 << 4), 0xf, HOST_ID, 3),
    cfgWr(true, ENUM.upSec, 0, 0, 1, 0x2, 0x1, HOST_ID, 4),
    cfgRd(true, ENUM.upSec, 0, 0, 1, HOST_ID, 5),
    cfgRd(true, 4, 0, 0, 0, HOST_ID, 6), // type 1, forwarded unchanged
    cfgWr(true, 5, 7, 1, 3, 0x12345678, 0xf, HOST_ID, 7),
    cfgRd(true, 6, 0, 0, 0, HOST_ID, 8), // beyond the new subordinate: UR
    mem(0xf020_0000n, 4, HOST_ID, 9), // inside the narrowed window
    mem(0xf050_0000n, 4, HOST_ID, 10), // inside the upstream window only: UR
    mem(0xf080_0000n, 2, HOST_ID, 11, [5, 6]), // discarded
    mem(0xf030_0000n, 2, HOST_ID, 12, [7, 8]), // forwarded
    cpl(HOST_ID, 0x0500, 13, 0, 4, 0, [9]), // requester on bus 5, now below
  ]
  const gpu = [
    mem(0x1_0000_0000n, 8, GPU_ID, 1), // Bus Master off: UR
    mem(0x1_0000_0100n, 2, GPU_ID, 2, [1, 2]), // discarded
    cpl(GPU_ID, HOST_ID, 3, 0, 4, 0, [3]), // completions are not gated by Bus Master
    msg(0, 0x20, GPU_ID), // messages neither
  ]
  const restore = [
    cfgWr(true, ENUM.upSec, 0, 0, 1, 0x6, 0x1, HOST_ID, 1),
    cfgWr(true, ENUM.upSec, 0, 0, 8, (ENUM.mem[1] << 20) | (ENUM.mem[0] << 4), 0xf, HOST_ID, 2),
    cfgWr(true, ENUM.upSec, 0, 0, 6, (ENUM.dnSub << 16) | (ENUM.dnSec << 8) | ENUM.upSec, 0xf, HOST_ID, 3),
    cfgWr(false, 1, 0, 0, 6, (ENUM.upSub << 16) | (ENUM.upSec << 8) | 1, 0xf, HOST_ID, 4),
    cfgRd(true, ENUM.upSec, 0, 0, 8, HOST_ID, 5),
  ]
  return { narrow, gpu, restore }
}

export interface Scenario {
  phases: Phase[]
}

/** Seeded random traffic in both directions after enumeration. */
export function randomTraffic(seed: number, count: number): Phase {
  const r = rng(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
  const int = (n: number) => Math.floor(r() * n)
  const words = (n: number) => Array.from({ length: n }, () => (r() * 2 ** 32) >>> 0)
  const inMem = () => 0xf000_0000n + BigInt(int(0x100_0000) & ~3)
  const inPref = () => (ENUM.pref[0] << 20n) + BigInt(int(0x4000_0000) & ~3)
  const hostMem = () => 0x1_0000_0000n + BigInt(int(0x1000_0000) & ~3)
  const up: Tlp[] = []
  const dn: Tlp[] = []
  for (let i = 0; i < count; i++) {
    const tag = i & 0xff
    up.push(
      pick([
        () => {
          const n = 1 + int(24)
          return mem(pick([inMem, inPref])(), n, HOST_ID, tag, words(n))
        },
        () => mem(pick([inMem, inPref])(), 1 + int(32), HOST_ID, tag),
        () => cpl(HOST_ID, GPU_ID | int(8), tag, 0, 4 * (1 + int(32)), int(128), words(1 + int(32))),
        () => cfgRd(true, ENUM.dnSec, 0, int(8), int(64), HOST_ID, tag),
        () => cfgRd(pick([false, true]), pick([1, ENUM.upSec]), 0, 0, pick([0, 1, 2, 6, 8, 19, 20]), HOST_ID, tag),
        () => cfgWr(false, 1, 0, 0, 3, (r() * 256) >>> 0, 0x1, HOST_ID, tag),
        () => msg(3, 0x19, HOST_ID),
        () => mem(0xd000_0000n, 1 + int(8), HOST_ID, tag),
        () => cpl(HOST_ID, 0x0700, tag, 0, 4, 0, [1]),
      ])(),
    )
    dn.push(
      pick([
        () => mem(hostMem(), 1 + int(32), GPU_ID, tag),
        () => mem(hostMem(), 1 + int(32), GPU_ID, tag),
        () => {
          const n = 1 + int(24)
          return mem(hostMem(), n, GPU_ID, tag, words(n))
        },
        () => cpl(GPU_ID, HOST_ID, tag, 0, 4 * (1 + int(16)), 0, words(1 + int(16))),
        () => msg(0, 0x20, GPU_ID),
        () => mem(inMem(), 4, GPU_ID, tag), // peer address inside the window: UR
        () => cfgRd(false, 0, 0, 0, 0, GPU_ID, tag),
        () => msg(3, 0x19, GPU_ID),
      ])(),
    )
  }
  return { name: 'random', backpressure: true, up, dn }
}

/**
 * Non-posted requests held back: both egress ports see np_ok low while posted TLPs, completions
 * and non-posted requests arrive mixed; every posted TLP and completion must leave, no
 * non-posted request until np_ok rises, then all of them in order. `count` TLPs per direction,
 * about a third non-posted (at most 12 per port: they all fit the switch's non-posted queue).
 */
export function npBlocked(seed: number, count = 36): Phase {
  const r = rng(seed * 104729 + 3)
  const int = (n: number) => Math.floor(r() * n)
  const words = (n: number) => Array.from({ length: n }, () => (r() * 2 ** 32) >>> 0)
  const up: Tlp[] = []
  const dn: Tlp[] = []
  let npUp = 0
  let npDn = 0
  for (let i = 0; i < count; i++) {
    const tag = i & 0xff
    const kindUp = npUp < 12 && i % 3 === 1 ? 2 : int(2)
    if (kindUp === 2) npUp++
    up.push(
      kindUp === 0
        ? mem(0xf000_0000n + BigInt(64 * i), 1 + int(16), HOST_ID, tag, words(1 + int(16)))
        : kindUp === 1
          ? cpl(HOST_ID, GPU_ID, tag, 0, 64, 0, words(1 + int(16)))
          : i % 2
            ? mem(0xf000_0000n + BigInt(128 * i), 1 + int(32), HOST_ID, tag)
            : cfgRd(true, ENUM.dnSec, 0, 0, int(64), HOST_ID, tag),
    )
    const kindDn = npDn < 12 && i % 3 === 2 ? 2 : int(2)
    if (kindDn === 2) npDn++
    dn.push(
      kindDn === 0
        ? i % 4 === 0
          ? msg(0, 0x20, GPU_ID)
          : mem(0x1_0000_0000n + BigInt(64 * i), 1 + int(16), GPU_ID, tag, words(1 + int(16)))
        : kindDn === 1
          ? cpl(GPU_ID, HOST_ID, tag, 0, 64, 0, words(1 + int(16)))
          : mem(0x1_0000_0000n + BigInt(128 * i), 1 + int(32), GPU_ID, tag),
    )
  }
  return { name: 'np-blocked', backpressure: true, npBlocked: ['up', 'dn'], up, dn }
}

/**
 * The throughput check: `beats` beats in each direction with every segment of every beat holding
 * part of a forwarded TLP (TLPs of one to three segments, back to back, of every class), so a
 * switch without bubbles puts out the same number of beats, each as full.
 */
export function fullRate(beats: number, layout: Layout = ONE_SEGMENT, seed = 1): Phase {
  const r = rng(seed * 7919 + layout.segments)
  const int = (n: number) => Math.floor(r() * n)
  const segDw = layout.dataDw / layout.segments
  const total = beats * layout.segments
  const stream = (make: (segs: number, i: number) => Tlp): Tlp[] => {
    const out: Tlp[] = []
    for (let left = total, i = 0; left > 0; i++) {
      const segs = Math.min(left, 1 + int(3))
      out.push(make(segs, i))
      left -= segs
    }
    return out
  }
  // a payload of exactly `segs` segments
  const payload = (segs: number, i: number) => Array.from({ length: (segs - 1) * segDw + 1 + int(segDw) }, (_, k) => (i << 8) + k)
  const up = stream((segs, i) => {
    const tag = i & 0xff
    const kind = segs === 1 ? int(4) : int(2)
    if (kind === 0) {
      const p = payload(segs, i)
      return mem(0xf000_0000n + BigInt(64 * (i & 0xffff)), p.length, HOST_ID, tag, p)
    }
    if (kind === 1) {
      const p = payload(segs, i)
      return cpl(HOST_ID, GPU_ID, tag, 0, 4 * p.length, 0, p)
    }
    if (kind === 2) return mem((ENUM.pref[0] << 20n) + BigInt(128 * (i & 0xffff)), 1 + int(32), HOST_ID, tag)
    return cfgRd(true, ENUM.dnSec, 0, 0, int(64), HOST_ID, tag)
  })
  const dn = stream((segs, i) => {
    const tag = i & 0xff
    const kind = segs === 1 ? int(4) : int(2)
    if (kind === 0) {
      const p = payload(segs, i)
      return mem(0x1_0000_0000n + BigInt(64 * (i & 0xffff)), p.length, GPU_ID, tag, p)
    }
    if (kind === 1) {
      const p = payload(segs, i)
      return cpl(GPU_ID, HOST_ID, tag, 0, 4 * p.length, 0, p)
    }
    if (kind === 2) return mem(0x1_0000_0000n + BigInt(128 * (i & 0xffff)), 1 + int(32), GPU_ID, tag)
    return msg(0, 0x20, GPU_ID)
  })
  return { name: 'full-rate', backpressure: false, up, dn }
}

/**
 * The bench's phases: enumeration, illegal targets, GPU reads and their completions, reprogramming,
 * random (np_ok dropping at random), non-posted requests held back, full rate.
 */
export function scenario(seed: number, randomCount: number, layout: Layout = ONE_SEGMENT, fullRateBeats = 64): Scenario {
  const reads: Tlp[] = []
  const cpls: Tlp[] = []
  for (let i = 0; i < 32; i++) {
    reads.push(mem(0x1_0000_0000n + BigInt(256 * i), 32, GPU_ID, i))
    cpls.push(cpl(HOST_ID, GPU_ID, i, 0, 128, 0, Array.from({ length: 32 }, (_, k) => i * 256 + k)))
  }
  const re = reprogram()
  return {
    phases: [
      { name: 'enumeration', backpressure: true, up: enumeration(), dn: [] },
      { name: 'illegal', backpressure: true, up: illegal(), dn: [cfgRd(true, 1, 0, 0, 0, GPU_ID, 1)] },
      { name: 'gpu-reads', backpressure: true, up: [], dn: reads },
      { name: 'host-completions', backpressure: true, up: cpls, dn: [] },
      { name: 'reprogram', backpressure: true, up: re.narrow, dn: [] },
      { name: 'bus-master-off', backpressure: true, up: [], dn: re.gpu },
      { name: 'restore', backpressure: true, up: re.restore, dn: [] },
      { ...randomTraffic(seed, randomCount), npRandom: true },
      npBlocked(seed),
      fullRate(fullRateBeats, layout, seed),
    ],
  }
}

export interface VectorOptions {
  layout?: Layout
  /** beats per direction in the full-rate phase */
  fullRateBeats?: number
}

/**
 * Writes the bench's files: in_up.hex / in_dn.hex (beats {sop, eop, valid per segment, strb, data, hdr
 * per segment}; in back-pressure phases up to two empty segments before a TLP, so TLPs start in every
 * segment), out_<port>_<cls>.hex (expected segments {sop, eop, strb, data, hdr}), pb_<port>_<cls>.hex (per
 * TLP: posted TLPs that must leave first), cb_<port>_NP.hex (per non-posted request: forwarded completions
 * that must leave first), phases.hex (per phase: flags (bit 0 back-pressure, bit 1 np_ok random, bits 2
 * and 3 np_ok held low on up and on dn until the phase's posted TLPs and completions are out), cumulative input beats
 * and expected output segments/TLPs, then both ports' counters), params.hex (phase count, counter count,
 * link values, segments, DWs per beat, full-rate TLPs per direction).
 */
export function writeSwitchVectors(
  dir: string,
  seed: number,
  randomCount: number,
  opts: VectorOptions = {},
): { phases: number; tlpsIn: number; tlpsOut: number; fullRate: { up: number; dn: number } } {
  const layout = opts.layout ?? ONE_SEGMENT
  const segDw = layout.dataDw / layout.segments
  mkdirSync(dir, { recursive: true })
  const sw = new SwitchModel()
  const s = scenario(seed, randomCount, layout, opts.fullRateBeats ?? 64)
  const r = rng(seed * 31 + 5)
  const idle = () => (r() < 0.3 ? 1 + Math.floor(r() * 2) : 0)
  const inHex: Record<Port, string[]> = { up: [], dn: [] }
  const outKeys = ['up_P', 'up_NP', 'up_CPL', 'up_LOC', 'dn_P', 'dn_NP', 'dn_CPL', 'dn_LOC'] as const
  const outHex = Object.fromEntries(outKeys.map((k) => [k, [] as string[]])) as Record<(typeof outKeys)[number], string[]>
  const pbHex = Object.fromEntries(outKeys.map((k) => [k, [] as string[]])) as Record<(typeof outKeys)[number], string[]>
  const cbHex: Record<Port, string[]> = { up: [], dn: [] }
  const cplSoFar: Record<Port, number> = { up: 0, dn: 0 }
  const phaseLines: string[] = []
  let tlpsIn = 0
  let tlpsOut = 0
  for (const ph of s.phases) {
    for (const p of ['up', 'dn'] as const) inHex[p].push(...packBeats(ph[p], layout, ph.backpressure ? idle : () => 0))
    tlpsIn += ph.up.length + ph.dn.length
    const lists = expectOutputs(sw, ph)
    for (const k of outKeys) {
      const [p, c] = k.split('_') as [Port, Cls | 'LOC']
      // posted TLPs already expected on this egress in earlier phases come first too
      const earlier = pbHex[`${p}_P`].length - (c === 'P' ? 0 : lists[p].P.length)
      for (const e of lists[p][c]) {
        outHex[k].push(...segmentHex(e.tlp, segDw))
        pbHex[k].push((earlier + e.postedBefore).toString(16).padStart(8, '0'))
        if (c === 'NP') cbHex[p].push((cplSoFar[p] + e.cplBefore).toString(16).padStart(8, '0'))
        tlpsOut++
      }
    }
    for (const p of ['up', 'dn'] as const) cplSoFar[p] += lists[p].CPL.length
    const flags = (ph.backpressure ? 1 : 0) | (ph.npRandom ? 2 : 0) | (ph.npBlocked?.includes('up') ? 4 : 0) | (ph.npBlocked?.includes('dn') ? 8 : 0)
    const nums = [flags, inHex.up.length, inHex.dn.length, ...outKeys.map((k) => outHex[k].length), ...outKeys.map((k) => pbHex[k].length)]
    const cnts = [...sw.counters.up, ...sw.counters.dn]
    phaseLines.push([...nums, ...cnts].map((v) => v.toString(16).padStart(8, '0')).join(' '))
  }
  const w = (name: string, lines: string[]) => writeFileSync(join(dir, name), lines.join('\n') + '\n')
  w('in_up.hex', inHex.up)
  w('in_dn.hex', inHex.dn)
  for (const k of outKeys) {
    w(`out_${k}.hex`, outHex[k])
    w(`pb_${k}.hex`, pbHex[k])
  }
  w('cb_up_NP.hex', cbHex.up)
  w('cb_dn_NP.hex', cbHex.dn)
  w('phases.hex', phaseLines)
  const L = LINKS
  const full = s.phases[s.phases.length - 1]!
  w('params.hex', [
    s.phases.length, SWITCH_COUNTERS.length,
    L.up.maxSpeed, L.up.maxWidth, L.up.speed, L.up.width,
    L.dn.maxSpeed, L.dn.maxWidth, L.dn.speed, L.dn.width, L.dn.up ? 1 : 0,
    layout.segments, layout.dataDw, full.up.length, full.dn.length,
    0, // padding to the bench's 16 words
  ].map((v) => v.toString(16).padStart(8, '0')))
  return { phases: s.phases.length, tlpsIn, tlpsOut, fullRate: { up: full.up.length, dn: full.dn.length } }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const arg = (k: string, d: string) => {
    const i = process.argv.indexOf(k)
    return i >= 0 ? process.argv[i + 1]! : d
  }
  const segments = Number(arg('--segments', '1'))
  const res = writeSwitchVectors(arg('--out', 'build/hdl/switch-golden'), Number(arg('--seed', '1')), Number(arg('--random', '400')), {
    layout: { segments, dataDw: Number(arg('--data-dw', segments > 1 ? '16' : String(DATA_DW))) },
    fullRateBeats: Number(arg('--full-rate', '64')),
  })
  console.log(`${res.phases} phases, ${res.tlpsIn} TLPs in, ${res.tlpsOut} TLPs out`)
}
