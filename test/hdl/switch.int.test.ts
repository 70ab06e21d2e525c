// Switch HDL gates: Verilator -Wall lint of every switch module (no waivers), Icarus -g2005,
// Yosys check -assert, and tb_sw_router under Icarus and Verilator, on sw_router at 1 segment
// (256 bits) and at 4 (512 bits: several TLP starts per beat), and on pcie_scope_switch_top,
// against vectors from the golden router (test/hdl/switch-golden.ts; its unit tests need no
// simulator). The random phase drops each port's np_ok at random, a later phase holds it low
// while posted TLPs, completions and non-posted requests arrive mixed (posted TLPs and
// completions must all leave, non-posted requests only after np_ok rises). Each run ends with
// the throughput test: a stretch of beats whose every segment holds a forwarded TLP must leave in
// as many beats, with no stall and no bubble.
// synth_xilinx (area, no latches) is in bench/switch.mjs and bench/synth.mjs, to keep this file
// near its one-minute budget.
// Run: npx vitest run --project int test/hdl/switch.int.test.ts
import { mkdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { closing, expectElaborationStops, inc, root, rtl, run, verilateBench } from './tools.js'
import { writeSwitchVectors } from './switch-golden.js'

const build = join(root, 'build/hdl')
const golden = join(build, 'switch-golden')

export const SWITCH_RTL = rtl('hdl/rtl/switch/sw_router.f')

// the switch design's top: the switch plus a probe on each side, the CSR split by tap
export const SWITCH_TOP_RTL = rtl('hdl/rtl/pcie_scope_switch_top.f')

const LINT: Array<[string, string[], string[]?]> = [
  ['sw_router', []],
  ['sw_router', ['-GTLP_DATA_WIDTH=512']],
  ['sw_router', ['-GTLP_DATA_WIDTH=512', '-GTLP_SEG_COUNT=2']],
  ['sw_router', ['-GTLP_DATA_WIDTH=512', '-GTLP_SEG_COUNT=4']],
  ['sw_router', ['-GTLP_DATA_WIDTH=64', '-GQUEUE_ADDR_WIDTH=2', '-GCNT_WIDTH=16']],
  ['sw_cfg_space', ["-GPORT_TYPE=4'd6", "-GDEVICE_ID=16'h9c52"]],
  ['pcie_scope_switch_top', [], SWITCH_TOP_RTL],
  ['pcie_scope_switch_top', ['-GTLP_DATA_WIDTH=512', '-GTAG_WIDTH=10'], SWITCH_TOP_RTL],
  ['pcie_scope_switch_top', ['-GTLP_DATA_WIDTH=512', '-GTLP_SEG_COUNT=4'], SWITCH_TOP_RTL],
  ['probe_axil_tap_demux', [], ['hdl/rtl/probe_axil_tap_demux.v']],
  // the twin's simulation-only wrappers (native/twin/rtl), lint-clean as the design
  ['twin_switch_top', [], [...SWITCH_TOP_RTL, 'native/twin/rtl/twin_switch_top.v']],
  ['twin_switch_top', ['-GTLP_SEG_COUNT=4'], [...SWITCH_TOP_RTL, 'native/twin/rtl/twin_switch_top.v']],
]

// 1 segment of 8 DWs (256 bits), 4 segments of 4 DWs (512 bits); the random phase is shorter at 4
// segments (its TLPs pack four to a beat), bench/switch.mjs runs both at length
const LAYOUTS = {
  1: { layout: { segments: 1, dataDw: 8 }, random: 1500, defs: [] as string[] },
  4: { layout: { segments: 4, dataDw: 16 }, random: 800, defs: ['-DTB_SEGS=4', '-DTB_DW=16'] },
}
type Vectors = ReturnType<typeof writeSwitchVectors>
const vectors: Record<number, Vectors> = {}
const goldenDir = (segs: number) => join(golden, `seg${segs}`)

beforeAll(() => {
  mkdirSync(build, { recursive: true })
  for (const [segs, l] of Object.entries(LAYOUTS)) {
    vectors[Number(segs)] = writeSwitchVectors(goldenDir(Number(segs)), 1, l.random, { layout: l.layout, fullRateBeats: 64 })
  }
})

describe('switch lint and compile', () => {
  it.each(LINT)('verilator --lint-only -Wall %s %j', (top, params, files = SWITCH_RTL) => {
    const r = run('verilator', ['--lint-only', '-Wall', ...inc, '--top-module', top, ...params, ...files])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  it('has no lint waivers in the switch RTL', () => {
    const r = run('grep', ['-rln', '-e', 'lint_off', 'hdl/rtl/switch'])
    expect(r.stdout).toBe('')
  })

  it.each([
    ['sw_router', SWITCH_RTL],
    ['pcie_scope_switch_top', SWITCH_TOP_RTL],
  ] as const)('iverilog -g2005 -Wall compiles %s without a warning', (top, files) => {
    const r = run('iverilog', ['-g2005', '-Wall', ...inc, '-s', top, '-o', join(build, `${top}.vvp`), ...files])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  it.each([
    ['1 segment, 256 bits', ''],
    ['4 segments, 512 bits', 'chparam -set TLP_DATA_WIDTH 512 -set TLP_SEG_COUNT 4 sw_router; '],
  ])('yosys: hierarchy -check, proc, check -assert (%s)', (_name, chparam) => {
    const script = `read_verilog ${inc.join(' ')} ${SWITCH_RTL.join(' ')}; ${chparam}hierarchy -check -top sw_router; proc; check -assert`
    const r = run('yosys', ['-q', '-p', script])
    expect(r.status, r.out).toBe(0)
  })
  // the switch's segment layout is 1, 2 or 4 segments: 3 stops elaboration in each tool, in
  // sw_router and in sw_egress on its own
  it.each([
    ['sw_router', 'sw_router_TLP_SEG_COUNT_must_be_1_2_or_4'],
    ['sw_egress', 'sw_egress_TLP_SEG_COUNT_must_be_1_2_or_4'],
  ])('%s at 3 segments stops elaboration, naming %s', (top, missing) => {
    const params: Array<[string, number]> = [
      ['TLP_DATA_WIDTH', 384],
      ['TLP_SEG_COUNT', 3],
    ]
    expectElaborationStops(top, params, missing, SWITCH_RTL, build)
  })
})

describe.each([
  ['sw_router', 1, [], SWITCH_RTL, ['icarus', 'verilator']],
  ['sw_router', 4, [], SWITCH_RTL, ['icarus', 'verilator']],
  ['pcie_scope_switch_top', 1, ['-DSWITCH_TOP'], SWITCH_TOP_RTL, ['icarus', 'verilator']],
  // the switch top at 4 segments (two probes and their trace units) under Verilator alone: Icarus
  // takes 20 s of the suite for it, and runs the router at 4 segments and the top at 1
  ['pcie_scope_switch_top', 4, ['-DSWITCH_TOP'], SWITCH_TOP_RTL, ['verilator']],
] as const)('testbench tb_sw_router on %s at %i segment(s)', (dutName, segs, defs, files, simulators) => {
  const sims: readonly string[] = simulators
  const tb = 'hdl/tb/tb_sw_router.sv'
  const l = LAYOUTS[segs]
  // GOLDEN_DIR relative to the checkout (the benches run there): the same generated C++ in every clone
  const args = () => [...inc, `-DGOLDEN_DIR="${relative(root, goldenDir(segs))}"`, ...l.defs, ...defs]
  const check = (out: string, status: number | null) => {
    const v = vectors[segs]!
    const res = closing(out)
    expect(res, out.slice(-4000)).toBeDefined()
    expect(res!.failed, out.slice(-4000)).toBe(0)
    // every expected segment and 2 x 7 counters per phase, plus the throughput checks
    expect(res!.passed).toBeGreaterThan(v.tlpsOut)
    // the throughput test: 64 beats each way, every segment a forwarded TLP, out in 64 beats over 64 clocks
    const perBeat = l.layout.segments
    expect(out).toContain(`full rate down: ${v.fullRate.up} TLPs in 64 beats (${64 * perBeat} segments) in, 64 beats (${64 * perBeat} segments) out over 64 clocks`)
    expect(out).toContain(`full rate up: ${v.fullRate.dn} TLPs in 64 beats (${64 * perBeat} segments) in, 64 beats (${64 * perBeat} segments) out over 64 clocks`)
    // several TLPs start in one beat, in and out (none can at 1 segment)
    const multi = /^beats with several TLP starts: (\d+) in, (\d+) out$/m.exec(out)
    expect(multi).not.toBeNull()
    if (segs > 1) {
      expect(Number(multi![1])).toBeGreaterThan(100)
      expect(Number(multi![2])).toBeGreaterThan(100)
      expect(v.fullRate.up + v.fullRate.dn).toBeGreaterThan(64 * 2)
    }
    // the phase with np_ok held low on both ports: 12 non-posted requests held back on each while
    // every posted TLP and completion of the phase left (no non-posted request before that)
    const held = /^np_ok held low: (\d+) posted TLPs and completions out, (\d+) non-posted requests held back$/m.exec(out)
    expect(held).not.toBeNull()
    expect(Number(held![1])).toBeGreaterThan(24)
    expect(Number(held![2])).toBe(24)
    if (dutName === 'pcie_scope_switch_top') {
      expect(out).toMatch(/^probe on the GPU side: [1-9]\d* reads, [1-9]\d* CplD, [1-9]\d* UR$/m)
      // the host side sees the reads that reach the host and the host's completions (no UR of the switch's own)
      expect(out).toMatch(/^probe on the host side: [1-9]\d* reads, [1-9]\d* CplD, \d+ UR$/m)
      // the switch golden poisons nothing: POISONED is checked at 0
      expect(out).toMatch(/^probe on the GPU side: [1-9]\d* Cpl without data, [1-9]\d* MWr, \d+ poisoned$/m)
    }
    expect(status).toBe(0)
  }

  if (sims.includes('icarus')) it('passes under Icarus (iverilog -g2012)', () => {
    const vvp = join(build, 'icarus', `tb_sw_router_${dutName}_seg${segs}.vvp`)
    mkdirSync(join(build, 'icarus'), { recursive: true })
    const c = run('iverilog', ['-g2012', ...args(), '-s', 'tb_sw_router', '-o', vvp, tb, ...files])
    expect(c.status, c.out).toBe(0)
    const r = run('vvp', ['-n', vvp])
    check(r.stdout, r.status)
  })

  if (sims.includes('verilator')) it('passes under Verilator (--binary --timing)', () => {
    const mdir = join(build, 'verilator', `tb_sw_router_${dutName}_seg${segs}`)
    const c = verilateBench(mdir, [...args(), '--top-module', 'tb_sw_router', tb, ...files])
    expect(c.status, c.out.slice(-4000)).toBe(0)
    const r = run(join(mdir, 'Vtb'), [])
    check(r.stdout, r.status)
  })
})
