// Trace unit gates: Verilator -Wall lint (no waivers) of probe_trace at 1, 2 and 4 segments and
// of probe_core with it, Icarus -g2005 -Wall, the ring-depth elaboration checks, and the
// self-checking bench tb_probe_trace (a reference model of every record, the trigger's position
// and clock, the lost count and the state) under Icarus and Verilator at 1, 2 and 4 segments.
// The UltraScale+ synthesis (the ring in block RAM, paths within 8 LUT levels) is in
// bench/synth.mjs: minutes of Yosys, too long for this gate.
// Run: npx vitest run --project int test/hdl/trace.int.test.ts
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { closing, expectElaborationStops, inc, root, rtl, run, verilateBench } from './tools.js'

const build = join(root, 'build/hdl')

const TRACE = rtl('hdl/rtl/probe_trace.f')
const CORE = rtl('hdl/rtl/probe_core.f')

// top, parameters, files
const LINT: Array<[string, string[], string[]]> = [
  ['probe_trace', [], TRACE],
  ['probe_trace', ['-GTLP_SEG_COUNT=2', '-GDEPTH=8192'], TRACE],
  ['probe_trace', ['-GTLP_SEG_COUNT=4', '-GTAG_WIDTH=10'], TRACE],
  ['probe_core', [], CORE],
  ['probe_core', ['-GTLP_SEG_COUNT=4', '-GTAG_WIDTH=10'], CORE],
]

// bench builds (parameters: segments, tag width) and their runs (seed, rounds, as plusargs, so
// that one Verilator build serves them); Icarus runs fewer rounds at 4 segments (slow on a shared
// machine); bench/golden-sweep.mjs takes the long runs and the 4 096-record ring
const BENCH: Array<[Array<[string, number]>, { seed: number; rounds: number; icarusRounds: number }]> = [
  [[['SEG', 1], ['TAG_WIDTH', 8]], { seed: 1, rounds: 60, icarusRounds: 30 }],
  [[['SEG', 2], ['TAG_WIDTH', 8]], { seed: 2, rounds: 60, icarusRounds: 24 }],
  [[['SEG', 4], ['TAG_WIDTH', 10]], { seed: 3, rounds: 60, icarusRounds: 14 }],
]

describe('trace lint (verilator --lint-only -Wall, no waivers)', () => {
  it.each(LINT)('%s %j', (top, params, files) => {
    const r = run('verilator', ['--lint-only', '-Wall', ...inc, '--top-module', top, ...params, ...files])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })
})

describe('trace compile and parameters', () => {
  it('iverilog -g2005 -Wall compiles the trace unit without a warning', () => {
    mkdirSync(build, { recursive: true })
    const r = run('iverilog', ['-g2005', '-Wall', ...inc, '-s', 'probe_trace', '-o', join(build, 'trace.vvp'), ...TRACE])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  it('a ring that is not a power of two, or a probe ring below the spec minimum, stops elaboration', () => {
    expectElaborationStops('probe_trace', [['DEPTH', 100]], 'probe_trace_DEPTH_must_be_a_power_of_two_of_at_least_twice_the_banks', TRACE, build)
    expectElaborationStops('probe_core', [['TRACE_DEPTH', 1024]], 'probe_core_TRACE_DEPTH_must_be_at_least_PS_TRC_MIN_DEPTH', CORE, build)
  })

})

describe.each(BENCH)('tb_probe_trace %j', (params, { seed, rounds, icarusRounds }) => {
  const top = 'tb_probe_trace'
  const tb = `hdl/tb/${top}.sv`
  const name = `${top}_${params.map(([k, v]) => `${k}${v}`).join('_')}`
  const mdir = join(build, 'verilator', name)
  // the summary line of the Icarus run: the Verilator run of as many rounds must draw the same traffic
  let icarusSummary: string | undefined

  function passes(r: { status: number | null; out: string; stdout: string }): string {
    const res = closing(r.stdout)
    expect(res, r.out.slice(-4000)).toBeDefined()
    expect(res!.failed, r.out.slice(-4000)).toBe(0)
    expect(res!.passed).toBeGreaterThan(1000)
    expect(r.status).toBe(0)
    const summary = /^SEG .*$/m.exec(r.stdout)?.[0]
    expect(summary).toBeDefined()
    return summary!
  }

  it('passes under Icarus (iverilog -g2012)', () => {
    const vvp = join(build, 'icarus', `${name}.vvp`)
    mkdirSync(join(build, 'icarus'), { recursive: true })
    const p = params.map(([k, v]) => `-P${top}.${k}=${v}`)
    const c = run('iverilog', ['-g2012', ...inc, ...p, '-s', top, '-o', vvp, tb, ...TRACE])
    expect(c.status, c.out).toBe(0)
    icarusSummary = passes(run('vvp', ['-n', vvp, `+SEED=${seed}`, `+ROUNDS=${icarusRounds}`], 600_000))
  })

  // Verilator builds the forms synthesis builds (SYNTHESIS: the ring's record registers load on
  // every clock, not only before a write, as the twin's simulation form does), so the same
  // summary as Icarus's says the two forms record alike
  it('passes under Verilator (--binary --timing) as synthesised, the same traffic as Icarus and a longer run', () => {
    const p = params.map(([k, v]) => `-G${k}=${v}`)
    const c = verilateBench(mdir, [...inc, '-DSYNTHESIS', ...p, '--top-module', top, tb, ...TRACE])
    expect(c.status, c.out.slice(-4000)).toBe(0)
    const same = passes(run(join(mdir, 'Vtb'), [`+SEED=${seed}`, `+ROUNDS=${icarusRounds}`]))
    if (icarusSummary !== undefined) expect(same).toBe(icarusSummary)
    passes(run(join(mdir, 'Vtb'), [`+SEED=${seed + 100}`, `+ROUNDS=${rounds}`], 600_000))
  })
})
