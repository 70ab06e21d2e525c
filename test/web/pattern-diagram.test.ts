import { describe, expect, it } from 'vitest'
import {
  ELEMENT_BYTES,
  GRAPH_ID_BYTES,
  GRAPH_KERNEL_SPECS,
  LINE_BYTES,
  PATTERN_SPECS,
  WORKLOAD_LIMITS,
} from '../../host/src/core/workload.js'
import { SIZE_CLASSES } from '../../host/src/core/size-classes.js'
import { WARP_TABLE } from './warp-table.js'
import {
  diagramLayout,
  geometryCaption,
  graphEntry,
  instructionGeometry,
  MAX_LINES,
  patternEntry,
  type WarpInstruction,
} from '../../web/pattern-diagram.js'

const offsets = (e: number) => Array.from({ length: WORKLOAD_LIMITS.offset.max / e + 1 }, (_, i) => i * e)
const sizes = (g: ReturnType<typeof instructionGeometry>) => g.mrds.map((m) => m.len)

describe('the warp table (generated from native/model)', () => {
  it('has an entry for every spec pattern, lane width and offset, and every graph kernel and id width', () => {
    expect(WARP_TABLE.lineBytes).toBe(LINE_BYTES)
    for (const p of PATTERN_SPECS)
      for (const e of ELEMENT_BYTES)
        for (const o of offsets(e)) expect(patternEntry(p.name, e, o, WARP_TABLE), `${p.name} ${e} +${o}`).toBeDefined()
    for (const k of GRAPH_KERNEL_SPECS)
      for (const b of GRAPH_ID_BYTES) expect(graphEntry(k.name, b, WARP_TABLE), `${k.name} ${b}`).toBeDefined()
    expect(WARP_TABLE.patterns).toHaveLength(PATTERN_SPECS.length * ELEMENT_BYTES.reduce((a, e) => a + offsets(e).length, 0))
  })
})

describe('instructionGeometry: lanes → lines, sectors → MRds', () => {
  it('strided: 32 lanes in 32 lines, one sector each, 32 reads of 32 B', () => {
    const g = instructionGeometry(patternEntry('strided', 4, 0, WARP_TABLE)!.first, 4, WARP_TABLE)
    expect(g.lanes).toHaveLength(32)
    expect(g.lines).toHaveLength(32)
    expect(g.sectorsTouched).toBe(32)
    expect(sizes(g)).toEqual(Array(32).fill(32))
    expect(g.usefulBytes).toBe(128)
    expect(g.fetchedBytes).toBe(1024)
    expect(geometryCaption(g)).toBe('32 lanes × 4 B = 128 B in 32 lines, 32 sectors → 32 MRd (32 × 32 B), 1024 B fetched (13 % useful)')
  })

  it('merged-aligned: one line, all four sectors, one 128-B read; 8-B lanes two lines, two reads', () => {
    const g = instructionGeometry(patternEntry('merged-aligned', 4, 0, WARP_TABLE)!.first, 4, WARP_TABLE)
    expect(g.lines.map((l) => l.touched)).toEqual([[true, true, true, true]])
    expect(sizes(g)).toEqual([128])
    expect(g.bySize['128']).toBe(1)
    expect(sizes(instructionGeometry(patternEntry('merged-aligned', 8, 0, WARP_TABLE)!.first, 8, WARP_TABLE))).toEqual([128, 128])
  })

  it('merged-misaligned at +32: the span straddles two lines, 96 + 32 B', () => {
    const g = instructionGeometry(patternEntry('merged-misaligned', 4, 32, WARP_TABLE)!.first, 4, WARP_TABLE)
    expect(g.lines.map((l) => l.line)).toEqual([0, 128])
    expect(g.lines[0]!.touched).toEqual([false, true, true, true])
    expect(g.lines[1]!.touched).toEqual([true, false, false, false])
    expect(sizes(g)).toEqual([96, 32])
    expect(sizes(instructionGeometry(patternEntry('merged-misaligned', 16, 32, WARP_TABLE)!.first, 16, WARP_TABLE))).toEqual([
      96, 128, 128, 128, 32,
    ])
  })

  it('a hole between touched sectors is over-fetched by the one read of its line (R4)', () => {
    const ins: WarpInstruction = { lanes: [0, 96, ...Array(30).fill(-1)], mrds: [[0, 128]] }
    const g = instructionGeometry(ins, 4, WARP_TABLE)
    expect(g.lines[0]!.touched).toEqual([true, false, false, true])
    expect(g.lines[0]!.fetched).toEqual([true, true, true, true])
    expect(g.lanes).toHaveLength(2)
  })

  it('every entry: reads stay inside one line, in 32-B sectors, cover every touched sector and never exceed the spec sizes', () => {
    const exact = SIZE_CLASSES.filter((c) => c.bytes !== null && c.bytes <= LINE_BYTES).map((c) => c.bytes)
    const all = [
      ...WARP_TABLE.patterns.map((p) => ({ ins: p.first, e: p.elementBytes })),
      ...WARP_TABLE.graph.kernels.flatMap((k) => k.shown.map((s) => ({ ins: s, e: s.load === 'id' ? k.idBytes : 4 }))),
    ]
    for (const { ins, e } of all) {
      const g = instructionGeometry(ins, e, WARP_TABLE)
      for (const m of g.mrds) {
        expect(exact).toContain(m.len)
        expect(m.firstSector * 32 + m.len).toBeLessThanOrEqual(LINE_BYTES)
      }
      // through an empty L1 every touched sector of the first instruction is fetched
      if (ins === WARP_TABLE.patterns.find((p) => p.first === ins)?.first)
        for (const l of g.lines) l.touched.forEach((t, s) => t && expect(l.fetched[s]).toBe(true))
    }
  })

  it('graph kernels: naive reads one sector per thread, aligned starts its second step on a line, merged splits it', () => {
    const naive = graphEntry('bfs-naive', 8, WARP_TABLE)!
    expect(sizes(instructionGeometry(naive.shown[0]!, 8, WARP_TABLE))).toEqual(Array(32).fill(32))
    expect(naive.total.bySize['32']).toBe(naive.total.count)
    const aligned = graphEntry('bfs-aligned', 8, WARP_TABLE)!
    const merged = graphEntry('bfs-merged', 8, WARP_TABLE)!
    expect(aligned.shown[1]!.lanes[0]! % LINE_BYTES).toBe(0)
    expect(merged.shown[0]!.lanes[0]! % LINE_BYTES).not.toBe(0)
    expect(aligned.total.count).toBeLessThanOrEqual(merged.total.count)
    // SSSP's step reads the id, then its 4-B weight
    expect(graphEntry('sssp-merged', 8, WARP_TABLE)!.shown.map((s) => s.load)).toEqual(['id', 'weight', 'id', 'weight'])
  })
})

