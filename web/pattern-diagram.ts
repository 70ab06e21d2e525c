/**
 * One warp's loads drawn for the run form: its 32 lanes, the 128-B lines and 32-B sectors they
 * touch, and the memory reads (32/64/96/128-B MRds) the coalescer makes of them. The page cannot
 * run native/model, so it draws the model's own answers: web/generated/warp-table.json (fetched
 * beside the bundle, `fetchWarpTable`), written by
 * scripts/gen-warp-table.mjs from `pcie-scope-model --warp-table` for every pattern, lane width
 * and offset of spec/workloads.json and every graph kernel. Nothing here knows a pattern by name:
 * a pattern added to the spec gets its diagram when the table is generated again.
 *
 * The geometry and the layout are pure (unit-tested in Node); web/diagram-svg.ts turns a layout
 * into SVG elements.
 */
import { SIZE_CLASSES, type SizeKey } from '../host/src/core/size-classes.js'
import { SIZE_COLOURS } from './model.js'

/** A memory read as the model issued it: byte offset from the 128-B aligned base, length. */
export type TableMrd = readonly [offset: number, len: number]

/** One warp load instruction: each lane's byte offset (-1 inactive) and the reads it caused. */
export interface WarpInstruction {
  lanes: readonly number[]
  mrds: readonly TableMrd[]
}

export interface TableCounts {
  count: number
  bytes: number
  bySize: Readonly<Record<SizeKey, number>>
}

export interface PatternEntry {
  pattern: string
  elementBytes: number
  offset: number
  /** loop iterations of every thread: warp 0's load instructions */
  instructions: number
  /** warp 0's first instruction, through an empty (ideal) L1 */
  first: WarpInstruction
  /** the whole workload at table.bytes and twice that, with the ideal L1 and bypassing it */
  totals: readonly { bytes: number; ideal: TableCounts; bypass: TableCounts }[]
}

export interface GraphKernelEntry {
  kernel: string
  idBytes: number
  /** warp 0's load instructions over the example lists */
  instructions: number
  /** its first instructions: the ids (and SSSP's weights) */
  shown: readonly (WarpInstruction & { load: 'id' | 'weight' })[]
  /** every read warp 0 makes, through one ideal L1 */
  total: TableCounts
}

export interface WarpTable {
  lineBytes: number
  sectorBytes: number
  warpSize: number
  /** the micro workload of every pattern entry: one warp of the strided walk */
  bytes: number
  patterns: readonly PatternEntry[]
  /** the example: vertex v's list is [begin + degree v, begin + degree (v + 1)) */
  graph: { begin: number; degree: number; vertices: number; kernels: readonly GraphKernelEntry[] }
}

export const patternEntry = (pattern: string, elementBytes: number, offset: number, t: WarpTable): PatternEntry | undefined =>
  t.patterns.find((p) => p.pattern === pattern && p.elementBytes === elementBytes && p.offset === offset)

export const graphEntry = (kernel: string, idBytes: number, t: WarpTable): GraphKernelEntry | undefined =>
  t.graph.kernels.find((k) => k.kernel === kernel && k.idBytes === idBytes)

export interface LaneTouch {
  lane: number
  offset: number
  /** the byte offset of its line, and its sector in the line */
  line: number
  sector: number
}

export interface LineTouch {
  /** byte offset of the line */
  line: number
  /** per sector: some active lane reads in it */
  touched: boolean[]
  /** per sector: some read fetches it (touched, or over-fetched between touched ones) */
  fetched: boolean[]
}

export interface Geometry {
  laneBytes: number
  lanes: LaneTouch[]
  /** the lines the lanes touch, ascending */
  lines: LineTouch[]
  mrds: { offset: number; len: number; line: number; firstSector: number; sectors: number }[]
  /** MRds of this instruction per size class (the spec's classes) */
  bySize: Record<SizeKey, number>
  usefulBytes: number
  fetchedBytes: number
  sectorsTouched: number
}

const sizeKeyOf = (len: number): SizeKey => (SIZE_CLASSES.find((c) => c.bytes === len) ?? SIZE_CLASSES.at(-1)!).key

