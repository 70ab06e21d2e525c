#!/usr/bin/env node
/**
 * Yosys structural check (hierarchy -check, proc, check -assert: no latches, no multiple drivers,
 * no undriven nets) of every UltraScale+ adapter in hdl/xilinx/rtl, at 256 and 512 bits. The two
 * receive adapters at 512 bits take Yosys about a minute each (their 48-DW variable shifts), so `npm test`
 * checks only the transmit ones (test/hdl/xilinx/adapters.int.test.ts) and this script all four.
 * Exits 1 when a check fails; prints one line per check with its time.
 *
 * Usage: node bench/xilinx-yosys.mjs
 */
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rtlFiles } from '../hdl/file-list.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const RTL = rtlFiles('hdl/xilinx/rtl/xil_adapters.f')
// [top, data width, straddle]: straddling exists at 512 bits on CQ and on RC at both widths
const CONFIGS = [
  ['xil_cq_rx', 512, 1],
  ['xil_cq_rx', 512, 0],
  ['xil_cq_rx', 256, 0],
  ['xil_rc_rx', 512, 1],
  ['xil_rc_rx', 256, 1],
  ['xil_rq_tx', 512, null],
  ['xil_rq_tx', 256, null],
  ['xil_cc_tx', 512, null],
  ['xil_cc_tx', 256, null],
]
let failed = 0
for (const [top, width, straddle] of CONFIGS) {
  const t0 = performance.now()
  const set = `-set DATA_WIDTH ${width}${straddle === null ? '' : ` -set STRADDLE ${straddle}`}`
  const script = `read_verilog ${RTL.join(' ')}; chparam ${set} ${top}; hierarchy -check -top ${top}; proc; check -assert`
  const r = spawnSync('yosys', ['-q', '-p', script], { cwd: root, encoding: 'utf8' })
  const s = ((performance.now() - t0) / 1000).toFixed(1)
  if (r.status !== 0) failed++
  console.log(
    `${top} ${width}-bit${straddle === null ? '' : `, straddle ${straddle}`}: ${r.status === 0 ? 'ok' : `FAILED\n${r.stdout}${r.stderr}`} (${s} s)`,
  )
}
console.log(`${CONFIGS.length - failed} passed, ${failed} failed`)
process.exit(failed ? 1 : 0)
