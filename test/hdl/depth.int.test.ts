// Logic depth in the test suite: one small configuration synthesised (Yosys synth_xilinx, about
// 20 s) and its deepest register-to-register path held to the 250 MHz budget, so that a change
// that deepens a path fails here and not only in bench/synth.mjs's full table.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_LUT_LEVELS, logicDepth } from '../../bench/logic-depth.mjs'
import { root, rtl, synthXcup } from './tools.js'

const build = join(root, 'build/hdl/depth')

describe('logic depth', () => {
  // the counters at 4 TLP segments a beat: each segment's size class decoded, the four summed
  // into every class count and the byte count, the 64-bit running values and their shadows
  it(`probe_counters at 4 segments: every register-to-register path within ${MAX_LUT_LEVELS} LUT levels`, () => {
    const report = join(build, 'probe_counters_seg4.log')
    const { r, ffs } = synthXcup('probe_counters', rtl('hdl/rtl/probe_counters.f'), report, ['chparam -set TLP_SEG_COUNT 4 probe_counters'], true)
    expect(r.status, r.out).toBe(0)
    // a netlist of registers and logic, not one Yosys emptied
    expect(ffs).toBeGreaterThan(1000)
    const depth = logicDepth(JSON.parse(readFileSync(report.replace(/\.log$/, '.json'), 'utf8')))
    expect(depth.level).toBeGreaterThan(1)
    const path = depth.cells.map((c) => c.net).filter((n) => !n.startsWith('$')).join(' -> ')
    expect(depth.level, `${depth.level} LUT levels through ${path}`).toBeLessThanOrEqual(MAX_LUT_LEVELS)
  }, 180_000)
})
