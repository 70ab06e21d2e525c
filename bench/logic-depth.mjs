/**
 * Logic depth of a Yosys `synth_xilinx` netlist (its `write_json`): the longest combinational
 * path between storage elements, counted in LUT levels, with the carry cells and wide-function
 * multiplexers on that path. Not a timing analysis (no delays, no placement): the count of
 * levels is the first thing a Vivado `report_design_analysis` shows for a critical path, and a
 * path much deeper than its neighbours is the one to pipeline.
 *
 * Sources of a path: flip-flop and block-RAM outputs, the top's inputs. A LUT RAM read
 * (RAM64M8 and the like) is one level from its read address to its data out; its write side
 * (data, write enable, write address) ends a path. Each LUT is one level; CARRY4/CARRY8 and
 * MUXF7/8/9 cells are counted apart (a carry chain is fast per bit, long chains are not).
 */
// the deepest register-to-register path allowed, in LUT levels: at 250 MHz (4 ns) an UltraScale+
// path has room for about 6 to 8 LUTs with their routing
export const MAX_LUT_LEVELS = 8
// a LUT level: a LUT, or an inverter Yosys left standing (a LUT1 once placed)
const LUT = /^(LUT[1-6]|INV)$/
const CARRY = /^CARRY[48]$/
const MUXF = /^MUXF[789]$/
const FLOP = /^FD[RSCP]E$/
// LUT RAM read ports: read-address inputs -> data outputs (UltraScale+ library, UG974). Each
// output reads at its own address only (`reads`: [address inputs, output]); on the multi-port
// macros the last port's address is also the write address, so a write address reaches that
// port's output and no other
const port = (ins, out) => [ins, out]
const ABC = (n) => [...'ABCDEFGH'.slice(0, n)]
const macro = (n) => ({
  ins: ABC(n).map((x) => `ADDR${x}`),
  outs: ABC(n).map((x) => `DO${x}`),
  reads: ABC(n).map((x) => port([`ADDR${x}`], `DO${x}`)),
})
const bits = (p, n) => Array.from({ length: n }, (_, i) => `${p}${i}`)
const dual = (n) => ({
  ins: [...bits('A', n), ...bits('DPRA', n)],
  outs: ['SPO', 'DPO'],
  reads: [port(bits('A', n), 'SPO'), port(bits('DPRA', n), 'DPO')],
})
export const LUTRAM_READS = {
  RAM32M: macro(4),
  RAM64M: macro(4),
  RAM32M16: macro(8),
  RAM64M8: macro(8),
  RAM32X1D: dual(5),
  RAM64X1D: dual(6),
  RAM128X1D: { ins: ['A', 'DPRA'], outs: ['SPO', 'DPO'], reads: [port(['A'], 'SPO'), port(['DPRA'], 'DPO')] },
  RAM256X1D: { ins: ['A', 'DPRA'], outs: ['SPO', 'DPO'], reads: [port(['A'], 'SPO'), port(['DPRA'], 'DPO')] },
}

/** How a cell passes signals combinationally: its input ports, output ports and the weights. */
function combinational(cell) {
  const t = cell.type
  const dirs = Object.entries(cell.port_directions ?? {})
  const ins = dirs.filter(([, d]) => d === 'input').map(([p]) => p)
  const outs = dirs.filter(([, d]) => d === 'output').map(([p]) => p)
  if (LUT.test(t)) return { ins, outs, level: 1, carry: 0, muxf: 0 }
  if (CARRY.test(t)) return { ins, outs, level: 0, carry: 1, muxf: 0 }
  if (MUXF.test(t)) return { ins, outs, level: 0, carry: 0, muxf: 1 }
  if (LUTRAM_READS[t]) return { ...LUTRAM_READS[t], level: 1, carry: 0, muxf: 0 }
  return null
}

/** The top module of a Yosys `write_json` netlist (the one marked top, else the first). */
export function topModule(netlist) {
  return Object.values(netlist.modules).find((m) => m.attributes?.top) ?? Object.values(netlist.modules)[0]
}

// a path's cost, compared by LUT levels first, then carry cells, then multiplexers
const deeper = (a, b) => a.level - b.level || a.carry - b.carry || a.muxf - b.muxf

/**
 * The deepest path of the netlist's top module: { level, carry, muxf, cells } where cells lists
 * the combinational cells along it, source first, each as { type, net } (net: the name of the
 * signal it drives), and byBlock: for each instance whose registers end a path, the deepest path
 * into them ({ block, level, carry, muxf }), deepest first.
 */
