// The VCU118 board files against each other and the repository, without Vivado: every file
// and module the Tcl names exists, every port the constraints name is a port of the top, every
// non-transceiver port is placed, the facts in board.mk reach both the Tcl and the firmware
// build, and firmware.mk builds every firmware source with the board's CSR address.
// Run: npx vitest run test/hdl/xilinx/boards/vcu118/board.test.ts
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { root } from '../../../tools.js'
import { BOARD, DESIGNS, constrainedPorts, modulePorts, placedPorts, read, topFile, type Design } from './board.js'
import { VENDOR } from './vendor-ports.js'

const top = read(topFile('switch'))
const bar = read(topFile('bar'))
const xdcOf = (d: Design) => DESIGNS[d].xdc.map(read).join('\n')
const build = read(`${BOARD}/build.tcl`)
const bd = read(`${BOARD}/cpu_bd.tcl`)
// transceiver lanes: placed by the IP's quad selection, not by pin
const GT = /^pcie_(up|dn)_(rx|tx)_[pn]$/
// placed by the constraints build.tcl writes from op103_pins.tcl
const OP103 = ['pcie_dn_perst_n', 'pcie_dn_perstb_n', 'op103_host_mode_n', 'op103_local_clks_n']

describe.each(['switch', 'bar'] as const)('vcu118 %s constraints', (design) => {
  const ports = modulePorts(read(topFile(design)))
  const xdc = xdcOf(design)

  it('reads the ports of the top', () => {
    expect(ports).toContain('clk_125mhz_p')
    expect(ports).toContain('pcie_up_tx_n')
    expect(ports.length).toBe(design === 'switch' ? 23 : 13)
  })

  it('names only ports the top has', () => {
    const named = constrainedPorts(xdc)
    expect(named.length).toBeGreaterThan(15)
    expect(named.filter((p) => !ports.includes(p))).toEqual([])
  })

  it('places every port that is not a transceiver lane or an OP103 sideband pin', () => {
    const placed = new Set(placedPorts(xdc))
    const unplaced = ports.filter((p) => !GT.test(p) && !OP103.includes(p) && !placed.has(p))
    // a GT reference clock's N pin follows its P pin
    expect(unplaced).toEqual(design === 'switch' ? ['pcie_dn_refclk_n'] : [])
  })

  it('traces every placed pin to a source', () => {
    const lines = xdc.split('\n')
    lines.forEach((l, k) => {
      if (!/PACKAGE_PIN/.test(l) || l.trim().startsWith('#')) return
      // the paragraph the pin is in has a comment naming its source ([V] or [H])
      let c = k
      while (c > 0 && (lines[c - 1] ?? '').trim() !== '') c--
      const paragraph = lines.slice(c, k).filter((x) => x.startsWith('#'))
      expect(paragraph.join('\n'), l).toMatch(/\[(V|H)\]/)
    })
  })
})

describe('vcu118 OP103 facts', () => {
  const facts = read(`${BOARD}/op103_pins.tcl`)
  const fact = (name: string) => new RegExp(`^set ${name} "([^"]*)"`, 'm').exec(facts)?.[1]
  const PINS = ['OP103_PERST_N_PIN', 'OP103_PERSTB_N_PIN', 'OP103_HOST_MODE_N_PIN', 'OP103_LOCAL_CLKS_N_PIN']

  it('build.tcl places every OP103 sideband port and stops while op103_pins.tcl has an empty fact', () => {
    for (const p of OP103) expect(build).toMatch(new RegExp(`get_ports (\\{[^}]*)?\\b${p}\\b`))
    const checked = /foreach fact \{([^}]*)\}/.exec(build)?.[1]?.split(/\s+/) ?? []
    expect(checked).toEqual([...PINS, 'OP103_PCIE_BLOCK', 'OP103_GT_QUAD'])
  })

  it('op103_pins.tcl gives each sideband pin a distinct VCU118 package pin and names its FMC pair', () => {
    const pins = PINS.map(fact)
    for (const p of pins) expect(p).toMatch(/^[A-Z]{1,2}\d{1,2}$/)
    expect(new Set(pins).size).toBe(PINS.length)
    for (const name of PINS) expect(facts).toMatch(new RegExp(`^set ${name} "[A-Z0-9]+" +;# LA\\d\\d(_CC)?_[PN], `, 'm'))
    // none of them is a pin the board's other constraints already use
    const used = new Set([...xdcOf('switch').matchAll(/PACKAGE_PIN\s+(\w+)/g)].map((m) => m[1]))
    expect(pins.filter((p) => used.has(p!))).toEqual([])
  })
})

