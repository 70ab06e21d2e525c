// probe_tracker gates: Verilator -Wall lint (no waivers) over TLP_SEG_COUNT 1/2/4 x TAG_WIDTH 8/10, Icarus -g2005 -Wall,
// Yosys structural check and an UltraScale+ synthesis with no latches, and the self-checking tb_probe_tracker
// (its own reference model, no golden vectors) under Icarus and Verilator for 1 and 4 segments, the directed
// tb_probe_hist_bin_index (every bin edge of three layouts, ±1 clock, against the host's binEdges), and the directed
// tb_probe_tracker_reset (the tag state across resets), and tb_probe_xor_ram (the multi-write LUT RAM of the
// filtered-out bits and the live-value tables, in its XOR forms, against its behaviour), tb_probe_mp_ram and
// tb_probe_xor_bram (the block-RAM tag table against its behaviour).
// Run: npx vitest run --project int test/hdl/tracker.int.test.ts
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { binEdges, SPEC_HISTOGRAM_LAYOUT } from '../../host/src/core/latency-histogram.js'
import { closing, inc, root, rtl, run, verilateBench } from './tools.js'

const build = join(root, 'build/hdl')

const RTL = rtl('hdl/rtl/probe_tracker.f')
const TB = 'hdl/tb/tb_probe_tracker.sv'



type BenchRun = { status: number | null; out: string; stdout: string }

// a bench that must close with exactly this many passed checks, none failed, and exit 0
function closesWith(r: BenchRun, passed: number) {
  expect(closing(r.stdout), r.out.slice(-4000)).toEqual({ passed, failed: 0 })
  expect(r.status).toBe(0)
}

// top, parameters
const LINT: Array<[string, string[]]> = [
  ...[1, 2, 4].flatMap((seg) => [8, 10].map((tag): [string, string[]] => ['probe_tracker', [`-GTLP_SEG_COUNT=${seg}`, `-GTAG_WIDTH=${tag}`]])),
  ['probe_tracker', ['-GTLP_SEG_COUNT=2', '-GCNT_WIDTH=32', '-GTIMEOUT_CYCLES=1000', '-GLAT_BINS=8', '-GLAT_SUB_BINS_LOG2=2', '-GLAT_FIRST_EDGE_LOG2=2']],
  // probe_mp_ram's two forms: one memory (simulators), block-RAM banks (synthesis)
  ['probe_mp_ram', ['-GWR_PORTS=3', '-GRD_PORTS=2']],
  ['probe_mp_ram', ['-GWR_PORTS=3', '-GRD_PORTS=2', '+define+PROBE_RAM_BANKS']],
  ['probe_mp_ram', ['-GWR_PORTS=1', '-GRD_PORTS=2', '-DSYNTHESIS']],
  // probe_xor_bram's two forms, as probe_mp_ram's
  ['probe_xor_bram', ['-GPORTS=2']],
  ['probe_xor_bram', ['-GPORTS=9', '-GDATA_WIDTH=3', '+define+PROBE_RAM_BANKS']],
  ['probe_xor_bram', ['-GPORTS=5', '-GDATA_WIDTH=3', '-DSYNTHESIS']],
  // probe_xor_ram's three forms: Verilator's (one memory), the XOR banks (as Verilator builds
  // them with PROBE_RAM_BANKS, and as synthesised)
  ['probe_xor_ram', ['-GWR_PORTS=3', '-GRD_PORTS=2']],
  ['probe_xor_ram', ['-GWR_PORTS=9', '-GRD_PORTS=9', '-GDATA_WIDTH=3', '+define+PROBE_RAM_BANKS']],
  ['probe_xor_ram', ['-GWR_PORTS=9', '-GRD_PORTS=9', '-GDATA_WIDTH=3', '-DSYNTHESIS']],
  ['probe_tracker', ['-GTLP_SEG_COUNT=4', '-GTAG_WIDTH=10', '+define+PROBE_RAM_BANKS']],
  ['probe_extreme', ['-GTAKE_MAX=0']],
]

