// The probe's logic depth on its smallest configuration (probe_core, 1 segment, 8-bit tags):
// Yosys synth_xilinx for UltraScale+, then bench/logic-depth.mjs on the netlist. Every
// register-to-register path must stay within 8 LUT levels (a 250 MHz budget), so a change that
// deepens one fails here, not only in the hour-long bench/synth.mjs sweep of every configuration.
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { logicDepth } from '../../bench/logic-depth.mjs'
import { inc, root, rtl, run } from '../hdl/tools.js'

const MAX_LUT_LEVELS = 8

describe('logic depth of probe_core, 1 segment (yosys synth_xilinx -family xcup)', () => {
  it(`keeps every register-to-register path within ${MAX_LUT_LEVELS} LUT levels`, () => {
    const json = join(root, 'build/hdl/logic-depth/probe_core_s1.json')
    const script = [
      `read_verilog ${inc.join(' ')} ${rtl('hdl/rtl/probe_core.f').join(' ')}`,
      'synth_xilinx -family xcup -top probe_core -flatten',
      `write_json ${json}`,
    ].join('; ')
    mkdirSync(join(root, 'build/hdl/logic-depth'), { recursive: true })
    const y = run('yosys', ['-q', '-p', script], 600_000)
    expect(y.status, y.out.slice(-2000)).toBe(0)
    const d = logicDepth(JSON.parse(readFileSync(json, 'utf8')))
    const deep = d.byBlock.filter((b) => b.level > MAX_LUT_LEVELS).map((b) => `${b.block} ${b.level}/${b.carry}`)
    const path = d.cells.map((c) => c.net).filter((n) => !n.startsWith('$'))
    expect(deep, `deepest path ${d.level} LUT levels through ${path.join(' -> ')}`).toEqual([])
    expect(d.level).toBeLessThanOrEqual(MAX_LUT_LEVELS)
    // the netlist is the probe's, not an empty shell: its blocks reach the depth check
    expect(d.byBlock.length).toBeGreaterThan(20)
  }, 600_000)
})