/** What one instruction touches, from its lanes and reads (the table's, i.e. the model's). */
export function instructionGeometry(ins: WarpInstruction, laneBytes: number, t: WarpTable): Geometry {
  const L = t.lineBytes
  const S = t.sectorBytes
  const sectorsPerLine = L / S
  const lanes: LaneTouch[] = []
  ins.lanes.forEach((offset, lane) => {
    if (offset >= 0) lanes.push({ lane, offset, line: offset - (offset % L), sector: Math.floor((offset % L) / S) })
  })
  const byLine = new Map<number, LineTouch>()
  const lineOf = (line: number): LineTouch => {
    let l = byLine.get(line)
    if (!l)
      byLine.set(
        line,
        (l = { line, touched: Array<boolean>(sectorsPerLine).fill(false), fetched: Array<boolean>(sectorsPerLine).fill(false) }),
      )
    return l
  }
  for (const l of lanes) {
    // a lane's load is naturally aligned and at most 16 B: inside one sector
    lineOf(l.line).touched[l.sector] = true
  }
  const bySize = Object.fromEntries(SIZE_CLASSES.map((c) => [c.key, 0])) as Record<SizeKey, number>
  const mrds = ins.mrds.map(([offset, len]) => {
    const line = offset - (offset % L)
    const firstSector = Math.floor((offset % L) / S)
    const sectors = Math.ceil(len / S)
    const lt = lineOf(line)
    for (let s = firstSector; s < firstSector + sectors && s < sectorsPerLine; s++) lt.fetched[s] = true
    bySize[sizeKeyOf(len)]++
    return { offset, len, line, firstSector, sectors }
  })
  const lines = [...byLine.values()].sort((a, b) => a.line - b.line)
  return {
    laneBytes,
    lanes,
    lines,
    mrds,
    bySize,
    usefulBytes: lanes.length * laneBytes,
    fetchedBytes: mrds.reduce((a, m) => a + m.len, 0),
    sectorsTouched: lines.reduce((a, l) => a + l.touched.filter(Boolean).length, 0),
  }
}

/** One shape of a diagram; `kind` is its CSS class (pd-lane, pd-sector-touched, …). */
export interface Shape {
  kind: string
  x: number
  y: number
  w: number
  h: number
  /** text drawn in it, and its tooltip */
  text?: string
  title?: string
  /** a line from (x, y) to (x + w, y + h) instead of a box */
  line?: boolean
  fill?: string
}

export interface Layout {
  width: number
  height: number
  shapes: Shape[]
  /** lines not drawn (beyond MAX_LINES), named in a note */
  hiddenLines: number
}

/** Lines drawn side by side; a strided instruction's 32 lines show as the first few and a count. */
export const MAX_LINES = 6
const LANE_W = 18
const LANE_H = 16
const SECTOR_W = 22
const LINE_GAP = 14
const ROW = { lanes: 14, lines: 78, mrds: 110, bottom: 134 }

