// The switch variant whose upstream port's Type 1 header belongs to a hard block
// (sw_router / pcie_scope_switch_top UP_CFG_IN_BLOCK = 1, docs/xilinx.md, "Versal blocks"): Verilator -Wall lint
// of both tops in that form, and the directed bench tb_sw_router_blk_up under Icarus and
// Verilator (the downstream port's header on the internal bus, UR for a Type 0 request, Type 1
// to the GPU's bus converted, memory routed by the downstream window alone). The same bench
// with the parameter at 0 must fail: it tells the two forms apart.
// Run: npx vitest run --project int test/hdl/switch-blk-up.int.test.ts
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { closing, inc, root, rtl, run, verilateBench } from './tools.js'

const build = join(root, 'build/hdl/switch-blk-up')
const SWITCH_RTL = rtl('hdl/rtl/switch/sw_router.f')
const SWITCH_TOP_RTL = rtl('hdl/rtl/pcie_scope_switch_top.f')
const TB = 'hdl/tb/tb_sw_router_blk_up.sv'

describe('switch with the upstream header in the block: lint', () => {
  it.each([
    ['sw_router', ['-GUP_CFG_IN_BLOCK=1'], SWITCH_RTL],
    ['sw_router', ['-GUP_CFG_IN_BLOCK=1', '-GTLP_DATA_WIDTH=512', '-GTLP_SEG_COUNT=4'], SWITCH_RTL],
    ['pcie_scope_switch_top', ['-GUP_CFG_IN_BLOCK=1', '-GTLP_DATA_WIDTH=512'], SWITCH_TOP_RTL],
  ] as Array<[string, string[], string[]]>)('verilator --lint-only -Wall %s %j', (top, params, files) => {
    const r = run('verilator', ['--lint-only', '-Wall', ...inc, '--top-module', top, ...params, ...files])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })
})

describe('tb_sw_router_blk_up', () => {
  const icarus = (blk: number) => {
    mkdirSync(build, { recursive: true })
    const vvp = join(build, `tb${blk}.vvp`)
    const c = run('iverilog', ['-g2012', ...inc, `-Ptb_sw_router_blk_up.UP_CFG_IN_BLOCK=${blk}`, '-s', 'tb_sw_router_blk_up', '-o', vvp, TB, ...SWITCH_RTL])
    expect(c.status, c.out).toBe(0)
    return run('vvp', ['-n', vvp])
  }

  it('passes under Icarus', () => {
    const r = icarus(1)
    expect(closing(r.stdout), r.stdout).toEqual({ passed: 12, failed: 0 })
    expect(r.status).toBe(0)
  })

  it('fails with the upstream header in fabric (UP_CFG_IN_BLOCK = 0)', () => {
    const r = icarus(0)
    expect(r.stdout).toContain('FAIL Type 0 read: UR')
    expect(closing(r.stdout)!.failed).toBeGreaterThan(0)
  })

  it('passes under Verilator (--binary --timing)', () => {
    const mdir = join(build, 'verilator')
    const c = verilateBench(mdir, [...inc, '--top-module', 'tb_sw_router_blk_up', TB, ...SWITCH_RTL])
    expect(c.status, c.out.slice(-4000)).toBe(0)
    const r = run(join(mdir, 'Vtb'), [])
    expect(closing(r.stdout), r.stdout).toEqual({ passed: 12, failed: 0 })
  })
})