// bench parameters: segments, tag width, traffic clocks (the bench's default at 1 segment; a
// shorter run at 4, which still checks thousands of events: bench/golden-sweep.mjs runs long)
const BENCH: Array<[number, number, number]> = [
  [1, 8, 24000],
  [4, 10, 6000],
]

describe('probe_tracker lint (verilator --lint-only -Wall, no waivers)', () => {
  it.each(LINT)('%s %j', (top, params) => {
    const r = run('verilator', ['--lint-only', '-Wall', ...inc, '--top-module', top, ...params, ...RTL])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })
})

describe('probe_tracker compile and synthesis', () => {
  it('iverilog -g2005 -Wall compiles the RTL without a warning (and as synthesised)', () => {
    mkdirSync(build, { recursive: true })
    for (const defs of [[], ['-DSYNTHESIS']]) {
      const r = run('iverilog', ['-g2005', '-Wall', ...defs, ...inc, '-s', 'probe_tracker', '-o', join(build, 'tracker.vvp'), ...RTL])
      expect(r.out).toBe('')
      expect(r.status).toBe(0)
    }
  })

  // 10-bit tags at 1 segment (the tag table in 256-word pieces), 4 segments at 8 bits (the
  // live-value tables); bench/synth.mjs synthesises the 10-bit top whole
  it('yosys: hierarchy -check, proc, check -assert (1 segment with 10-bit tags, 4 with 8-bit)', () => {
    for (const [seg, tag] of [
      [1, 10],
      [4, 8],
    ]) {
      const script = [
        `read_verilog ${inc.join(' ')} ${RTL.join(' ')}`,
        `chparam -set TLP_SEG_COUNT ${seg} -set TAG_WIDTH ${tag} probe_tracker`,
        'hierarchy -check -top probe_tracker',
        'proc',
        'check -assert',
      ].join('; ')
      const r = run('yosys', ['-q', '-p', script])
      expect(r.status, r.out).toBe(0)
    }
  })

})

describe.each(BENCH)('tb_probe_tracker, %i segment(s), %i-bit tags, %i clocks of traffic', (seg, tag, cycles) => {
  const name = `tb_probe_tracker_s${seg}_t${tag}`
  // the run's summary line ("SEG ... snapshots checked"): both simulators draw the same traffic
  const summaries: string[] = []

  function passes(r: { status: number | null; out: string; stdout: string }) {
    const res = closing(r.stdout)
    expect(res, r.out.slice(-4000)).toBeDefined()
    expect(res!.failed, r.out.slice(-4000)).toBe(0)
    expect(res!.passed).toBeGreaterThan(1000)
    expect(r.status).toBe(0)
    const summary = /^SEG .* snapshots checked$/m.exec(r.stdout)?.[0]
    expect(summary).toBeDefined()
    if (summaries.length > 0) expect(summary).toBe(summaries[0])
    summaries.push(summary!)
  }

  it('passes under Icarus (iverilog -g2012)', () => {
    const vvp = join(build, 'icarus', `${name}.vvp`)
    mkdirSync(join(build, 'icarus'), { recursive: true })
    const params = [`-Ptb_probe_tracker.SEG=${seg}`, `-Ptb_probe_tracker.TAG_WIDTH=${tag}`, `-Ptb_probe_tracker.TRAFFIC_CYCLES=${cycles}`]
    const c = run('iverilog', ['-g2012', ...inc, ...params, '-s', 'tb_probe_tracker', '-o', vvp, TB, ...RTL])
    expect(c.status, c.out).toBe(0)
    passes(run('vvp', ['-n', vvp]))
  })

  // Verilator builds the forms synthesis builds (SYNTHESIS: the RAMs' banks, the histogram
  // banks' valid vectors as whole-vector updates), Icarus the simulation forms; the same summary
  // says they count alike
  it('passes under Verilator (--binary --timing) as synthesised', () => {
    const mdir = join(build, 'verilator', name)
    const params = [`-GSEG=${seg}`, `-GTAG_WIDTH=${tag}`, `-GTRAFFIC_CYCLES=${cycles}`]
    const c = verilateBench(mdir, [...inc, '-DSYNTHESIS', ...params, '--top-module', 'tb_probe_tracker', TB, ...RTL])
    expect(c.status, c.out.slice(-4000)).toBe(0)
    passes(run(join(mdir, 'Vtb'), []))
  })
})