export function logicDepth(netlist) {
  const top = topModule(netlist)
  // bit -> the combinational cell driving it, with that cell's input bits
  const driver = new Map()
  for (const cell of Object.values(top.cells)) {
    const c = combinational(cell)
    if (!c) continue
    const bitsOf = (ports) => ports.flatMap((p) => cell.connections[p] ?? []).filter((b) => typeof b === 'number')
    // a LUT RAM output from its own read address; any other cell's outputs from all its inputs
    const arcs = c.reads ?? [[c.ins, null]]
    for (const [ins, out] of arcs) {
      const inBits = bitsOf(ins)
      for (const p of out ? [out] : c.outs)
        for (const bit of cell.connections[p] ?? []) if (typeof bit === 'number') driver.set(bit, { cell, c, inBits })
    }
  }
  const memo = new Map()
  const ZERO = { level: 0, carry: 0, muxf: 0, from: null, cell: null }
  // depth at a bit: an iterative depth-first walk (paths run through thousands of cells, too
  // deep to recurse); a bit is grey while the inputs of its driver are being walked
  const grey = new Set()
  const depthAt = (start) => {
    const stack = [start]
    while (stack.length) {
      const bit = stack[stack.length - 1]
      if (memo.has(bit)) {
        stack.pop()
        continue
      }
      const d = driver.get(bit)
      if (!d) {
        memo.set(bit, ZERO)
        stack.pop()
        continue
      }
      if (!grey.has(bit)) {
        grey.add(bit)
        for (const b of d.inBits) {
          if (memo.has(b)) continue
          if (grey.has(b)) throw new Error(`combinational loop through ${d.cell.type} (${d.cell.attributes?.src ?? '?'})`)
          stack.push(b)
        }
        continue
      }
      let best = ZERO
      let from = null
      for (const b of d.inBits) {
        const m = memo.get(b)
        if (from === null || deeper(m, best) > 0) {
          best = m
          from = b
        }
      }
      memo.set(bit, {
        level: best.level + d.c.level,
        carry: best.carry + d.c.carry,
        muxf: best.muxf + d.c.muxf,
        from,
        cell: d.cell,
      })
      grey.delete(bit)
      stack.pop()
    }
    return memo.get(start)
  }
  let end = null
  let worst = ZERO
  for (const bit of driver.keys()) {
    const d = depthAt(bit)
    if (deeper(d, worst) > 0) {
      worst = d
      end = bit
    }
  }
  // a bit's name: the first Verilog net that carries it (Yosys's own names, $..., last); a
  // register's: the deepest one, where it is declared (the ports that pass it up are shallower)
  const names = new Map()
  const registerNames = new Map()
  const depthOf = (name) => name.split('.').length
  for (const [name, net] of Object.entries(top.netnames ?? {}).sort(([, a], [, b]) => (a.hide_name ?? 0) - (b.hide_name ?? 0)))
    net.bits.forEach((bit, i) => {
      const full = net.bits.length > 1 ? `${name}[${i}]` : name
      if (!names.has(bit)) names.set(bit, full)
      const had = registerNames.get(bit)
      if (!name.startsWith('$') && (!had || depthOf(full) > depthOf(had))) registerNames.set(bit, full)
    })
  const cells = []
  for (let bit = end; bit !== null && memo.get(bit)?.cell; bit = memo.get(bit).from)
    cells.unshift({ type: memo.get(bit).cell.type, net: names.get(bit) ?? String(bit) })

  // per block: the deepest path into a flip-flop (D, enable, reset) of each instance, named by the
  // instance path of the register it loads (the register's name without its last part)
  const blocks = new Map()
  for (const cell of Object.values(top.cells)) {
    if (!FLOP.test(cell.type)) continue
    const q = registerNames.get(cell.connections.Q?.[0])
    if (!q) continue
    const block = q.includes('.') ? q.slice(0, q.lastIndexOf('.')) : '(top)'
    for (const port of ['D', 'CE', 'R', 'S', 'CLR', 'PRE'])
      for (const bit of cell.connections[port] ?? []) {
        if (typeof bit !== 'number') continue
        const d = depthAt(bit)
        const had = blocks.get(block)
        if (!had || deeper(d, had) > 0) blocks.set(block, { level: d.level, carry: d.carry, muxf: d.muxf })
      }
  }
  const byBlock = [...blocks.entries()]
    .map(([block, d]) => ({ block, ...d }))
    .sort((a, b) => deeper(b, a) || a.block.localeCompare(b.block))
  return { level: worst.level, carry: worst.carry, muxf: worst.muxf, cells, byBlock }
}
