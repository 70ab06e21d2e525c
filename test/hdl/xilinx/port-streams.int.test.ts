// xil_rx_merge and xil_tx_split (the halves of xil_pcie_port that join the block's two
// receive interfaces and split its transmit stream) under Icarus: tb_xil_port_streams sends
// 300 multi-beat TLPs from each of two sources with random gaps and random ready through
// merge then split and checks that each source comes back whole and in order.
// Run: npx vitest run test/hdl/xilinx/port-streams.int.test.ts
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { closing, root, run } from '../tools.js'

it('tb_xil_port_streams under Icarus: every beat of both sources back, in order, framed', () => {
  const dir = join(root, 'build/hdl/xilinx')
  mkdirSync(dir, { recursive: true })
  const vvp = join(dir, 'tb_xil_port_streams.vvp')
  const files = ['hdl/xilinx/tb/tb_xil_port_streams.v', 'hdl/xilinx/rtl/xil_rx_merge.v', 'hdl/xilinx/rtl/xil_tx_split.v']
  const c = run('iverilog', ['-g2005', '-Wall', '-s', 'tb_xil_port_streams', '-o', vvp, ...files])
  expect(c.out).toBe('')
  const { stdout, status } = run('vvp', ['-n', vvp])
  const res = closing(stdout)
  expect(res, stdout.slice(-2000)).toBeDefined()
  expect(res!.failed, stdout.slice(-2000)).toBe(0)
  // 2 x 300 TLPs of 1-4 beats: one data and one framing check per beat, and the two totals
  expect(res!.passed).toBeGreaterThan(2 * 2 * 300)
  expect(status).toBe(0)
})
