// The VPK120 board files against each other and the repository, without Vivado: every file the
// Tcl names exists, the block design creates exactly the external ports the wrapper's lint table
// has, every port the constraints name is a port of the top and every port is placed (by pin, by
// the CPM5 configuration, or from fmcp_pins.tcl, whose empty facts stop the build), board.mk
// reaches the Tcl and the firmware build, and firmware.mk builds every firmware source of the
// Versal port with the board's CSR address into a boot image.
// Run: npx vitest run test/hdl/xilinx/boards/vpk120/board.test.ts
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { root } from '../../../tools.js'
import { BOARD, TOP_FILE, constrainedPorts, modulePorts, placedPorts, read } from './board.js'
import { PS_BD_PORTS, TUSER, VENDOR } from './vendor-ports.js'

const top = read(TOP_FILE)
const ports = modulePorts(top)
const xdc = read(`${BOARD}/vpk120.xdc`)
const build = read(`${BOARD}/build.tcl`)
const bd = read(`${BOARD}/ps_bd.tcl`)
const facts = read(`${BOARD}/fmcp_pins.tcl`)
const fact = (name: string) => new RegExp(`^set ${name} "([^"]*)"`, 'm').exec(facts)?.[1]
// CPM5's lanes and reference clock: dedicated pins, placed by the CIPS configuration
const CPM = /^pcie_up_(rx|tx|refclk)_[pn]$/
// placed by the constraints build.tcl writes from fmcp_pins.tcl
const FROM_FACTS = ['pcie_dn_perst_n', 'pcie_dn_perstb_n', 'op103_host_mode_n', 'op103_local_clks_n', 'pcie_dn_refclk_p']

describe('vpk120 constraints', () => {
  it('reads the ports of the top', () => {
    expect(ports).toContain('pcie_up_rx_p')
    expect(ports).toContain('op103_host_mode_n')
    expect(ports.length).toBe(16)
  })

  it('names only ports the top has', () => {
    const named = constrainedPorts(xdc)
    expect(named.length).toBeGreaterThan(15)
    expect(named.filter((p) => !ports.includes(p))).toEqual([])
  })

  it('places every downstream lane by pin, all 8 of both directions', () => {
    const placed = [...xdc.matchAll(/PACKAGE_PIN (\w+) \[get_ports \{(pcie_dn_(rx|tx)_p)\[(\d)\]\}\]/g)]
    expect(placed.map((m) => `${m[2]}[${m[4]}]`).sort()).toEqual(
      [...Array(8).keys()].flatMap((k) => [`pcie_dn_rx_p[${k}]`, `pcie_dn_tx_p[${k}]`]).sort(),
    )
    expect(new Set(placed.map((m) => m[1])).size).toBe(16)
  })

  it('leaves no port unplaced: pins, CPM5 or fmcp_pins.tcl (N pins follow their P pins)', () => {
    const placed = new Set(placedPorts(xdc))
    const unplaced = ports.filter((p) => !CPM.test(p) && !FROM_FACTS.includes(p) && !placed.has(p) && !/_n$/.test(p))
    expect(unplaced).toEqual([])
    for (const p of FROM_FACTS) expect(build).toMatch(new RegExp(`\\b${p}\\b`))
  })
})