// the latency histogram's bin index: every edge of a layout, a clock below, at and above it, against
// the host's edges (binEdges): the spec's layout, a scaled first edge with a part octave, 16 sub-bins
describe.each([
  ['the spec’s', { ...SPEC_HISTOGRAM_LAYOUT }, 18],
  ['4 sub-bins from 16 clocks, 26 bins', { subBins: 4, firstEdgeClocks: 16, bins: 26 }, 12],
  ['16 sub-bins from 64 clocks, 100 bins', { subBins: 16, firstEdgeClocks: 64, bins: 100 }, 20],
])('tb_probe_hist_bin_index, %s layout', (what, layout, ageWidth) => {
  const TB_BIN = ['hdl/tb/tb_probe_hist_bin_index.sv', 'hdl/rtl/probe_hist_bin_index.v']
  const name = `tb_probe_hist_bin_index_${layout.subBins}_${layout.firstEdgeClocks}_${layout.bins}`
  const edges = join(build, `${name}.hex`)
  const params = {
    AGE_WIDTH: ageWidth,
    BINS: layout.bins,
    SUB_BINS_LOG2: Math.log2(layout.subBins),
    FIRST_EDGE_LOG2: Math.log2(layout.firstEdgeClocks),
  }
  // zero, three checks an edge, the largest latency
  const passes = (r: BenchRun) => closesWith(r, 2 + 3 * layout.bins)

  beforeAll(() => {
    mkdirSync(build, { recursive: true })
    writeFileSync(edges, binEdges(layout).map((e) => e.toString(16)).join('\n') + '\n')
  })

  it('passes under Icarus (iverilog -g2012)', () => {
    const vvp = join(build, 'icarus', `${name}.vvp`)
    mkdirSync(join(build, 'icarus'), { recursive: true })
    const p = Object.entries(params).map(([k, v]) => `-Ptb_probe_hist_bin_index.${k}=${v}`)
    const c = run('iverilog', ['-g2012', ...inc, ...p, '-s', 'tb_probe_hist_bin_index', '-o', vvp, ...TB_BIN])
    expect(c.status, c.out).toBe(0)
    passes(run('vvp', ['-n', vvp, `+EDGES=${edges}`]))
  })

  it('passes under Verilator (--binary --timing)', () => {
    const mdir = join(build, 'verilator', name)
    const p = Object.entries(params).map(([k, v]) => `-G${k}=${v}`)
    const c = verilateBench(mdir, [...inc, ...p, '--top-module', 'tb_probe_hist_bin_index', ...TB_BIN])
    expect(c.status, c.out.slice(-4000)).toBe(0)
    passes(run(join(mdir, 'Vtb'), [`+EDGES=${edges}`]))
  })

  it(`lints clean (verilator --lint-only -Wall) ${what === 'the spec’s' ? 'and' : 'as'} probe_latency_hist at 4 segments`, () => {
    const r = run('verilator', [
      '--lint-only',
      '-Wall',
      ...inc,
      '--top-module',
      'probe_latency_hist',
      '-GSEG_COUNT=4',
      `-GAGE_WIDTH=${ageWidth}`,
      `-GLAT_BINS=${layout.bins}`,
      `-GLAT_SUB_BINS_LOG2=${params.SUB_BINS_LOG2}`,
      `-GLAT_FIRST_EDGE_LOG2=${params.FIRST_EDGE_LOG2}`,
      'hdl/rtl/probe_latency_hist.v',
      'hdl/rtl/probe_hist_bin_index.v',
      'hdl/rtl/probe_hist_bank.v',
    ])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })
})

