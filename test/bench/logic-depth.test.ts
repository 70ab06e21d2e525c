// bench/logic-depth.mjs: the deepest register-to-register path of a Yosys JSON netlist, on small
// hand-made netlists whose answer is known.
import { describe, expect, it } from 'vitest'
import { logicDepth } from '../../bench/logic-depth.mjs'

type Dir = 'input' | 'output'
interface Cell {
  type: string
  port_directions: Record<string, Dir>
  connections: Record<string, number[]>
}
const lut = (ins: number[], out: number): Cell => ({
  type: `LUT${ins.length}`,
  port_directions: { ...Object.fromEntries(ins.map((_, i) => [`I${i}`, 'input' as Dir])), O: 'output' },
  connections: { ...Object.fromEntries(ins.map((b, i) => [`I${i}`, [b]])), O: [out] },
})
const ff = (d: number, q: number): Cell => ({
  type: 'FDRE',
  port_directions: { C: 'input', D: 'input', CE: 'input', R: 'input', Q: 'output' },
  connections: { C: [1], D: [d], CE: [1], R: [1], Q: [q] },
})
const carry = (s: number, ci: number, co: number): Cell => ({
  type: 'CARRY4',
  port_directions: { CI: 'input', S: 'input', DI: 'input', CO: 'output', O: 'output' },
  connections: { CI: [ci], S: [s], DI: [s], CO: [co], O: [co + 1000] },
})
// a one-bit-wide LUT RAM: read address raddr -> dout, write data din (not a combinational input)
const lutram = (raddr: number, din: number, dout: number): Cell => ({
  type: 'RAM64X1D',
  port_directions: { A0: 'input', DPRA0: 'input', D: 'input', WE: 'input', WCLK: 'input', SPO: 'output', DPO: 'output' },
  connections: { A0: [raddr], DPRA0: [raddr], D: [din], WE: [1], WCLK: [1], SPO: [dout + 500], DPO: [dout] },
})
const netlist = (cells: Record<string, Cell>, netnames: Record<string, number[]> = {}) => ({
  modules: {
    top: {
      attributes: { top: '00000000000000000000000000000001' },
      ports: {},
      cells,
      netnames: Object.fromEntries(Object.entries(netnames).map(([n, bits]) => [n, { bits, hide_name: n.startsWith('$') ? 1 : 0 }])),
    },
  },
})

describe('logicDepth', () => {
  it('counts LUT levels between flip-flops, the LUT RAM read one level and its write side an end', () => {
    const d = logicDepth(
      netlist(
        {
          src: ff(9, 2),
          a: lut([2], 3),
          b: lut([3, 2], 4),
          ram: lutram(4, 7, 5),
          c: lut([5], 6),
          dst: ff(6, 8),
          // feeds the RAM's write data: a second path that must not run on through the RAM
          w1: lut([8], 10),
          w2: lut([10], 11),
          w3: lut([11], 12),
          w4: lut([12], 7),
        },
        { q: [2], a_out: [3], b_out: [4], ram_out: [5], c_out: [6] },
      ),
    )
    expect(d.level).toBe(4)
    expect(d.cells.map((c) => c.net)).toEqual(['a_out', 'b_out', 'ram_out', 'c_out'])
  })

  it("runs a multi-port LUT RAM's write address on to its own port's output only", () => {
    // RAM64M8: ADDRH is the write address and port H's read address; port A reads at ADDRA
    const ram: Cell = {
      type: 'RAM64M8',
      port_directions: { ADDRA: 'input', ADDRH: 'input', DIA: 'input', WE: 'input', DOA: 'output', DOH: 'output' },
      connections: { ADDRA: [2], ADDRH: [5], DIA: [2], WE: [1], DOA: [6], DOH: [] },
    }
    const cells = { src: ff(9, 2), w1: lut([2], 3), w2: lut([3], 4), w3: lut([4], 5), ram, c: lut([6], 8), dst: ff(8, 10) }
    // the write address's three levels end at the RAM; port A's read: src -> RAM -> c
    expect(logicDepth(netlist(cells)).level).toBe(3)
    // port H's output, read at the write address, continues that path
    const readH = { ...ram, connections: { ...ram.connections, DOH: [7] } }
    expect(logicDepth(netlist({ ...cells, ram: readH, c: lut([7], 8) })).level).toBe(5)
  })

  it('names the deepest path into the registers of each instance, deepest first', () => {
    const d = logicDepth(
      netlist(
        { q: ff(9, 2), a: lut([2], 3), b: lut([3], 4), shallow: ff(3, 5), deep: ff(4, 6) },
        { 'u.src_reg': [2], 'u.v.shallow_reg': [5], 'u.w.deep_reg': [6] },
      ),
    )
    expect(d.byBlock).toEqual([
      { block: 'u.w', level: 2, carry: 0, muxf: 0 },
      { block: 'u.v', level: 1, carry: 0, muxf: 0 },
      { block: 'u', level: 0, carry: 0, muxf: 0 },
    ])
  })

  it('counts carry cells apart, and prefers the path with more of them at equal LUT levels', () => {
    const d = logicDepth(
      netlist({
        q1: ff(0, 2),
        l1: lut([2], 3),
        c1: carry(3, 2, 4),
        c2: carry(3, 4, 5),
        end1: lut([5], 6),
        l2: lut([2], 7),
        end2: lut([7], 8),
      }),
    )
    expect(d).toMatchObject({ level: 2, carry: 2 })
  })

  it('takes the inputs of the top (no driver) as sources at level 0', () => {
    expect(logicDepth(netlist({ a: lut([40], 41), b: lut([41], 42), c: lut([42], 43) })).level).toBe(3)
  })

  it('stops on a combinational loop, naming the cell type', () => {
    expect(() => logicDepth(netlist({ a: lut([20], 21), b: lut([21], 20) }))).toThrow(/combinational loop through LUT1/)
  })
})