describe('vpk120 downstream facts', () => {
  it('build.tcl stops while fmcp_pins.tcl has an empty fact, and two are empty today', () => {
    const checked = /foreach fact \{([^}]*)\}/.exec(build)?.[1]?.split(/\s+/) ?? []
    expect(checked.sort()).toEqual([...facts.matchAll(/^set (\w+) "/gm)].map((m) => m[1]).sort())
    expect(checked.filter((f) => fact(f) === '')).toEqual(['OP103_HOST_MODE_N_PIN', 'OP103_LOCAL_CLKS_N_PIN'])
    expect(build).toMatch(/error "\$fact is empty/)
  })

  it('gives each filled pin a distinct package pin, none the lanes use, and a source', () => {
    const pins = ['OP103_PERST_N_PIN', 'OP103_PERSTB_N_PIN', 'DN_REFCLK_P_PIN'].map(fact)
    for (const p of pins) expect(p).toMatch(/^[A-Z]{1,2}\d{1,2}$/)
    expect(new Set(pins).size).toBe(pins.length)
    const lanes = new Set([...xdc.matchAll(/PACKAGE_PIN\s+(\w+)/g)].map((m) => m[1]))
    expect(pins.filter((p) => lanes.has(p!))).toEqual([])
    expect(facts).toMatch(/^set OP103_PERST_N_PIN "G26" +;# LA00_CC_P, .*\[O\]/m)
  })
})

describe('vpk120 build script and block design', () => {
  it('adds only sources that exist, and builds the top from them', () => {
    for (const dir of ['hdl/rtl', 'hdl/rtl/switch', 'hdl/xilinx/rtl']) {
      expect(build).toContain(`$root/${dir}/*.v`)
      expect(readdirSync(join(root, dir)).some((f) => f.endsWith('.v'))).toBe(true)
    }
    expect(build).toContain('$here/rtl/*.v')
    expect(build).toContain('$root/hdl/xilinx/boards/vcu118/rtl/pcie_perst_gen.v')
    expect(existsSync(join(root, 'hdl/xilinx/boards/vcu118/rtl/pcie_perst_gen.v'))).toBe(true)
    for (const f of ['vpk120.xdc', 'fmcp_pins.tcl', 'ps_bd.tcl', 'board.mk', 'bsp.tcl', 'boot.bif']) {
      expect(existsSync(join(root, BOARD, f)), f).toBe(true)
    }
    for (const f of ['vpk120.xdc', 'fmcp_pins.tcl', 'ps_bd.tcl']) expect(build).toContain(`$here/${f}`)
    expect(build).toMatch(/set top vpk120_switch_top/)
    expect(existsSync(join(root, TOP_FILE))).toBe(true)
    expect(build).toContain('$root/hdl/rtl/generated/pcie_scope_regs.vh')
    expect(build).toContain('$root/spec/switch.json')
    expect(build).toMatch(/write_device_image/)
    expect(build).toMatch(/write_hw_platform/)
  })

  it('creates exactly the external ports the wrapper stub has, with the stub tuser widths', () => {
    const created = [...bd.matchAll(/create_bd_(?:intf_)?port [^\n]*? ([\w${}]+)\]?\s*$/gm)].map((m) => m[1] ?? '')
    const viaProc = [...bd.matchAll(/^\s*ps_bd_block_ports (\w+)/gm)].flatMap((m) =>
      ['gt', 'refclk', 'user_clk', 'user_reset', 'user_lnk_up', 'cfg_current_speed', 'cfg_negotiated_width'].map((s) => `${m[1]}_${s}`),
    )
    const axis = [...bd.matchAll(/^\s*ps_bd_axis (\w+) \w+ (\d+)/gm)]
    const all = new Set([...created.filter((n) => !n.startsWith('$') && !n.startsWith('${')), ...viaProc, ...axis.map((m) => m[1] ?? '')])
    expect([...all].sort()).toEqual([...PS_BD_PORTS].sort())
    for (const m of axis) {
      const [blk, ch] = [m[1]!.slice(0, 7), m[1]!.slice(8)] as ['pcie_up' | 'pcie_dn', 'cq' | 'rc' | 'rq' | 'cc']
      expect(Number(m[2]), m[1]).toBe(TUSER[blk][ch])
    }
    // the wrapper names an interface port's signals <port>_<signal>
    const wrapper = VENDOR.find((m) => m.name === 'ps_bd_wrapper')!
    for (const p of wrapper.ports) expect(PS_BD_PORTS.some((n) => p.name === n || p.name.startsWith(`${n}_`)), p.name).toBe(true)
  })

  it('configures CPM5 controller 1 as a switch upstream port and the PL block X1Y0 as a Root Port', () => {
    expect(bd).toMatch(/CPM_PCIE1_PORT_TYPE \{Upstream_Port_of_PCI_Express_Switch\}/)
    expect(bd).toMatch(/device_port_type \{Root_Port_of_PCI_Express_Root_Complex\}/)
    expect(bd).toMatch(/pcie_blk_locn \{X1Y0\}/)
    expect(fact('DN_PCIE_BLOCK')).toBe('X1Y0')
    // the top tells the switch that the upstream header is the block's
    expect(top).toMatch(/\.UP_CFG_IN_BLOCK\(1\)/)
    expect(top).toMatch(/\.TLAST_FRAMING\(1\)/)
  })

  it('reads the CSR address from board.mk', () => {
    expect(build).toMatch(/ps_bd_create \[board_fact PS_VSL_CSR_BASEADDR\]/)
    expect(read(`${BOARD}/board.mk`)).toMatch(/^PS_VSL_CSR_BASEADDR := 0x[0-9A-F]{8}$/m)
    expect(bd).toMatch(/assign_bd_address -target_address_space \/cips\/M_AXI_LPD -offset \$csr_base -range 8K/)
  })
})

describe('vpk120 firmware build', () => {
  it('compiles every firmware source, the Versal port and main_versal.c with the CSR address, links, then boots both', () => {
    const out = join(root, 'build/vivado/vpk120-dry')
    mkdirSync(out, { recursive: true })
    for (const f of ['top.xsa', 'top.pdi']) writeFileSync(join(out, f), '')
    const r = spawnSync('make', ['-n', '-f', `${BOARD}/firmware.mk`, `OUT=${out}`], { cwd: root, encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    const compiles = r.stdout.split('\n').filter((l) => /^armr5-none-eabi-gcc .* -c /.test(l))
    const sources = [
      ...readdirSync(join(root, 'firmware/src')).filter((f) => f.endsWith('.c')).map((f) => `firmware/src/${f}`),
      ...readdirSync(join(root, 'firmware/hal/versal')).filter((f) => f.endsWith('.c')).map((f) => `firmware/hal/versal/${f}`),
      'firmware/app/main_versal.c',
    ]
    expect(compiles.length).toBe(sources.length)
    for (const s of sources) expect(compiles.some((l) => l.includes(`${root}/${s} `))).toBe(true)
    const base = /PS_VSL_CSR_BASEADDR := (\S+)/.exec(read(`${BOARD}/board.mk`))![1]
    for (const l of compiles) expect(l).toContain(`-DPS_VSL_CSR_BASEADDR=${base}u`)
    for (const l of compiles) expect(l).toContain('-DPS_CONFIG_PORT')
    expect(r.stdout).toMatch(/^xsct .*bsp\.tcl /m)
    expect(r.stdout).toMatch(/bootgen -arch versal -image \S*boot\.bif/)
    // the boot image names the files build.tcl and this make file write
    const bif = read(`${BOARD}/boot.bif`)
    expect(bif).toContain('file = top.pdi')
    expect(bif).toContain('file = pcie_scope_fw.elf')
    expect(read(`${BOARD}/firmware.mk`)).toMatch(/^ELF +:= \$\(OUT\)\/pcie_scope_fw\.elf$/m)
  })
})
