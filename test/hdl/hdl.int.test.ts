// HDL gates: Verilator -Wall lint, Icarus -g2005 compile, Yosys structural check, and every
// self-checking testbench under both Icarus and Verilator with golden vectors from golden.ts
// (its unit tests, no simulator needed, are in golden.test.ts).
// Run: npx vitest run --project int test/hdl
import { mkdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { closing, expectElaborationStops, inc, root, rtl, run, verilateBench } from './tools.js'
import { writeVectors } from './golden.js'

const build = join(root, 'build/hdl')
const golden = join(build, 'golden')

const RTL = rtl('hdl/rtl/pcie_scope_bar_top.f')
const COUNTERS = rtl('hdl/rtl/probe_counters.f')
const RESPONDER = rtl('hdl/rtl/bar_responder.f')

// top, extra parameters, files
const LINT: Array<[string, string[], string[]]> = [
  ['pcie_scope_bar_top', [], RTL],
  ['pcie_scope_bar_top', ['-GTLP_DATA_WIDTH=64', '-GCNT_WIDTH=48'], RTL],
  ['pcie_scope_bar_top', ['-GTLP_DATA_WIDTH=512'], RTL],
  ['pcie_scope_bar_top', ['-GTLP_DATA_WIDTH=512', '-GTAG_WIDTH=10'], RTL],
  ['probe_counters', ['-GTLP_SEG_COUNT=2'], COUNTERS],
  ['probe_counters', ['-GTLP_SEG_COUNT=4'], COUNTERS],
  ['bar_responder', ['-GTLP_DATA_WIDTH=128', '-GMAX_PAYLOAD_BYTES=4096'], RESPONDER],
  ['bar_responder', ['-GTLP_DATA_WIDTH=512', '-GTLP_SEG_COUNT=2'], RESPONDER],
  ['bar_responder', ['-GTLP_DATA_WIDTH=256', '-GTLP_SEG_COUNT=4', '-GFIFO_DEPTH=4'], RESPONDER],
  ['pcie_scope_bar_top', ['-GTLP_DATA_WIDTH=512', '-GTLP_SEG_COUNT=2'], RTL],
  ['pcie_scope_bar_top', ['-GTLP_DATA_WIDTH=512', '-GTLP_SEG_COUNT=4', '-GTAG_WIDTH=10'], RTL],
  ['probe_csr', [], ['hdl/rtl/probe_csr.v']],
  ['probe_counter', [], ['hdl/rtl/probe_counter.v']],
  ['probe_mrd_classify', [], ['hdl/rtl/probe_mrd_classify.v']],
  // the twin's endpoint-mode wrapper (native/twin/rtl: simulation only), lint-clean as the design
  ['twin_bar_top', [], [...RTL, 'native/twin/rtl/twin_bar_top.v']],
]

// testbench top, its file, the RTL it needs
const TBS: Array<[string, string, string[]]> = [
  ['tb_pcie_scope_bar_top', 'hdl/tb/tb_pcie_scope_bar_top.sv', RTL],
  ['tb_probe_counters', 'hdl/tb/tb_probe_counters.sv', COUNTERS],
]

beforeAll(() => {
  mkdirSync(build, { recursive: true })
  writeVectors(golden, 1, 8)
})

describe('HDL lint (verilator --lint-only -Wall, no waivers)', () => {
  it.each(LINT)('%s %j', (top, params, files) => {
    const r = run('verilator', ['--lint-only', '-Wall', ...inc, '--top-module', top, ...params, ...files])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  it('has no lint waivers in RTL', () => {
    const r = run('grep', ['-rln', '-e', 'lint_off', '-e', 'verilator public', 'hdl/rtl'])
    expect(r.stdout).toBe('')
  })
})

describe('HDL compile', () => {
  it('iverilog -g2005 -Wall compiles the RTL without a warning', () => {
    const r = run('iverilog', ['-g2005', '-Wall', ...inc, '-s', 'pcie_scope_bar_top', '-o', join(build, 'rtl.vvp'), ...RTL])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  it.each([2, 4])('iverilog -g2005 -Wall compiles the RTL at %i segments (512 bits) without a warning', (seg) => {
    const params = [`-Ppcie_scope_bar_top.TLP_SEG_COUNT=${seg}`, '-Ppcie_scope_bar_top.TLP_DATA_WIDTH=512']
    const r = run('iverilog', ['-g2005', '-Wall', ...inc, ...params, '-s', 'pcie_scope_bar_top', '-o', join(build, `rtl-s${seg}.vvp`), ...RTL])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  it('yosys: hierarchy -check, proc, check -assert', () => {
    const script = `read_verilog ${inc.join(' ')} ${RTL.join(' ')}; hierarchy -check -top pcie_scope_bar_top; proc; check -assert`
    const r = run('yosys', ['-q', '-p', script])
    expect(r.status, r.out).toBe(0)
  })

})

describe.each(TBS)('testbench %s', (top, tb, files) => {
  // relative to the checkout (the benches run there): the generated C++ is then the same in
  // every clone, and ccache hits
  const def = `-DGOLDEN_DIR="${relative(root, golden)}"`

  it('passes under Icarus (iverilog -g2012)', () => {
    const vvp = join(build, 'icarus', `${top}.vvp`)
    mkdirSync(join(build, 'icarus'), { recursive: true })
    const c = run('iverilog', ['-g2012', ...inc, def, '-s', top, '-o', vvp, tb, ...files])
    expect(c.status, c.out).toBe(0)
    const r = run('vvp', ['-n', vvp])
    const res = closing(r.stdout)
    expect(res, r.out.slice(-4000)).toBeDefined()
    expect(res!.failed, r.out.slice(-4000)).toBe(0)
    expect(res!.passed).toBeGreaterThan(0)
    expect(r.status).toBe(0)
  })

  it('passes under Verilator (--binary --timing)', () => {
    const mdir = join(build, 'verilator', top)
    const c = verilateBench(mdir, [...inc, def, '--top-module', top, tb, ...files])
    expect(c.status, c.out.slice(-4000)).toBe(0)
    const r = run(join(mdir, 'Vtb'), [])
    const res = closing(r.stdout)
    expect(res, r.out.slice(-4000)).toBeDefined()
    expect(res!.failed, r.out.slice(-4000)).toBe(0)
    expect(res!.passed).toBeGreaterThan(0)
    expect(r.status).toBe(0)
  })
})

// bar_responder with several TLPs per beat: every request segment may start a read, every
// completion is checked against its read (tb_bar_responder_seg.sv keeps its own scoreboard)
const SEG_TB = 'hdl/tb/tb_bar_responder_seg.sv'
const SEG_RTL = RESPONDER

/** The bench passed, answered every request, and at 2+ segments saw several TLPs per beat both ways. */
function answersEveryRead(r: { status: number | null; out: string; stdout: string }, seg: number) {
  const res = closing(r.stdout)
  expect(res, r.out.slice(-4000)).toBeDefined()
  expect(res!.failed, r.out.slice(-4000)).toBe(0)
  expect(res!.passed).toBeGreaterThan(0)
  const m = /^SEG \d+ SPLIT \d+: (\d+) requests, (\d+) answered, \d+ completions, \d+ UR, (\d+) multi-request beats, (\d+) multi-completion beats$/m.exec(r.stdout)
  expect(m, r.stdout.slice(-2000)).not.toBeNull()
  expect(Number(m![1])).toBeGreaterThan(0)
  expect(m![2]).toBe(m![1])
  if (seg > 1) {
    expect(Number(m![3])).toBeGreaterThan(0)
    expect(Number(m![4])).toBeGreaterThan(0)
  }
  expect(r.status).toBe(0)
}

describe('testbench tb_bar_responder_seg (segments per beat)', () => {
  it.each([
    [1, 64],
    [2, 0],
    [2, 64],
    [4, 0],
  ])('answers every read exactly at %i segments, CPL_SPLIT %i (Icarus)', (seg, split) => {
    const vvp = join(build, 'icarus', `tb_bar_responder_seg_${seg}_${split}.vvp`)
    mkdirSync(join(build, 'icarus'), { recursive: true })
    const params = [`-Ptb_bar_responder_seg.SEG=${seg}`, `-Ptb_bar_responder_seg.SPLIT=${split}`]
    const c = run('iverilog', ['-g2012', ...inc, ...params, '-s', 'tb_bar_responder_seg', '-o', vvp, SEG_TB, ...SEG_RTL])
    expect(c.status, c.out).toBe(0)
    answersEveryRead(run('vvp', ['-n', vvp]), seg)
  })

  // bar_responder skips work nothing reads on a clock when simulated (SIM_GATE); synthesis
  // (SYNTHESIS defined) builds it ungated. Both forms must answer the same traffic the same way:
  // the same requests, completions, URs and multi-TLP beats, and every completion checked (4
  // segments and CPL_SPLIT 128 gated are this, the bench's other cases run gated; 1 500 requests
  // each, the ungated form is the slower)
  it('answers every read exactly at 4 segments, CPL_SPLIT 128, and the same with the simulation gates off, as synthesised (Icarus)', () => {
    mkdirSync(join(build, 'icarus'), { recursive: true })
    const params = ['-Ptb_bar_responder_seg.SEG=4', '-Ptb_bar_responder_seg.SPLIT=128', '-Ptb_bar_responder_seg.REQS=1500']
    const summary = (defines: string[], name: string) => {
      const vvp = join(build, 'icarus', name)
      const c = run('iverilog', ['-g2012', ...inc, ...defines, ...params, '-s', 'tb_bar_responder_seg', '-o', vvp, SEG_TB, ...SEG_RTL])
      expect(c.status, c.out).toBe(0)
      const r = run('vvp', ['-n', vvp])
      answersEveryRead(r, 4)
      return /^SEG \d+ SPLIT \d+: .*$/m.exec(r.stdout)?.[0]
    }
    const gated = summary([], 'tb_bar_responder_seg_gated.vvp')
    expect(summary(['-DSYNTHESIS'], 'tb_bar_responder_seg_ungated.vvp')).toBe(gated)
  })

  it('answers every read exactly at 4 segments under Verilator (--binary --timing)', () => {
    const mdir = join(build, 'verilator', 'tb_bar_responder_seg')
    const c = verilateBench(mdir, [...inc, '-GSEG=4', '-GSPLIT=64', '--top-module', 'tb_bar_responder_seg', SEG_TB, ...SEG_RTL])
    expect(c.status, c.out.slice(-4000)).toBe(0)
    answersEveryRead(run(join(mdir, 'Vtb'), []), 4)
  })
})

// An unsupported parameter stops elaboration in all three tools: the check's block names a
// module that does not exist, so each tool's error names what to fix. Top, the parameters (name,
// value), the module the error must name, the files.
const BAD_PARAMS: Array<[string, Array<[string, number]>, string, string[]]> = [
  ['seg_fifo', [['SEG_COUNT', 3], ['COUNT_WIDTH', 2]], 'seg_fifo_SEG_COUNT_must_be_1_2_or_4', ['hdl/rtl/seg_fifo.v']],
  ['seg_fifo', [['SEG_COUNT', 4], ['COUNT_WIDTH', 2]], 'seg_fifo_COUNT_WIDTH_must_be_clog2_of_SEG_COUNT_plus_1', ['hdl/rtl/seg_fifo.v']],
  ['bar_responder', [['TLP_DATA_WIDTH', 384], ['TLP_SEG_COUNT', 3]], 'bar_responder_TLP_SEG_COUNT_must_be_1_2_or_4', SEG_RTL],
  ['probe_counters', [['TLP_SEG_COUNT', 9]], 'probe_counters_TLP_SEG_COUNT_must_be_1_to_8', COUNTERS],
  ['probe_tracker', [['TLP_SEG_COUNT', 5]], 'probe_tracker_TLP_SEG_COUNT_must_be_1_to_4', RTL],
  ['probe_tracker', [['TAG_WIDTH', 9]], 'probe_tracker_TAG_WIDTH_must_be_8_or_10', RTL],
  ['probe_sampler', [['TLP_SEG_COUNT', 5]], 'probe_sampler_TLP_SEG_COUNT_must_be_1_to_4', RTL],
  ['pcie_scope_bar_top', [['TLP_DATA_WIDTH', 384], ['TLP_SEG_COUNT', 3]], 'bar_responder_TLP_SEG_COUNT_must_be_1_2_or_4', RTL],
  [
    'probe_hist_bin_index',
    [['SUB_BINS_LOG2', 4]],
    'probe_hist_bin_index_needs_FIRST_EDGE_LOG2_ge_SUB_BINS_LOG2_ge_1_and_BINS_from_2S_below_2_pow_IDX_WIDTH',
    ['hdl/rtl/probe_hist_bin_index.v'],
  ],
]

describe('HDL parameter checks stop elaboration', () => {
  it.each(BAD_PARAMS)('%s %j: verilator --lint-only, iverilog and yosys name %s', (top, params, missing, files) => {
    expectElaborationStops(top, params, missing, files, build)
  })
})
