// vpk120_switch_top under Verilator -Wall (no waivers) and Icarus -g2005 -Wall, with stubs of the
// block design's wrapper and the XPM macros written from vendor-ports.ts for exactly the pins the
// top connects (a pin the table lacks fails the test by name), and every input of the wrapper
// driven. Nothing here runs Vivado: hdl/xilinx/boards/vpk120/README.md says what that leaves.
// Run: npx vitest run --project int test/hdl/xilinx/boards/vpk120/board.int.test.ts
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { inc, root, rtl, run } from '../../../tools.js'
import { instancePins, writeVendorStubs } from '../vcu118/vendor-ports.js'
import { BOARD, TOP } from './board.js'
import { VENDOR } from './vendor-ports.js'

const out = join(root, 'build/hdl/xilinx/vpk120')
const USERS = [`${BOARD}/rtl/${TOP}.v`, 'hdl/xilinx/rtl/xil_tlp_async_fifo.v']

describe('vpk120 switch top lint', () => {
  let stubs: string[] = []
  const preprocessed = () =>
    USERS.map((f) => {
      const r = run('verilator', ['-E', '-P', ...inc, f])
      expect(r.status, r.out).toBe(0)
      return r.stdout
    }).join('\n')

  it('writes stubs of the vendor modules for the pins the top connects, all of them real', () => {
    mkdirSync(out, { recursive: true })
    const text = preprocessed()
    const used = new Map(VENDOR.map((m) => [m.name, instancePins(text, m.name)] as const).filter(([, pins]) => pins.size > 0))
    expect([...used.keys()]).toEqual(VENDOR.map((m) => m.name))
    stubs = writeVendorStubs(out, used, VENDOR)
  })

  it('drives every input of the block design and reads every output', () => {
    const wrapper = VENDOR.find((m) => m.name === 'ps_bd_wrapper')!
    const pins = instancePins(preprocessed(), 'ps_bd_wrapper')
    expect(wrapper.ports.filter((p) => !pins.has(p.name)).map((p) => p.name)).toEqual([])
  })

  it('verilator --lint-only -Wall', () => {
    const r = run('verilator', ['--lint-only', '-Wall', ...inc, '--top-module', TOP, ...stubs, ...rtl(`${BOARD}/rtl/${TOP}.f`)])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  it('iverilog -g2005 -Wall', () => {
    const r = run('iverilog', ['-g2005', '-Wall', ...inc, '-s', TOP, '-o', join(out, `${TOP}.vvp`), ...stubs, ...rtl(`${BOARD}/rtl/${TOP}.f`)])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })
})

describe('xil_pcie_port lint in the Versal form', () => {
  it.each([
    ['512, PG343 / CPM5 tuser widths', ['-GDATA_WIDTH=512', '-GTLAST_FRAMING=1', '-GRC_STRADDLE=0', '-GCQ_USER_WIDTH=231']],
    ['1024, CPM5', ['-GDATA_WIDTH=1024', '-GTLAST_FRAMING=1', '-GRC_STRADDLE=0']],
  ])('verilator --lint-only -Wall at %s', (_name, params) => {
    const r = run('verilator', ['--lint-only', '-Wall', '--top-module', 'xil_pcie_port', ...params, ...rtl('hdl/xilinx/rtl/xil_pcie_port.f')])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })
})