describe('vcu118 build script', () => {
  it('adds only sources that exist, and every module the top instantiates is built or generated', () => {
    for (const dir of ['hdl/rtl', 'hdl/rtl/switch', 'hdl/xilinx/rtl', `${BOARD}/rtl`]) {
      expect(build).toContain(dir === `${BOARD}/rtl` ? '$here/rtl/*.v' : `$root/${dir}/*.v`)
      expect(readdirSync(join(root, dir)).some((f) => f.endsWith('.v'))).toBe(true)
    }
    for (const f of ['vcu118.xdc', 'vcu118_dn.xdc', 'op103_pins.tcl', 'cpu_bd.tcl', 'board.mk', 'bsp.tcl']) {
      expect(existsSync(join(root, BOARD, f))).toBe(true)
      expect(build.includes(`$here/${f}`) || f === 'board.mk' || f === 'bsp.tcl').toBe(true)
    }
    // the top is vcu118_<design>_top, for the two designs there are
    expect(build).toMatch(/set top vcu118_\$\{design\}_top/)
    expect(build).toMatch(/\$design ni \{switch bar\}/)
    for (const d of Object.keys(DESIGNS)) expect(existsSync(join(root, topFile(d as Design)))).toBe(true)
    expect(build).toContain('$root/hdl/rtl/generated/pcie_scope_regs.vh')
    expect(build).toContain('$root/spec/switch.json')
    expect(build).toMatch(/set_property top \$top/)
  })

  it('creates the IP and block design modules the top instantiates as black boxes', () => {
    expect(build).toMatch(/pcie_ip pcie_up \{PCI_Express_Endpoint_device\}/)
    expect(build).toMatch(/pcie_ip pcie_dn \{Root_Port_of_PCI_Express_Root_Complex\}/)
    expect(build).toMatch(/ps_cpu_bd /)
    expect(bd).toMatch(/create_bd_design cpu_bd/)
    for (const m of ['pcie_up', 'pcie_dn', 'cpu_bd_wrapper']) expect(top).toMatch(new RegExp(`^${m} \\w+_inst`, 'm'))
    for (const m of ['pcie_up', 'cpu_bd_wrapper']) expect(bar).toMatch(new RegExp(`^${m} \\w+_inst`, 'm'))
    // the bar design creates no downstream block
    expect(build).toMatch(/if \{\$design eq "switch"\} \{\n\s+pcie_ip pcie_dn/)
    // the vendor primitives and macros the top uses are in the lint tables
    for (const m of VENDOR) expect(`${top}${read('hdl/xilinx/rtl/xil_tlp_async_fifo.v')}`).toContain(`${m.name} `)
  })

  it('gives the block design the external ports the wrapper stub has', () => {
    const wrapper = VENDOR.find((m) => m.name === 'cpu_bd_wrapper')!
    // the wrapper names an interface port's signals <port>_<signal>
    const bdPorts = ['clk_125mhz', 'reset', 'cpu_clk', 'cpu_locked', 'uart', 'csr_clk', 'csr_resetn', 'M_AXI_CSR']
    for (const n of bdPorts) expect(bd, n).toMatch(new RegExp(`create_bd_(intf_)?port [^\\n]* ${n}\\b`))
    for (const p of wrapper.ports) expect(bdPorts.some((n) => p.name === n || p.name.startsWith(`${n}_`)), p.name).toBe(true)
  })

  it('reads the CSR address and local memory size from board.mk', () => {
    expect(build).toMatch(/ps_cpu_bd \[board_fact PS_XIL_CSR_BASEADDR\] \[board_fact PS_LMB_BYTES\]/)
    expect(read(`${BOARD}/board.mk`)).toMatch(/^PS_XIL_CSR_BASEADDR := 0x[0-9A-F]{8}$/m)
  })
})

describe('vcu118 firmware build', () => {
  it('compiles every firmware source, the xilinx port and main.c with the CSR address, then links and embeds', () => {
    const out = join(root, 'build/vivado/vcu118-dry')
    mkdirSync(out, { recursive: true })
    for (const f of ['top.xsa', 'top.bit', 'top.mmi']) writeFileSync(join(out, f), '')
    const r = spawnSync('make', ['-n', '-f', `${BOARD}/firmware.mk`, `OUT=${out}`], { cwd: root, encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    const compiles = r.stdout.split('\n').filter((l) => /^mb-gcc .* -c /.test(l))
    const sources = [
      ...readdirSync(join(root, 'firmware/src')).filter((f) => f.endsWith('.c')).map((f) => `firmware/src/${f}`),
      ...readdirSync(join(root, 'firmware/hal/xilinx')).filter((f) => f.endsWith('.c')).map((f) => `firmware/hal/xilinx/${f}`),
      'firmware/app/main.c',
    ]
    expect(compiles.length).toBe(sources.length)
    for (const s of sources) expect(compiles.some((l) => l.includes(`${root}/${s} `))).toBe(true)
    const base = /PS_XIL_CSR_BASEADDR := (\S+)/.exec(read(`${BOARD}/board.mk`))![1]
    for (const l of compiles) expect(l).toContain(`-DPS_XIL_CSR_BASEADDR=${base}u`)
    expect(r.stdout).toMatch(/^xsct .*bsp\.tcl /m)
    expect(r.stdout).toMatch(/^updatemem [^\n]*\\\n\s*-proc cpu_bd_inst\/cpu_bd_i\/microblaze_0 /m)
    // the instance path updatemem uses is the top's
    expect(top).toMatch(/^cpu_bd_wrapper cpu_bd_inst \(/m)
    expect(bar).toMatch(/^cpu_bd_wrapper cpu_bd_inst \(/m)
  })
})
