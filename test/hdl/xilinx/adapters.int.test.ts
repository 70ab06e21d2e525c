// Adapter gates (hdl/xilinx/rtl/): Verilator -Wall lint of each adapter at 256 and 512 bits,
// straddle on and off, and in the Versal form (TLAST_FRAMING: straddle off, 512 and 1024 bits;
// no waivers), Icarus -g2005 -Wall, Yosys check -assert, and tb_xil_adapters under Icarus and
// Verilator against descriptor vectors packed field by field by test/hdl/xilinx/descriptors.ts
// (its unit tests need no simulator). Their Yosys synth_xilinx area is not measured yet.
// Run: npx vitest run --project int test/hdl/xilinx/adapters.int.test.ts
import { mkdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { closing, expectElaborationStops, root, rtl, run, verilateBench } from '../tools.js'
import { writeXilinxVectors, type Framing, type Vectors, type Width } from './descriptors.js'

const build = join(root, 'build/hdl/xilinx')
export const XILINX_RTL = rtl('hdl/xilinx/rtl/xil_adapters.f')

const LINT: Array<[string, string[]]> = [
  ['xil_cq_rx', ['-GDATA_WIDTH=512', '-GSTRADDLE=1']],
  ['xil_cq_rx', ['-GDATA_WIDTH=512', '-GSTRADDLE=0']],
  ['xil_cq_rx', ['-GDATA_WIDTH=256', '-GSTRADDLE=0']],
  ['xil_rc_rx', ['-GDATA_WIDTH=512', '-GSTRADDLE=1']],
  ['xil_rc_rx', ['-GDATA_WIDTH=512', '-GSTRADDLE=0']],
  ['xil_rc_rx', ['-GDATA_WIDTH=256', '-GSTRADDLE=1']],
  ['xil_rc_rx', ['-GDATA_WIDTH=256', '-GSTRADDLE=0']],
  ['xil_rq_tx', ['-GDATA_WIDTH=512']],
  ['xil_rq_tx', ['-GDATA_WIDTH=256']],
  ['xil_cc_tx', ['-GDATA_WIDTH=512']],
  ['xil_cc_tx', ['-GDATA_WIDTH=256']],
  // the Versal form: PL PCIE5 at 512 bits, CPM5 at 512 and 1024 (docs/xilinx.md, "Versal blocks")
  ['xil_cq_rx', ['-GDATA_WIDTH=512', '-GSTRADDLE=0', '-GTLAST_FRAMING=1']],
  ['xil_cq_rx', ['-GDATA_WIDTH=1024', '-GSTRADDLE=0', '-GTLAST_FRAMING=1']],
  ['xil_rc_rx', ['-GDATA_WIDTH=512', '-GSTRADDLE=0', '-GTLAST_FRAMING=1']],
  ['xil_rc_rx', ['-GDATA_WIDTH=1024', '-GSTRADDLE=0', '-GTLAST_FRAMING=1']],
  ['xil_rq_tx', ['-GDATA_WIDTH=512', '-GTLAST_FRAMING=1']],
  ['xil_rq_tx', ['-GDATA_WIDTH=1024', '-GTLAST_FRAMING=1']],
  ['xil_cc_tx', ['-GDATA_WIDTH=512', '-GTLAST_FRAMING=1']],
  ['xil_cc_tx', ['-GDATA_WIDTH=1024', '-GTLAST_FRAMING=1']],
]

describe('xilinx adapters: lint and compile', () => {
  it.each(LINT)('verilator --lint-only -Wall %s %j', (top, params) => {
    const r = run('verilator', ['--lint-only', '-Wall', '--top-module', top, ...params, ...XILINX_RTL])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  it('has no lint waivers in hdl/xilinx', () => {
    expect(run('grep', ['-rln', '-e', 'lint_off', 'hdl/xilinx']).stdout).toBe('')
  })

  it.each(['xil_cq_rx', 'xil_rc_rx', 'xil_rq_tx', 'xil_cc_tx'])('iverilog -g2005 -Wall compiles %s without a warning', (top) => {
    mkdirSync(build, { recursive: true })
    const r = run('iverilog', ['-g2005', '-Wall', '-s', top, '-o', join(build, `${top}.vvp`), ...XILINX_RTL])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  // the receive adapters' 48-DW variable shifts cost Yosys a minute each: bench/xilinx-yosys.mjs checks them
  it.each([
    ['xil_rq_tx', ''],
    ['xil_cc_tx', ''],
    ['xil_rq_tx', 'chparam -set DATA_WIDTH 1024 -set TLAST_FRAMING 1 xil_rq_tx; '],
    ['xil_cc_tx', 'chparam -set DATA_WIDTH 1024 -set TLAST_FRAMING 1 xil_cc_tx; '],
  ])('yosys: hierarchy -check, proc, check -assert on %s %s', (top, chparam) => {
    const r = run('yosys', ['-q', '-p', `read_verilog ${XILINX_RTL.join(' ')}; ${chparam}hierarchy -check -top ${top}; proc; check -assert`])
    expect(r.status, r.out).toBe(0)
  })
  // an unsupported width or straddle stops elaboration in each tool, naming what to fix
  it.each([
    ['xil_cq_rx', [['DATA_WIDTH', 128]], 'xil_cq_rx_DATA_WIDTH_must_be_256_or_512'],
    ['xil_cq_rx', [['DATA_WIDTH', 256], ['STRADDLE', 1]], 'xil_cq_rx_STRADDLE_must_be_0_or_1_at_512_bits_0_at_256'],
    ['xil_rq_tx', [['DATA_WIDTH', 1024]], 'xil_rq_tx_DATA_WIDTH_must_be_256_or_512'],
    ['xil_cq_rx', [['DATA_WIDTH', 512], ['STRADDLE', 1], ['TLAST_FRAMING', 1]], 'xil_cq_rx_STRADDLE_must_be_0_or_1_at_512_bits_0_at_256'],
    ['xil_rc_rx', [['DATA_WIDTH', 512], ['STRADDLE', 1], ['TLAST_FRAMING', 1]], 'xil_rc_rx_STRADDLE_must_be_0_or_1'],
    ['xil_cc_tx', [['DATA_WIDTH', 128], ['TLAST_FRAMING', 1]], 'xil_cc_tx_DATA_WIDTH_must_be_256_512_or_1024_with_TLAST_FRAMING'],
    ['xil_rq_tx', [['DATA_WIDTH', 1024], ['TLAST_FRAMING', 1], ['USER_WIDTH', 16]], 'xil_rq_tx_USER_WIDTH_must_hold_first_be_and_last_be'],
  ] as Array<[string, Array<[string, number]>, string]>)('%s %j stops elaboration, naming %s', (top, params, missing) => {
    expectElaborationStops(top, params, missing, XILINX_RTL, build, [])
  })
})

// (width, straddle, simulator, framing): 512 straddled is what a Gen3 x16 / Gen4 x8 UltraScale+
// design runs, 1024 with tlast framing what the VPK120's CPM5 port can run (docs/xilinx.md, "Versal blocks"); a
// Verilator compile costs a minute or more of `npm test`, so only those two run under both
// simulators, the others under Icarus
const BENCHES: Array<[Width, 0 | 1, 'icarus' | 'verilator', Framing]> = [
  [512, 1, 'icarus', 'pg213'],
  [512, 1, 'verilator', 'pg213'],
  [256, 1, 'icarus', 'pg213'],
  [512, 0, 'icarus', 'pg213'],
  [256, 0, 'icarus', 'pg213'],
  [512, 0, 'icarus', 'tlast'],
  [1024, 0, 'icarus', 'tlast'],
  [1024, 0, 'verilator', 'tlast'],
]

describe.each(BENCHES)('tb_xil_adapters at %i bits, straddle %i, %s, %s framing', (width, straddle, sim, framing) => {
  const dir = join(build, framing === 'pg213' ? `${width}_${straddle}` : `${width}_${framing}`)
  const tlast = framing === 'tlast' ? 1 : 0
  let v: Vectors
  beforeAll(() => {
    v = writeXilinxVectors(dir, 1, width, straddle === 1, 200, framing)
  })
  const defs = [`-DGOLDEN_DIR="${relative(root, dir)}"`] // the benches run in the checkout

  it('passes: every beat, the beat totals and the drop counts', () => {
    let out: string
    let status: number | null
    if (sim === 'icarus') {
      const vvp = join(dir, 'tb.vvp')
      const c = run('iverilog', ['-g2012', ...defs, `-Ptb_xil_adapters.DATA_WIDTH=${width}`, `-Ptb_xil_adapters.STRADDLE=${straddle}`, `-Ptb_xil_adapters.TLAST_FRAMING=${tlast}`, '-s', 'tb_xil_adapters', '-o', vvp, 'hdl/xilinx/tb/tb_xil_adapters.sv', ...XILINX_RTL])
      expect(c.status, c.out).toBe(0)
      ;({ stdout: out, status } = run('vvp', ['-n', vvp]))
    } else {
      const mdir = join(build, 'verilator', `tb_${width}_${straddle}_${framing}`)
      const c = verilateBench(mdir, [...defs, `-GDATA_WIDTH=${width}`, `-GSTRADDLE=${straddle}`, `-GTLAST_FRAMING=${tlast}`, '--top-module', 'tb_xil_adapters', 'hdl/xilinx/tb/tb_xil_adapters.sv', ...XILINX_RTL])
      expect(c.status, c.out.slice(-4000)).toBe(0)
      ;({ stdout: out, status } = run(join(mdir, 'Vtb'), []))
    }
    const res = closing(out)
    expect(res, out.slice(-4000)).toBeDefined()
    expect(res!.failed, out.slice(-4000)).toBe(0)
    const beats = v.cq.expect.length + v.rc.expect.length + v.rq.expect.length + v.cc.expect.length
    // every expected beat, plus 4 beat totals and 4 drop counts
    expect(res!.passed).toBe(beats + 8)
    expect(Math.min(v.cq.drops, v.rc.drops, v.rq.drops, v.cc.drops)).toBeGreaterThan(0)
    expect(v.roundTrip.reads).toBeGreaterThan(50)
    expect(status).toBe(0)
  })
})
