#!/usr/bin/env node
/**
 * Yosys structural check (hierarchy -check, proc, check -assert: no latches, no multiple drivers,
 * no undriven nets) of every adapter in hdl/xilinx/rtl, at 256 and 512 bits, and in the Versal
 * form (TLAST_FRAMING, straddle off) at 512 and 1024 bits. The two
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
// [top, data width, straddle, tlast framing]: straddling exists at 512 bits on CQ and on RC at
// both widths; the Versal form has none
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
  ['xil_cq_rx', 512, 0, 1],
  ['xil_cq_rx', 1024, 0, 1],
  ['xil_rc_rx', 1024, 0, 1],
  ['xil_rq_tx', 1024, null, 1],
  ['xil_cc_tx', 1024, null, 1],
]
let failed = 0
for (const [top, width, straddle, tlast = 0] of CONFIGS) {
  const t0 = performance.now()
  const set = `-set DATA_WIDTH ${width}${straddle === null ? '' : ` -set STRADDLE ${straddle}`}${tlast ? ' -set TLAST_FRAMING 1' : ''}`
  const script = `read_verilog ${RTL.join(' ')}; chparam ${set} ${top}; hierarchy -check -top ${top}; proc; check -assert`
  const r = spawnSync('yosys', ['-q', '-p', script], { cwd: root, encoding: 'utf8' })
  const s = ((performance.now() - t0) / 1000).toFixed(1)
  if (r.status !== 0) failed++
  console.log(
    `${top} ${width}-bit${straddle === null ? '' : `, straddle ${straddle}`}${tlast ? ', tlast framing' : ''}: ${r.status === 0 ? 'ok' : `FAILED\n${r.stdout}${r.stderr}`} (${s} s)`,
  )
}
console.log(`${CONFIGS.length - failed} passed, ${failed} failed`)
process.exit(failed ? 1 : 0)
