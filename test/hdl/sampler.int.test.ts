// Interval sampler and address filter gates: Verilator -Wall lint (no waivers) of probe_sampler,
// probe_sample_fifo and probe_addr_filter, Icarus -g2005 -Wall, an UltraScale+ synthesis that puts
// the record FIFO in block RAM, and two self-checking benches under Icarus and Verilator:
// tb_probe_sampler (exact reference model of every record, FIFO overflow and pops) and
// tb_probe_filter (two probes, one filtered and one fed only the in-window traffic, must agree).
// Run: npx vitest run --project int test/hdl/sampler.int.test.ts
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { closing, inc, root, rtl, run, synthXcup, verilateBench } from './tools.js'

const build = join(root, 'build/hdl')

const SAMPLER = rtl('hdl/rtl/probe_sampler.f')
const PROBE = rtl('hdl/rtl/probe_counters.f', 'hdl/rtl/probe_tracker.f', 'hdl/rtl/probe_sampler.f')

// top, parameters, files
const LINT: Array<[string, string[], string[]]> = [
  ['probe_sampler', [], SAMPLER],
  ['probe_sampler', ['-GTLP_SEG_COUNT=4', '-GTAG_WIDTH=10', '-GFIFO_ADDR_WIDTH=10'], SAMPLER],
  ['probe_sampler', ['-GTLP_SEG_COUNT=2', '-GFIFO_ADDR_WIDTH=1'], SAMPLER],
  ['probe_sample_fifo', ['-GADDR_WIDTH=4', '-GDATA_WIDTH=8'], ['hdl/rtl/probe_sample_fifo.v']],
  ['probe_addr_filter', [], ['hdl/rtl/probe_addr_filter.v']],
]

// bench top, its parameters (name, value), and whether Icarus runs it too: every bench runs under
// both simulators in at least one configuration; the 4-segment filter bench (20 s under Icarus)
// runs under Verilator alone, bench/golden-sweep.mjs takes the long runs
const BENCH: Array<[string, Array<[string, number]>, { icarus: boolean }]> = [
  ['tb_probe_sampler', [['SEG', 4], ['TAG_WIDTH', 10], ['CLOCKS', 12000]], { icarus: true }],
  ['tb_probe_sampler', [['SEG', 1], ['TAG_WIDTH', 8], ['SEED', 7], ['CLOCKS', 12000]], { icarus: true }],
  ['tb_probe_filter', [['SEG', 4], ['TAG_WIDTH', 8]], { icarus: false }],
  ['tb_probe_filter', [['SEG', 1], ['TAG_WIDTH', 10], ['SEED', 3]], { icarus: true }],
]

describe('sampler and filter lint (verilator --lint-only -Wall, no waivers)', () => {
  it.each(LINT)('%s %j', (top, params, files) => {
    const r = run('verilator', ['--lint-only', '-Wall', ...inc, '--top-module', top, ...params, ...files])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })
})

describe('sampler compile and synthesis', () => {
  it('iverilog -g2005 -Wall compiles the sampler without a warning', () => {
    mkdirSync(build, { recursive: true })
    const r = run('iverilog', ['-g2005', '-Wall', ...inc, '-s', 'probe_sampler', '-o', join(build, 'sampler.vvp'), ...SAMPLER])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  it('yosys: synth_xilinx for UltraScale+, no latches, the record FIFO in block RAM', () => {
    const { r, ffs, cells } = synthXcup('probe_sampler', SAMPLER, join(build, 'synth_sampler_xcup.log'))
    expect(r.status, r.out).toBe(0)
    // 256 records x 384 bits = 96 Kib: three 36-Kib blocks (or their 18-Kib halves)
    expect(cells('RAMB36E2') * 2 + cells('RAMB18E2')).toBeGreaterThanOrEqual(5)
    // the accumulators, timestamp and overflow counter, not the records, in flip-flops
    expect(ffs).toBeLessThan(800)
  })
})

describe.each(BENCH)('%s %j', (top, params, { icarus }) => {
  const tb = `hdl/tb/${top}.sv`
  const files = top === 'tb_probe_sampler' ? SAMPLER : PROBE
  const name = `${top}_${params.map(([k, v]) => `${k}${v}`).join('_')}`
  // the bench's summary line: both simulators must draw the same traffic
  const summaries: string[] = []

  function passes(r: { status: number | null; out: string; stdout: string }) {
    const res = closing(r.stdout)
    expect(res, r.out.slice(-4000)).toBeDefined()
    expect(res!.failed, r.out.slice(-4000)).toBe(0)
    expect(res!.passed).toBeGreaterThan(1000)
    expect(r.status).toBe(0)
    const summary = /^SEG .*$/m.exec(r.stdout)?.[0]
    expect(summary).toBeDefined()
    if (summaries.length > 0) expect(summary).toBe(summaries[0])
    summaries.push(summary!)
  }

  if (icarus)
    it('passes under Icarus (iverilog -g2012)', () => {
      const vvp = join(build, 'icarus', `${name}.vvp`)
      mkdirSync(join(build, 'icarus'), { recursive: true })
      const p = params.map(([k, v]) => `-P${top}.${k}=${v}`)
      const c = run('iverilog', ['-g2012', ...inc, ...p, '-s', top, '-o', vvp, tb, ...files])
      expect(c.status, c.out).toBe(0)
      passes(run('vvp', ['-n', vvp]))
    })

  it('passes under Verilator (--binary --timing)', () => {
    const mdir = join(build, 'verilator', name)
    const p = params.map(([k, v]) => `-G${k}=${v}`)
    const c = verilateBench(mdir, [...inc, ...p, '--top-module', top, tb, ...files])
    expect(c.status, c.out.slice(-4000)).toBe(0)
    passes(run(join(mdir, 'Vtb'), []))
  })
})
