// What the VCU118 tests read from the board's files: the top's ports (from the Verilog), the
// ports the constraints name, the files and modules the Tcl names.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { root } from '../../../tools.js'

export const BOARD = 'hdl/xilinx/boards/vcu118'

/** build.tcl's two designs: the top, the files that instantiate vendor modules, the constraints. */
export const DESIGNS = {
  switch: {
    top: 'vcu118_switch_top',
    users: [`${BOARD}/rtl/vcu118_switch_top.v`, 'hdl/xilinx/rtl/xil_tlp_async_fifo.v'],
    xdc: [`${BOARD}/vcu118.xdc`, `${BOARD}/vcu118_dn.xdc`],
  },
  bar: { top: 'vcu118_bar_top', users: [`${BOARD}/rtl/vcu118_bar_top.v`], xdc: [`${BOARD}/vcu118.xdc`] },
} as const
export type Design = keyof typeof DESIGNS
export const topFile = (d: Design) => `${BOARD}/rtl/${DESIGNS[d].top}.v`
export const read = (rel: string) => readFileSync(join(root, rel), 'utf8')

/** Port names of a Verilog-2005 ANSI module header, bus or not. */
export function modulePorts(verilog: string): string[] {
  const header = /\bmodule\s+\w+\s*(?:#\s*\((?:[^()]|\([^()]*\))*\))?\s*\(([\s\S]*?)\);/.exec(verilog)
  if (!header) throw new Error('no module header')
  const body = (header[1] ?? "").replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')
  return [...body.matchAll(/\b(?:input|output|inout)\s+wire\s+(?:\[[^\]]+\]\s*)?(\w+)/g)].flatMap((m) => (m[1] ? [m[1]] : []))
}

/** Port names in `[get_ports ...]` of constraints, with any {bit} index dropped. */
export function constrainedPorts(xdc: string): string[] {
  const names: string[] = []
  for (const line of xdc.split('\n').filter((l) => !l.trim().startsWith('#'))) {
    for (const m of line.matchAll(/get_ports\s+(?:\\?\{([^}]*)\\?\}|(\S+?)\\?\])/g)) {
      for (const n of (m[1] ?? m[2] ?? "").split(/\s+/).filter(Boolean)) names.push(n.replace(/\[.*$/, '').replace(/\\$/, ''))
    }
  }
  return names
}

/** Ports with a PACKAGE_PIN in the constraints. */
export function placedPorts(xdc: string): string[] {
  return xdc
    .split('\n')
    .filter((l) => /PACKAGE_PIN/.test(l) && !l.trim().startsWith('#'))
    .flatMap((l) => constrainedPorts(l))
}
