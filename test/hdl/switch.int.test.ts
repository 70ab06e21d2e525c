// Switch HDL gates: Verilator -Wall lint of every switch module (no waivers), Icarus -g2005,
// Yosys check -assert, and tb_sw_router under Icarus and Verilator, on sw_router and on
// pcie_scope_switch_top, against vectors from the golden router (test/hdl/switch-golden.ts; its
// unit tests need no simulator). synth_xilinx (area, no latches) is in bench/switch.mjs, to keep
// this file near its one-minute budget.
// Run: npx vitest run --project int test/hdl/switch.int.test.ts
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { closing, inc, root, run, verilateBench } from './tools.js'
import { writeSwitchVectors } from './switch-golden.js'

const build = join(root, 'build/hdl')
const golden = join(build, 'switch-golden')

export const SWITCH_RTL = [
  'hdl/rtl/switch/sw_router.v',
  'hdl/rtl/switch/sw_ingress.v',
  'hdl/rtl/switch/sw_route.v',
  'hdl/rtl/switch/sw_egress.v',
  'hdl/rtl/switch/sw_fifo.v',
  'hdl/rtl/switch/sw_cfg_space.v',
  'hdl/rtl/probe_mrd_classify.v',
]

// the switch design's top: the switch plus a probe on each side, the CSR split by tap
export const SWITCH_TOP_RTL = [
  'hdl/rtl/pcie_scope_switch_top.v',
  'hdl/rtl/probe_axil_tap_demux.v',
  'hdl/rtl/probe_core.v',
  ...SWITCH_RTL,
  'hdl/rtl/probe_counters.v',
  'hdl/rtl/probe_counter.v',
  'hdl/rtl/probe_csr.v',
  'hdl/rtl/probe_tracker.v',
  'hdl/rtl/probe_tracker_table.v',
  'hdl/rtl/probe_tracker_stats.v',
  'hdl/rtl/probe_latency_hist.v',
  'hdl/rtl/probe_extreme.v',
  'hdl/rtl/probe_mp_ram.v',
  'hdl/rtl/probe_addr_filter.v',
  'hdl/rtl/probe_sampler.v',
  'hdl/rtl/probe_sample_fifo.v',
]

const LINT: Array<[string, string[], string[]?]> = [
  ['sw_router', []],
  ['sw_router', ['-GTLP_DATA_WIDTH=512']],
  ['sw_router', ['-GTLP_DATA_WIDTH=64', '-GQUEUE_ADDR_WIDTH=2', '-GCNT_WIDTH=16']],
  ['sw_cfg_space', ["-GPORT_TYPE=4'd6", "-GDEVICE_ID=16'h9c52"]],
  ['pcie_scope_switch_top', [], SWITCH_TOP_RTL],
  ['pcie_scope_switch_top', ['-GTLP_DATA_WIDTH=512', '-GTAG_WIDTH=10'], SWITCH_TOP_RTL],
  ['probe_axil_tap_demux', [], ['hdl/rtl/probe_axil_tap_demux.v']],
]

let vectors: { phases: number; tlpsIn: number; tlpsOut: number }

beforeAll(() => {
  mkdirSync(build, { recursive: true })
  vectors = writeSwitchVectors(golden, 1, 1500)
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

  it('yosys: hierarchy -check, proc, check -assert', () => {
    const script = `read_verilog ${inc.join(' ')} ${SWITCH_RTL.join(' ')}; hierarchy -check -top sw_router; proc; check -assert`
    const r = run('yosys', ['-q', '-p', script])
    expect(r.status, r.out).toBe(0)
  })
})

describe.each([
  ['sw_router', [], SWITCH_RTL],
  ['pcie_scope_switch_top', ['-DSWITCH_TOP'], SWITCH_TOP_RTL],
] as const)('testbench tb_sw_router on %s', (dutName, defs, files) => {
  const def = `-DGOLDEN_DIR="${golden}"`
  const tb = 'hdl/tb/tb_sw_router.sv'
  const check = (out: string, status: number | null) => {
    const res = closing(out)
    expect(res, out.slice(-4000)).toBeDefined()
    expect(res!.failed, out.slice(-4000)).toBe(0)
    // every expected beat and 2 x 7 counters per phase, plus the two bubble checks
    expect(res!.passed).toBeGreaterThan(vectors.tlpsOut)
    expect(out).toMatch(/^full rate: 64 \+ 64 beats in, 64 \+ 64 out, up port 64 clocks, dn port 64 clocks$/m)
    if (dutName === 'pcie_scope_switch_top') {
      expect(out).toMatch(/^probe on the GPU side: [1-9]\d* reads, [1-9]\d* CplD, [1-9]\d* UR$/m)
      // the host side sees the reads that reach the host and the host's completions (no UR of the switch's own)
      expect(out).toMatch(/^probe on the host side: [1-9]\d* reads, [1-9]\d* CplD, \d+ UR$/m)
      // the switch golden poisons nothing: POISONED is checked at 0
      expect(out).toMatch(/^probe on the GPU side: [1-9]\d* Cpl without data, [1-9]\d* MWr, \d+ poisoned$/m)
    }
    expect(status).toBe(0)
  }

  it('passes under Icarus (iverilog -g2012)', () => {
    const vvp = join(build, 'icarus', `tb_sw_router_${dutName}.vvp`)
    mkdirSync(join(build, 'icarus'), { recursive: true })
    const c = run('iverilog', ['-g2012', ...inc, def, ...defs, '-s', 'tb_sw_router', '-o', vvp, tb, ...files])
    expect(c.status, c.out).toBe(0)
    const r = run('vvp', ['-n', vvp])
    check(r.stdout, r.status)
  })

  it('passes under Verilator (--binary --timing)', () => {
    const mdir = join(build, 'verilator', `tb_sw_router_${dutName}`)
    const c = verilateBench(mdir, [...inc, def, ...defs, '--top-module', 'tb_sw_router', tb, ...files])
    expect(c.status, c.out.slice(-4000)).toBe(0)
    const r = run(join(mdir, 'Vtb'), [])
    check(r.stdout, r.status)
  })
})
