// Unit tests of the golden router (test/hdl/switch-golden.ts): the rules it encodes, checked
// one by one without a simulator.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SWITCH_COUNTERS, SWITCH_IDS } from '../../host/src/core/generated.js'
import {
  beatsOf,
  cfgRd,
  cfgWr,
  cpl,
  ENUM,
  enumeration,
  expectOutputs,
  fullRate,
  ioRd,
  mem,
  msg,
  npBlocked,
  packBeats,
  randomTraffic,
  reprogram,
  SwitchModel,
  writeSwitchVectors,
  type Fate,
  type Tlp,
} from './switch-golden.js'

const enumerated = (): SwitchModel => {
  const sw = new SwitchModel()
  for (const t of enumeration()) sw.receive('up', t)
  return sw
}
const fateOf = (f: Fate) => (f.kind === 'fwd' ? `fwd:${f.to}:${f.cls}` : f.kind === 'local' ? `local:${f.counter}` : `drop:${f.counter}`)
const dw = (t: Tlp, i: number) => Number((t.hdr >> BigInt(96 - 32 * i)) & 0xffffffffn)
const status = (t: Tlp) => (dw(t, 1) >>> 13) & 7

describe('configuration space', () => {
  it('reads the identity from the spec and the bridge header layout', () => {
    const sw = new SwitchModel()
    const read = (type1: boolean, bus: number, reg: number) => {
      const f = sw.receive('up', cfgRd(type1, bus, 0, 0, reg))
      if (f.kind !== 'local') throw new Error('not local')
      return f.cpl.payload[0]!
    }
    expect(read(false, 0, 0)).toBe(((SWITCH_IDS.upstreamDeviceId << 16) | SWITCH_IDS.vendorId) >>> 0)
    expect(read(false, 0, 2) >>> 8).toBe(0x060400)
    expect((read(false, 0, 3) >>> 16) & 0x7f).toBe(1)
    expect(read(false, 0, 13) & 0xff).toBe(0x40)
    expect((read(false, 0, 16) >>> 20) & 0xf).toBe(5)
    // the downstream port sits on the internal bus (secondary bus of the upstream port, 0 at reset)
    expect((read(true, 0, 16) >>> 20) & 0xf).toBe(6)
    expect(read(true, 0, 0) >>> 16).toBe(SWITCH_IDS.downstreamDeviceId)
  })

  it('keeps read-only bits, honours byte enables, and clears RW1C bits with a 1', () => {
    const sw = new SwitchModel()
    const c = sw.cfg.up
    c.write(0, 0xf, 0xffffffff)
    expect(c.read(0)).toBe(((SWITCH_IDS.upstreamDeviceId << 16) | SWITCH_IDS.vendorId) >>> 0)
    c.write(6, 0x2, 0x00ffffff)
    expect(c.read(6)).toBe(0x0000ff00)
    c.write(1, 0xf, 0xffffffff)
    expect(c.read(1)).toBe(0x0010_0006)
    c.write(9, 0xf, 0xffffffff)
    expect(c.read(9)).toBe(0xfff1_fff1)
    c.urDetected()
    expect((c.read(18) >>> 19) & 1).toBe(1)
    c.write(18, 0xc, 0)
    expect((c.read(18) >>> 19) & 1).toBe(1)
    c.write(18, 0x4, 1 << 19)
    expect((c.read(18) >>> 19) & 1).toBe(0)
  })

  it('mirrors the links into Link Capabilities and Link Status', () => {
    const c = new SwitchModel().cfg.dn
    expect(c.read(19)).toBe((1 << 24) | (16 << 4) | 4)
    expect(c.read(20) >>> 16).toBe((1 << 13) | (8 << 4) | 3)
  })

  it('enumeration programs bus numbers and windows that read back', () => {
    const sw = enumerated()
    expect([sw.cfg.up.primary, sw.cfg.up.secondary, sw.cfg.up.subordinate]).toEqual([1, ENUM.upSec, ENUM.upSub])
    expect([sw.cfg.dn.primary, sw.cfg.dn.secondary, sw.cfg.dn.subordinate]).toEqual([ENUM.upSec, ENUM.dnSec, ENUM.dnSub])
    expect(sw.cfg.dn.memEnable && sw.cfg.dn.busMaster).toBe(true)
    expect(sw.cfg.dn.claims(0xf0ff_fffcn)).toBe(true)
    expect(sw.cfg.dn.claims(0xf100_0000n)).toBe(false)
    expect(sw.cfg.dn.claims(0x38_4000_0000n)).toBe(false)
    expect(sw.cfg.dn.claims((ENUM.pref[1] << 20n) + 0xffffcn)).toBe(true)
  })
})

