// vcu118_top under Verilator -Wall (no waivers) and Icarus -g2005 -Wall, with stubs of the
// vendor modules written from vendor-ports.ts for exactly the pins the design connects (a pin
// the real module does not have fails the test before any tool runs); xil_pcie_port alone at
// both widths. Nothing here runs Vivado: hdl/xilinx/README.md says what that leaves unchecked.
// Run: npx vitest run test/hdl/xilinx/boards/vcu118/board.int.test.ts
import { mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { inc, root, run } from '../../../tools.js'
import { BOARD, TOP } from './board.js'
import { VENDOR, instancePins, writeVendorStubs } from './vendor-ports.js'

const out = join(root, 'build/hdl/xilinx/vcu118')
const verilogIn = (dir: string) => readdirSync(join(root, dir)).filter((f) => f.endsWith('.v')).map((f) => `${dir}/${f}`)
const DESIGN = [...verilogIn('hdl/rtl'), ...verilogIn('hdl/rtl/switch'), ...verilogIn('hdl/xilinx/rtl'), ...verilogIn(`${BOARD}/rtl`)]
// the files that instantiate vendor modules
const USERS = [TOP, 'hdl/xilinx/rtl/xil_tlp_async_fifo.v']

let stubs: string[] = []

describe('vcu118_top lint', () => {
  // a test, not a hook, so a pin the real module lacks fails the run by name
  it('writes stubs of the vendor modules for the pins the design connects, all of them real', () => {
    mkdirSync(out, { recursive: true })
    // macros expanded (the top's tie-offs are one), comments gone
    const text = USERS.map((f) => {
      const r = run('verilator', ['-E', '-P', ...inc, f])
      expect(r.status, r.out).toBe(0)
      return r.stdout
    }).join('\n')
    const used = new Map(VENDOR.map((m) => [m.name, instancePins(text, m.name)]))
    for (const [name, pins] of used) expect(pins.size, `${name} is instantiated`).toBeGreaterThan(0)
    stubs = writeVendorStubs(out, used)
    expect(stubs.length).toBe(VENDOR.length)
  })

  it('connects the integrated blocks by their real names: every input tied or driven', () => {
    const pcie = VENDOR.find((m) => m.name === 'pcie_up')!
    const text = run('verilator', ['-E', '-P', ...inc, TOP]).stdout
    for (const name of ['pcie_up', 'pcie_dn']) {
      const pins = instancePins(text, name)
      expect(pcie.ports.filter((p) => p.dir === 'input' && !pins.has(p.name)).map((p) => p.name)).toEqual([])
    }
  })

  it('verilator --lint-only -Wall', () => {
    const r = run('verilator', ['--lint-only', '-Wall', ...inc, '--top-module', 'vcu118_top', ...stubs, ...DESIGN])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  it('iverilog -g2005 -Wall', () => {
    const r = run('iverilog', ['-g2005', '-Wall', ...inc, '-s', 'vcu118_top', '-o', join(out, 'vcu118_top.vvp'), ...stubs, ...DESIGN])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  it.each([
    ['256', ['-GDATA_WIDTH=256']],
    ['512 straddled', ['-GDATA_WIDTH=512', '-GCQ_STRADDLE=1']],
  ])('verilator --lint-only -Wall xil_pcie_port at %s bits', (_name, params) => {
    const r = run('verilator', ['--lint-only', '-Wall', '--top-module', 'xil_pcie_port', ...params, ...verilogIn('hdl/xilinx/rtl').filter((f) => !f.endsWith('xil_tlp_async_fifo.v'))])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })
})