// the tag state is LUT RAM without a reset: a reset empties it by epoch, and the scan rewrites
// the old epoch's words before a second reset can bring that epoch back
describe.each([1, 4])('tb_probe_tracker_reset, %i segment(s)', (seg) => {
  const TB_RESET = 'hdl/tb/tb_probe_tracker_reset.sv'
  const name = `tb_probe_tracker_reset_s${seg}`

  const passes = (r: BenchRun) => closesWith(r, 32)

  it('passes under Icarus (iverilog -g2012)', () => {
    const vvp = join(build, 'icarus', `${name}.vvp`)
    mkdirSync(join(build, 'icarus'), { recursive: true })
    const c = run('iverilog', ['-g2012', ...inc, `-Ptb_probe_tracker_reset.SEG=${seg}`, '-s', 'tb_probe_tracker_reset', '-o', vvp, TB_RESET, ...RTL])
    expect(c.status, c.out).toBe(0)
    passes(run('vvp', ['-n', vvp]))
  })

  it('passes under Verilator (--binary --timing)', () => {
    const mdir = join(build, 'verilator', name)
    const c = verilateBench(mdir, [...inc, `-GSEG=${seg}`, '--top-module', 'tb_probe_tracker_reset', TB_RESET, ...RTL])
    expect(c.status, c.out.slice(-4000)).toBe(0)
    passes(run(join(mdir, 'Vtb'), []))
  })
})

// probe_xor_ram's XOR forms against its behaviour on random traffic with same-address writes:
// under Icarus as one vector, under Verilator as the banks synthesis builds (PROBE_RAM_BANKS
// selects the same code as SYNTHESIS; Icarus runs it 40x slower)
describe.each([
  [2, 1, 1],
  [5, 5, 3],
  [9, 5, 2],
])('tb_probe_xor_ram, %i write ports, %i read ports, %i-bit words', (wr, rd, width) => {
  const TB_XOR = ['hdl/tb/tb_probe_xor_ram.sv', 'hdl/rtl/probe_xor_ram.v', 'hdl/rtl/probe_ram_model.v']
  const name = `tb_probe_xor_ram_w${wr}_r${rd}_d${width}`

  const passes = (r: BenchRun) => closesWith(r, 4000 * rd + 16)

  it('passes under Icarus (iverilog -g2012), the XOR banks as one vector', () => {
    const vvp = join(build, 'icarus', `${name}.vvp`)
    mkdirSync(join(build, 'icarus'), { recursive: true })
    const params = [`-Ptb_probe_xor_ram.WR_PORTS=${wr}`, `-Ptb_probe_xor_ram.RD_PORTS=${rd}`, `-Ptb_probe_xor_ram.DATA_WIDTH=${width}`]
    const c = run('iverilog', ['-g2012', ...params, '-s', 'tb_probe_xor_ram', '-o', vvp, ...TB_XOR])
    expect(c.status, c.out).toBe(0)
    passes(run('vvp', ['-n', vvp]))
  })

  it('passes under Verilator (--binary --timing), the XOR banks', () => {
    const mdir = join(build, 'verilator', name)
    const params = [`-GWR_PORTS=${wr}`, `-GRD_PORTS=${rd}`, `-GDATA_WIDTH=${width}`, '+define+PROBE_RAM_BANKS']
    const c = verilateBench(mdir, [...params, '--top-module', 'tb_probe_xor_ram', ...TB_XOR])
    expect(c.status, c.out.slice(-4000)).toBe(0)
    passes(run(join(mdir, 'Vtb'), []))
  })
})