describe('diagramLayout', () => {
  it('draws 32 lanes, a box per sector of the shown lines and a bar per read under its line', () => {
    const g = instructionGeometry(patternEntry('merged-misaligned', 4, 32, WARP_TABLE)!.first, 4, WARP_TABLE)
    const l = diagramLayout(g, WARP_TABLE)
    const of = (k: string) => l.shapes.filter((s) => s.kind === k)
    expect(of('pd-lane')).toHaveLength(32)
    expect(of('pd-sector-touched')).toHaveLength(4)
    expect(of('pd-sector')).toHaveLength(4)
    expect(of('pd-mrd').map((s) => s.text)).toEqual(['96 B', '32 B'])
    expect(of('pd-wire')).toHaveLength(32)
    expect(l.hiddenLines).toBe(0)
  })

  it('shows the first lines of a strided instruction and counts the rest', () => {
    const l = diagramLayout(instructionGeometry(patternEntry('strided', 4, 0, WARP_TABLE)!.first, 4, WARP_TABLE), WARP_TABLE)
    expect(l.hiddenLines).toBe(32 - MAX_LINES)
    expect(l.shapes.filter((s) => s.kind === 'pd-mrd')).toHaveLength(MAX_LINES)
    expect(l.shapes.find((s) => s.kind === 'pd-label' && s.text === `+${32 - MAX_LINES} lines`)).toBeDefined()
    expect(l.shapes.every((s) => s.x >= 0 && s.x + Math.max(0, s.w) <= l.width)).toBe(true)
  })

  it('greys inactive lanes (aligned BFS: lanes before the list start)', () => {
    const aligned = graphEntry('bfs-aligned', 8, WARP_TABLE)!
    const l = diagramLayout(instructionGeometry(aligned.shown[0]!, 8, WARP_TABLE), WARP_TABLE)
    const off = l.shapes.filter((s) => s.kind === 'pd-lane-off').length
    expect(off).toBe(aligned.shown[0]!.lanes.filter((x) => x < 0).length)
    expect(off).toBeGreaterThan(0)
  })
})