describe('routing', () => {
  it('answers configuration for its own ports and converts type 1 for the bus below to type 0', () => {
    const sw = enumerated()
    expect(fateOf(sw.receive('up', cfgRd(false, 1, 0, 0, 0)))).toBe('local:CFG_LOCAL')
    expect(fateOf(sw.receive('up', cfgRd(true, ENUM.upSec, 0, 0, 0)))).toBe('local:CFG_LOCAL')
    const f = sw.receive('up', cfgRd(true, ENUM.dnSec, 0, 2, 4))
    expect(fateOf(f)).toBe('fwd:dn:NP')
    if (f.kind === 'fwd') expect((dw(f.tlp, 0) >>> 24) & 0x1f).toBe(0b00100)
  })

  it('refuses illegal configuration targets with UR and sets UR Detected', () => {
    const sw = enumerated()
    for (const t of [cfgRd(false, 1, 1, 0, 0), cfgRd(false, 1, 0, 1, 0), cfgRd(true, ENUM.upSec, 3, 0, 0), cfgRd(true, ENUM.dnSec, 1, 0, 0), cfgRd(true, 4, 0, 0, 0)]) {
      const f = sw.receive('up', t)
      expect(fateOf(f)).toBe('local:UR')
      if (f.kind === 'local') expect(status(f.cpl)).toBe(1)
    }
    expect(fateOf(sw.receive('dn', cfgRd(false, 0, 0, 0, 0)))).toBe('local:UR')
    expect((sw.cfg.up.read(18) >>> 19) & 1).toBe(1)
    expect(sw.counters.up[SWITCH_COUNTERS.indexOf('UR')]).toBe(5)
  })

  it('routes memory by the windows and refuses what no window claims', () => {
    const sw = enumerated()
    expect(fateOf(sw.receive('up', mem(0xf000_0040n, 4, 0, 1)))).toBe('fwd:dn:NP')
    expect(fateOf(sw.receive('up', mem(ENUM.pref[0] << 20n, 4, 0, 1, [1, 2, 3, 4])))).toBe('fwd:dn:P')
    expect(fateOf(sw.receive('up', mem(0xe000_0000n, 4, 0, 1)))).toBe('local:UR')
    expect(fateOf(sw.receive('up', mem(0xe000_0000n, 1, 0, 1, [1])))).toBe('drop:DROP_POSTED')
    expect(fateOf(sw.receive('dn', mem(0x1_0000_0000n, 32, 0x300, 2)))).toBe('fwd:up:NP')
    expect(fateOf(sw.receive('dn', mem(0xf000_0000n, 1, 0x300, 3)))).toBe('local:UR')
    expect(fateOf(sw.receive('up', ioRd(0x100, 0, 4)))).toBe('local:UR')
    // memory space off: nothing goes down
    sw.cfg.dn.write(1, 0x1, 0x4)
    expect(fateOf(sw.receive('up', mem(0xf000_0040n, 4, 0, 1)))).toBe('local:UR')
  })

  it('UR completions of memory reads carry the requested bytes and lower address', () => {
    const sw = enumerated()
    const f = sw.receive('up', mem(0xe000_0044n, 8, 0x0010, 0x5a))
    if (f.kind !== 'local') throw new Error('not local')
    expect(dw(f.cpl, 1) & 0xfff).toBe(32)
    expect(dw(f.cpl, 2)).toBe((0x0010 << 16) | (0x5a << 8) | 0x44)
    expect(dw(f.cpl, 1) >>> 16).toBe(sw.portId('up'))
  })

  it('routes completions by the requester bus and messages by their routing subfield', () => {
    const sw = enumerated()
    expect(fateOf(sw.receive('up', cpl(0, 0x0300, 1, 0, 4, 0, [1])))).toBe('fwd:dn:CPL')
    expect(fateOf(sw.receive('up', cpl(0, 0x0900, 1, 0, 4, 0, [1])))).toBe('drop:DROP_CPL')
    expect(fateOf(sw.receive('dn', cpl(0x300, 0x0000, 1, 0, 4, 0, [1])))).toBe('fwd:up:CPL')
    expect(fateOf(sw.receive('dn', cpl(0x300, 0x0300, 1, 0, 4, 0, [1])))).toBe('drop:DROP_CPL')
    expect(fateOf(sw.receive('dn', msg(0, 0x20, 0x300)))).toBe('fwd:up:P')
    expect(fateOf(sw.receive('up', msg(0, 0x20, 0)))).toBe('drop:MALFORMED')
    expect(fateOf(sw.receive('up', msg(3, 0x19, 0)))).toBe('fwd:dn:P')
    expect(fateOf(sw.receive('dn', msg(3, 0x19, 0x300)))).toBe('drop:MALFORMED')
    expect(fateOf(sw.receive('up', msg(2, 0x7e, 0, 0x0300 << 16)))).toBe('fwd:dn:P')
    expect(fateOf(sw.receive('up', msg(4, 0x50, 0)))).toBe('drop:MSG_LOCAL')
    expect(fateOf(sw.receive('up', msg(6, 0x50, 0)))).toBe('drop:MSG_LOCAL')
    expect(fateOf(sw.receive('up', { hdr: 0x8000_0000n << 96n, payload: [] }))).toBe('drop:MALFORMED')
  })

  it('counts every TLP exactly once', () => {
    const sw = enumerated()
    const ph = randomTraffic(7, 300)
    const before = sw.counters.up.reduce((a, b) => a + b, 0)
    expectOutputs(sw, ph)
    expect(sw.counters.up.reduce((a, b) => a + b, 0) - before).toBe(300)
    expect(sw.counters.dn.reduce((a, b) => a + b, 0)).toBe(300)
  })

  it('orders the expected lists: every forwarded non-posted TLP knows the posted TLPs before it', () => {
    const sw = enumerated()
    const ph = fullRate(16)
    const lists = expectOutputs(sw, ph)
    let posted = 0
    const want: number[] = []
    for (const t of ph.up) {
      const type = Number((t.hdr >> 120n) & 0x1fn)
      const write = ((t.hdr >> 126n) & 1n) === 1n
      if (type === 0b01010) want.push(posted)
      else if (type === 0 && write) posted++
    }
    expect(lists.dn.CPL.map((e) => e.postedBefore)).toEqual(want)
    expect(want.length).toBeGreaterThan(0)
    expect(posted).toBeGreaterThan(0)
  })

  it('every forwarded non-posted request knows the completions before it', () => {
    const sw = enumerated()
    const ph = npBlocked(1)
    const lists = expectOutputs(sw, ph)
    for (const [from, to] of [['up', 'dn'], ['dn', 'up']] as const) {
      let cpls = 0
      const want: number[] = []
      for (const t of ph[from]) {
        const type = Number((t.hdr >> 120n) & 0x1fn)
        const write = ((t.hdr >> 126n) & 1n) === 1n
        if (type === 0b01010) cpls++
        else if (!write && (type === 0 || type === 0b00101)) want.push(cpls)
      }
      expect(lists[to].NP.map((e) => e.cplBefore)).toEqual(want)
      expect(want.length).toBeGreaterThan(0)
      expect(cpls).toBeGreaterThan(0)
    }
  })

  it('holds non-posted requests back on both ports in a phase of mixed classes that all fit the queues', () => {
    const sw = enumerated()
    const ph = npBlocked(1)
    expect(ph.npBlocked).toEqual(['up', 'dn'])
    const lists = expectOutputs(sw, ph)
    for (const p of ['up', 'dn'] as const) {
      // every TLP is forwarded; all three classes, non-posted ones behind posted TLPs and completions
      expect(lists[p].P.length).toBeGreaterThan(4)
      expect(lists[p].CPL.length).toBeGreaterThan(4)
      expect(lists[p].NP.length).toBe(12)
      expect(lists[p].LOC.length).toBe(0)
      expect(lists[p].NP.some((e) => e.postedBefore > 0 && e.cplBefore > 0)).toBe(true)
      // one segment each at 4 DWs per segment: 12 fit the 16 entries of a queue
      for (const e of lists[p].NP) expect(e.tlp.payload.length).toBe(0)
    }
    expect(lists.up.P.length + lists.up.NP.length + lists.up.CPL.length).toBe(ph.dn.length)
    expect(lists.dn.P.length + lists.dn.NP.length + lists.dn.CPL.length).toBe(ph.up.length)
  })

  it('flags the np_ok phases for the bench and writes the completions before each non-posted request', () => {
    const dir = mkdtempSync(join(tmpdir(), 'switch-golden-'))
    try {
      const res = writeSwitchVectors(dir, 1, 50, { fullRateBeats: 8 })
      const phases = readFileSync(join(dir, 'phases.hex'), 'utf8').trim().split('\n').map((l) => l.split(' ').map((w) => parseInt(w, 16)))
      expect(phases.length).toBe(res.phases)
      // random (back-pressure, np_ok random), np-blocked (back-pressure, held low on up and dn), full rate (none)
      expect(phases.map((w) => w[0]).slice(-3)).toEqual([0b0011, 0b1101, 0])
      expect(phases.slice(0, -3).map((w) => w[0])).not.toContain(0)
      const last = phases[phases.length - 1]!
      for (const [p, word] of [['up', 12], ['dn', 16]] as const) {
        const cb = readFileSync(join(dir, `cb_${p}_NP.hex`), 'utf8').trim().split('\n').map((l) => parseInt(l, 16))
        // one per non-posted request, as many as pb_<port>_NP.hex; cumulative, so never falling
        expect(cb.length).toBe(last[word])
        for (let i = 1; i < cb.length; i++) expect(cb[i]).toBeGreaterThanOrEqual(cb[i - 1]!)
        expect(cb[cb.length - 1]).toBeGreaterThan(0)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it.each([
    [{ segments: 1, dataDw: 8 }, 64],
    [{ segments: 4, dataDw: 16 }, 64],
    [{ segments: 2, dataDw: 16 }, 10],
  ])('fills every segment of every full-rate beat with a forwarded TLP (%j, %i beats)', (layout, beats) => {
    const sw = enumerated()
    const ph = fullRate(beats, layout)
    const segDw = layout.dataDw / layout.segments
    for (const from of ['up', 'dn'] as const) {
      const segs = ph[from].map((t) => Math.max(1, Math.ceil(t.payload.length / segDw)))
      expect(segs.reduce((a, b) => a + b, 0)).toBe(beats * layout.segments)
      expect(ph[from].map((t) => fateOf(sw.receive(from, t)).startsWith('fwd:'))).not.toContain(false)
      // TLPs of one to three segments: several start in a beat when there are several segments
      expect(Math.max(...segs)).toBe(3)
      const beatsOut = packBeats(ph[from], layout)
      expect(beatsOut.length).toBe(beats)
      // every beat's valid bits set: {sop, eop, valid, strb, data, hdr}
      const validAt = layout.dataDw + 32 * layout.dataDw + 128 * layout.segments
      const full = (1n << BigInt(layout.segments)) - 1n
      for (const b of beatsOut) expect((BigInt('0x' + b) >> BigInt(validAt)) & full).toBe(full)
    }
  })

  it('packs TLPs into segments: a TLP starts in the segment after the last one ends, or after empty ones', () => {
    const layout = { segments: 4, dataDw: 16 }
    const a = mem(0x1_0000_0000n, 1, 0x300, 1) // one segment
    const b = mem(0x1_0000_0000n, 6, 0x300, 2, [1, 2, 3, 4, 5, 6]) // two segments
    const gaps = [0, 1, 2]
    const beats = packBeats([a, b, a], layout, () => gaps.shift() ?? 0)
    // segments: a | idle | b b || idle idle | a | pad
    expect(beats.length).toBe(2)
    const w = beats.map((h) => BigInt('0x' + h))
    const S = 4
    const field = (v: bigint, at: number) => Number((v >> BigInt(at)) & 0xfn)
    const base = 16 + 32 * 16 + 128 * S
    const [sop0, eop0, valid0] = [field(w[0]!, base + 2 * S), field(w[0]!, base + S), field(w[0]!, base)]
    expect([sop0, eop0, valid0]).toEqual([0b0101, 0b1001, 0b1101])
    const [sop1, eop1, valid1] = [field(w[1]!, base + 2 * S), field(w[1]!, base + S), field(w[1]!, base)]
    expect([sop1, eop1, valid1]).toEqual([0b0100, 0b0100, 0b0100])
    // b's header in segment 2, its DWs 1..4 in segment 2 and 5..6 in segment 3
    expect((w[0]! >> 256n) & ((1n << 128n) - 1n)).toBe(b.hdr)
    expect(Number((w[0]! >> BigInt(128 * S + 32 * 8)) & 0xffffffffn)).toBe(1)
    expect(Number((w[0]! >> BigInt(128 * S + 32 * 13)) & 0xffffffffn)).toBe(6)
  })

  it('cuts TLPs into 256-bit beats', () => {
    expect(beatsOf(mem(0n, 20, 0, 0, Array(20).fill(1))).map((b) => [b.sop, b.eop, b.strb])).toEqual([
      [true, false, 0xff],
      [false, false, 0xff],
      [false, true, 0x0f],
    ])
    expect(beatsOf(cfgWr(false, 0, 0, 0, 1, 5)).length).toBe(1)
  })
})

describe('reprogramming', () => {
  it('follows new bus numbers, windows and Bus Master at once', () => {
    const sw = enumerated()
    const { narrow, gpu, restore } = reprogram()
    expect(narrow.map((t) => fateOf(sw.receive('up', t)))).toEqual([
      ...Array(5).fill('local:CFG_LOCAL'),
      'fwd:dn:NP',
      'fwd:dn:NP',
      'local:UR',
      'fwd:dn:NP',
      'local:UR',
      'drop:DROP_POSTED',
      'fwd:dn:P',
      'fwd:dn:CPL',
    ])
    expect(gpu.map((t) => fateOf(sw.receive('dn', t)))).toEqual(['local:UR', 'drop:DROP_POSTED', 'fwd:up:CPL', 'fwd:up:P'])
    for (const t of restore) sw.receive('up', t)
    expect(fateOf(sw.receive('dn', mem(0x1_0000_0000n, 8, 0x300, 1)))).toBe('fwd:up:NP')
    expect(fateOf(sw.receive('up', mem(0xf050_0000n, 4, 0, 1)))).toBe('fwd:dn:NP')
  })

  it('forwards type 1 for buses below the downstream secondary unchanged', () => {
    const sw = enumerated()
    for (const t of reprogram().narrow.slice(0, 2)) sw.receive('up', t)
    const f = sw.receive('up', cfgRd(true, 5, 3, 0, 0))
    expect(fateOf(f)).toBe('fwd:dn:NP')
    if (f.kind === 'fwd') expect(f.tlp.hdr).toBe(cfgRd(true, 5, 3, 0, 0).hdr)
  })
})
