// Switch HDL gates: Verilator -Wall lint of every switch module (no waivers), Icarus -g2005,
// Yosys check -assert and synth_xilinx, and tb_sw_router under Icarus and Verilator against
// vectors from the golden router (test/hdl/switch-golden.ts; its unit tests need no simulator).
// Run: npx vitest run --project int test/hdl/switch.int.test.ts
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { closing, inc, root, run, synthXcup } from './tools.js'
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

const LINT: Array<[string, string[]]> = [
  ['sw_router', []],
  ['sw_router', ['-GTLP_DATA_WIDTH=512']],
  ['sw_router', ['-GTLP_DATA_WIDTH=64', '-GQUEUE_ADDR_WIDTH=2', '-GCNT_WIDTH=16']],
  ['sw_cfg_space', ["-GPORT_TYPE=4'd6", "-GDEVICE_ID=16'h9c52"]],
]

let vectors: { phases: number; tlpsIn: number; tlpsOut: number }

beforeAll(() => {
  mkdirSync(build, { recursive: true })
  vectors = writeSwitchVectors(golden, 1, 1500)
})

describe('switch lint and compile', () => {
  it.each(LINT)('verilator --lint-only -Wall %s %j', (top, params) => {
    const r = run('verilator', ['--lint-only', '-Wall', ...inc, '--top-module', top, ...params, ...SWITCH_RTL])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  it('has no lint waivers in the switch RTL', () => {
    const r = run('grep', ['-rln', '-e', 'lint_off', 'hdl/rtl/switch'])
    expect(r.stdout).toBe('')
  })

  it('iverilog -g2005 -Wall compiles without a warning', () => {
    const r = run('iverilog', ['-g2005', '-Wall', ...inc, '-s', 'sw_router', '-o', join(build, 'sw_router.vvp'), ...SWITCH_RTL])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  it('yosys: hierarchy -check, proc, check -assert', () => {
    const script = `read_verilog ${inc.join(' ')} ${SWITCH_RTL.join(' ')}; hierarchy -check -top sw_router; proc; check -assert`
    const r = run('yosys', ['-q', '-p', script])
    expect(r.status, r.out).toBe(0)
  })

  it('yosys: synth_xilinx for UltraScale+ at 256 bits, no latches, queues in LUT RAM', () => {
    const { r, ffs, lcs, cells } = synthXcup('sw_router', SWITCH_RTL, join(build, 'synth_switch_xcup.log'))
    expect(r.status, r.out).toBe(0)
    // 2 x 7 fate counters of 32 bits, configuration registers, queue pointers
    expect(ffs).toBeGreaterThan(2 * 7 * 32)
    expect(ffs).toBeLessThan(3000)
    expect(cells('RAM64M8') + cells('RAM32M16') + cells('RAM32M')).toBeGreaterThan(0)
    expect(lcs).toBeGreaterThan(0)
  })
})

describe('testbench tb_sw_router', () => {
  const def = `-DGOLDEN_DIR="${golden}"`
  const tb = 'hdl/tb/tb_sw_router.sv'
  const check = (out: string, status: number | null) => {
    const res = closing(out)
    expect(res, out.slice(-4000)).toBeDefined()
    expect(res!.failed, out.slice(-4000)).toBe(0)
    // every expected beat and 2 x 7 counters per phase, plus the two bubble checks
    expect(res!.passed).toBeGreaterThan(vectors.tlpsOut)
    expect(out).toMatch(/^full rate: 64 \+ 64 beats in, 64 \+ 64 out, up port 64 clocks, dn port 64 clocks$/m)
    expect(status).toBe(0)
  }

  it('passes under Icarus (iverilog -g2012)', () => {
    const vvp = join(build, 'icarus', 'tb_sw_router.vvp')
    mkdirSync(join(build, 'icarus'), { recursive: true })
    const c = run('iverilog', ['-g2012', ...inc, def, '-s', 'tb_sw_router', '-o', vvp, tb, ...SWITCH_RTL])
    expect(c.status, c.out).toBe(0)
    const r = run('vvp', ['-n', vvp])
    check(r.stdout, r.status)
  })

  it('passes under Verilator (--binary --timing)', () => {
    const mdir = join(build, 'verilator', 'tb_sw_router')
    mkdirSync(mdir, { recursive: true })
    const c = run('verilator', ['--binary', '--timing', '-j', '2', ...inc, def, '--top-module', 'tb_sw_router', '-Mdir', mdir, '-o', 'Vtb', tb, ...SWITCH_RTL])
    expect(c.status, c.out.slice(-4000)).toBe(0)
    const r = run(join(mdir, 'Vtb'), [])
    check(r.stdout, r.status)
  })
})