/** Where each shape of an instruction's diagram goes. */
export function diagramLayout(g: Geometry, t: WarpTable): Layout {
  const sectorsPerLine = t.lineBytes / t.sectorBytes
  const lineW = sectorsPerLine * SECTOR_W
  const shown = g.lines.slice(0, MAX_LINES)
  const hiddenLines = g.lines.length - shown.length
  const linesW = shown.length * (lineW + LINE_GAP) + (hiddenLines > 0 ? 60 : 0)
  const lanesW = t.warpSize * LANE_W
  const width = Math.max(lanesW, linesW) + 8
  const lineX = new Map(shown.map((l, i) => [l.line, 4 + i * (lineW + LINE_GAP)]))
  const shapes: Shape[] = []
  const active = new Map(g.lanes.map((l) => [l.lane, l]))
  for (let lane = 0; lane < t.warpSize; lane++) {
    const x = 4 + lane * LANE_W
    const l = active.get(lane)
    shapes.push({
      kind: l ? 'pd-lane' : 'pd-lane-off',
      x,
      y: ROW.lanes,
      w: LANE_W - 2,
      h: LANE_H,
      text: String(lane),
      title: l ? `lane ${lane}: ${g.laneBytes} B at +${l.offset}` : `lane ${lane}: inactive`,
    })
    if (!l) continue
    const lx = lineX.get(l.line)
    const tx = lx === undefined ? 4 + shown.length * (lineW + LINE_GAP) + 20 : lx + l.sector * SECTOR_W + SECTOR_W / 2
    shapes.push({
      kind: 'pd-wire',
      x: x + (LANE_W - 2) / 2,
      y: ROW.lanes + LANE_H,
      w: tx - x - (LANE_W - 2) / 2,
      h: ROW.lines - ROW.lanes - LANE_H,
      line: true,
    })
  }
  for (const l of shown) {
    const x = lineX.get(l.line)!
    for (let s = 0; s < sectorsPerLine; s++) {
      const kind = l.touched[s] ? 'pd-sector-touched' : l.fetched[s] ? 'pd-sector-overfetched' : 'pd-sector'
      const what = l.touched[s] ? 'read by a lane' : l.fetched[s] ? 'fetched, read by no lane' : 'not fetched'
      shapes.push({
        kind,
        x: x + s * SECTOR_W,
        y: ROW.lines,
        w: SECTOR_W,
        h: 18,
        title: `line +${l.line}, sector ${s} (+${l.line + s * t.sectorBytes}): ${what}`,
      })
    }
    shapes.push({ kind: 'pd-line', x, y: ROW.lines, w: lineW, h: 18, title: `128-B line at +${l.line}` })
    shapes.push({ kind: 'pd-label', x, y: ROW.lines - 4, w: lineW, h: 0, text: `+${l.line}` })
  }
  if (hiddenLines > 0)
    shapes.push({
      kind: 'pd-label',
      x: 4 + shown.length * (lineW + LINE_GAP),
      y: ROW.lines + 13,
      w: 60,
      h: 0,
      text: `+${hiddenLines} lines`,
    })
  for (const m of g.mrds) {
    const x = lineX.get(m.line)
    if (x === undefined) continue
    const key = sizeKeyOf(m.len)
    shapes.push({
      kind: 'pd-mrd',
      x: x + m.firstSector * SECTOR_W + 1,
      y: ROW.mrds,
      w: m.sectors * SECTOR_W - 2,
      h: 16,
      text: `${m.len} B`,
      title: `MRd ${m.len} B at +${m.offset}`,
      fill: SIZE_COLOURS[SIZE_CLASSES.findIndex((c) => c.key === key)],
    })
  }
  return { width, height: ROW.bottom, shapes, hiddenLines }
}

/** One instruction's words: what the lanes read and what crossed the link for it. */
export function geometryCaption(g: Geometry): string {
  const reads = SIZE_CLASSES.filter((c) => g.bySize[c.key] > 0)
    .map((c) => `${g.bySize[c.key]} × ${c.label}`)
    .join(' + ')
  const eff = g.fetchedBytes > 0 ? Math.round((g.usefulBytes / g.fetchedBytes) * 100) : 100
  return (
    `${g.lanes.length} lanes × ${g.laneBytes} B = ${g.usefulBytes} B in ${g.lines.length} line${g.lines.length === 1 ? '' : 's'}, ` +
    `${g.sectorsTouched} sector${g.sectorsTouched === 1 ? '' : 's'} → ${g.mrds.length ? `${g.mrds.length} MRd (${reads})` : 'no MRd (all in L1)'}, ` +
    `${g.fetchedBytes} B fetched (${eff} % useful)`
  )
}

/** The table the page draws, fetched once from beside the bundle (scripts/build-web.mjs copies it). */
let fetched: Promise<WarpTable> | undefined
export const fetchWarpTable = (): Promise<WarpTable> =>
  (fetched ??= fetch('warp-table.json').then((r) => {
    if (!r.ok) throw new Error(`warp-table.json: HTTP ${r.status}`)
    return r.json() as Promise<WarpTable>
  }))
