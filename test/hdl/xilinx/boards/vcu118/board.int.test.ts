// The two VCU118 tops (vcu118_switch_top, vcu118_bar_top) under Verilator -Wall (no waivers) and Icarus -g2005 -Wall, with stubs of the
// vendor modules written from vendor-ports.ts for exactly the pins the design connects (a pin
// the real module does not have fails the test before any tool runs); xil_pcie_port alone at
// both widths. Nothing here runs Vivado: hdl/xilinx/README.md says what that leaves unchecked.
// Run: npx vitest run test/hdl/xilinx/boards/vcu118/board.int.test.ts
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { inc, root, rtl, run } from '../../../tools.js'
import { BOARD, DESIGNS, topFile } from './board.js'
import { VENDOR, instancePins, writeVendorStubs } from './vendor-ports.js'

const out = join(root, 'build/hdl/xilinx/vcu118')
// each top with its own file list (the other top's pins would not match its stubs)
const topFiles = (top: string) => rtl(`${BOARD}/rtl/${top}.f`)
const INC = [...inc, `-I${BOARD}/rtl`]

describe.each(['switch', 'bar'] as const)('vcu118 %s top lint', (design) => {
  const { top, users } = DESIGNS[design]
  const dir = join(out, design)
  let stubs: string[] = []
  // macros expanded (the tie-offs are one), comments gone
  const preprocessed = () =>
    users
      .map((f) => {
        const r = run('verilator', ['-E', '-P', ...INC, f])
        expect(r.status, r.out).toBe(0)
        return r.stdout
      })
      .join('\n')

  // a test, not a hook, so a pin the real module lacks fails the run by name
  it('writes stubs of the vendor modules for the pins the design connects, all of them real', () => {
    mkdirSync(dir, { recursive: true })
    const text = preprocessed()
    const used = new Map(VENDOR.map((m) => [m.name, instancePins(text, m.name)] as const).filter(([, pins]) => pins.size > 0))
    expect([...used.keys()]).toEqual(
      design === 'switch' ? VENDOR.map((m) => m.name) : ['pcie_up', 'IBUFDS_GTE4', 'cpu_bd_wrapper'],
    )
    stubs = writeVendorStubs(dir, used)
  })

  it('ties or drives every input of the integrated blocks', () => {
    const pcie = VENDOR.find((m) => m.name === 'pcie_up')!
    const text = run('verilator', ['-E', '-P', ...INC, topFile(design)]).stdout
    for (const name of design === 'switch' ? ['pcie_up', 'pcie_dn'] : ['pcie_up']) {
      const pins = instancePins(text, name)
      expect(pcie.ports.filter((p) => p.dir === 'input' && !pins.has(p.name)).map((p) => p.name)).toEqual([])
    }
  })

  it('verilator --lint-only -Wall', () => {
    const r = run('verilator', ['--lint-only', '-Wall', ...INC, '--top-module', top, ...stubs, ...topFiles(top)])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  it('iverilog -g2005 -Wall', () => {
    const r = run('iverilog', ['-g2005', '-Wall', ...INC, '-s', top, '-o', join(dir, `${top}.vvp`), ...stubs, ...topFiles(top)])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })
})

describe('xil_pcie_port lint', () => {
  it.each([
    ['256', ['-GDATA_WIDTH=256']],
    ['512 straddled', ['-GDATA_WIDTH=512', '-GCQ_STRADDLE=1']],
  ])('verilator --lint-only -Wall at %s bits', (_name, params) => {
    const r = run('verilator', ['--lint-only', '-Wall', '--top-module', 'xil_pcie_port', ...params, ...rtl('hdl/xilinx/rtl/xil_pcie_port.f')])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })
})
