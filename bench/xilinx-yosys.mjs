#!/usr/bin/env node
/**
 * Yosys structural check (hierarchy -check, proc, check -assert: no latches, no multiple drivers,
 * no undriven nets) of every UltraScale+ adapter in hdl/xilinx/rtl, at 256 and 512 bits. The two
 * receive adapters take Yosys about a minute each (their 48-DW variable shifts), so `npm test`
 * checks only the transmit ones (test/hdl/xilinx/adapters.int.test.ts) and this script all four.
 * Exits 1 when a check fails; prints one line per check with its time.
 *
 * Usage: node bench/xilinx-yosys.mjs
 */
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const RTL = ['xil_cq_rx', 'xil_rc_rx', 'xil_rq_tx', 'xil_cc_tx', 'xil_rx_unpack', 'xil_tx_pack'].map((m) => `hdl/xilinx/rtl/${m}.v`)
let failed = 0
for (const top of ['xil_cq_rx', 'xil_rc_rx', 'xil_rq_tx', 'xil_cc_tx']) {
  for (const width of [256, 512]) {
    const t0 = performance.now()
    const script = `read_verilog ${RTL.join(' ')}; chparam -set DATA_WIDTH ${width} ${top}; hierarchy -check -top ${top}; proc; check -assert`
    const r = spawnSync('yosys', ['-q', '-p', script], { cwd: root, encoding: 'utf8' })
    const s = ((performance.now() - t0) / 1000).toFixed(1)
    if (r.status !== 0) failed++
    console.log(`${top} ${width}-bit: ${r.status === 0 ? 'ok' : `FAILED\n${r.stdout}${r.stderr}`} (${s} s)`)
  }
}
console.log(`${8 - failed} passed, ${failed} failed`)
process.exit(failed ? 1 : 0)