// probe_mp_ram against its behaviour on random traffic with same-address writes and reads of a
// word written in the clock the read is issued in: the block-RAM banks (PROBE_RAM_BANKS, the
// code synthesis reads) under Icarus and Verilator, the one memory under Icarus
describe.each([
  [1, 2, 13],
  [2, 3, 47],
  [4, 5, 13],
])('tb_probe_mp_ram, %i write ports, %i read ports, %i-bit words', (wr, rd, width) => {
  const TB_MP = ['hdl/tb/tb_probe_mp_ram.sv', 'hdl/rtl/probe_mp_ram.v', 'hdl/rtl/probe_bram_copy.v', 'hdl/rtl/probe_xor_ram.v', 'hdl/rtl/probe_ram_model.v']
  const name = `tb_probe_mp_ram_w${wr}_r${rd}_d${width}`

  const passes = (r: BenchRun) => closesWith(r, 4000 * rd)

  it.each([
    ['the block-RAM banks', ['-DPROBE_RAM_BANKS']],
    ['one memory', []],
  ])('passes under Icarus (iverilog -g2012), %s', (form, defines) => {
    const vvp = join(build, 'icarus', `${name}_${defines.length ? 'banks' : 'one'}.vvp`)
    mkdirSync(join(build, 'icarus'), { recursive: true })
    const params = [`-Ptb_probe_mp_ram.WR_PORTS=${wr}`, `-Ptb_probe_mp_ram.RD_PORTS=${rd}`, `-Ptb_probe_mp_ram.DATA_WIDTH=${width}`]
    const c = run('iverilog', ['-g2012', ...defines, ...params, '-s', 'tb_probe_mp_ram', '-o', vvp, ...TB_MP])
    expect(c.status, `${form}: ${c.out}`).toBe(0)
    passes(run('vvp', ['-n', vvp]))
  })

  // one Verilator build (about 15 s) for the widest configuration
  if (wr === 4)
    it('passes under Verilator (--binary --timing), the block-RAM banks', () => {
      const mdir = join(build, 'verilator', name)
      const params = [`-GWR_PORTS=${wr}`, `-GRD_PORTS=${rd}`, `-GDATA_WIDTH=${width}`, '+define+PROBE_RAM_BANKS']
      const c = verilateBench(mdir, [...params, '--top-module', 'tb_probe_mp_ram', ...TB_MP])
      expect(c.status, c.out.slice(-4000)).toBe(0)
      passes(run(join(mdir, 'Vtb'), []))
    })
})

// probe_xor_bram (the tag state: every port reads its address a clock early and may write it)
// against its behaviour: the block-RAM XOR banks under Icarus and Verilator, the one memory under
// Icarus
describe.each([
  [2, 1],
  [5, 3],
  [9, 3],
])('tb_probe_xor_bram, %i ports, %i-bit words', (ports, width) => {
  const TB_XB = ['hdl/tb/tb_probe_xor_bram.sv', 'hdl/rtl/probe_xor_bram.v', 'hdl/rtl/probe_bram_copy.v', 'hdl/rtl/probe_ram_model.v']
  const name = `tb_probe_xor_bram_p${ports}_d${width}`

  const passes = (r: BenchRun) => closesWith(r, 4000 * ports)

  it.each([
    ['the block-RAM XOR banks', ['-DPROBE_RAM_BANKS']],
    ['one memory', []],
  ])('passes under Icarus (iverilog -g2012), %s', (form, defines) => {
    const vvp = join(build, 'icarus', `${name}_${defines.length ? 'banks' : 'one'}.vvp`)
    mkdirSync(join(build, 'icarus'), { recursive: true })
    const params = [`-Ptb_probe_xor_bram.PORTS=${ports}`, `-Ptb_probe_xor_bram.DATA_WIDTH=${width}`]
    const c = run('iverilog', ['-g2012', ...defines, ...params, '-s', 'tb_probe_xor_bram', '-o', vvp, ...TB_XB])
    expect(c.status, `${form}: ${c.out}`).toBe(0)
    passes(run('vvp', ['-n', vvp]))
  })

  // one Verilator build (about 15 s) for the widest configuration
  if (ports === 9)
    it('passes under Verilator (--binary --timing), the block-RAM XOR banks', () => {
      const mdir = join(build, 'verilator', name)
      const params = [`-GPORTS=${ports}`, `-GDATA_WIDTH=${width}`, '+define+PROBE_RAM_BANKS']
      const c = verilateBench(mdir, [...params, '--top-module', 'tb_probe_xor_bram', ...TB_XB])
      expect(c.status, c.out.slice(-4000)).toBe(0)
      passes(run(join(mdir, 'Vtb'), []))
    })
})
