/**
 * What the trace timeline draws and what a click hits (DOM-free): the lanes' rows, the bars in the
 * window as rectangles per size class, and the read under a pointer. Bars come in request order,
 * so the ones in a window are found by binary search; neighbouring bars of one lane and colour
 * that meet on screen become one rectangle, so a zoomed-out trace of 50 000 records draws a few
 * thousand rectangles, not one per read.
 */
import type { XRange } from './time-range.js'
import type { TraceBars } from './trace-bars.js'
import { tOf, xOf, type PlotX } from './trace-window.js'

/** The lanes' rows: lane i spans [top + i·height, top + (i+1)·height). */
export interface LaneRows {
  top: number
  height: number
  count: number
}

export const laneAt = (y: number, rows: LaneRows): number | null => {
  const i = Math.floor((y - rows.top) / rows.height)
  return i >= 0 && i < rows.count ? i : null
}

/** a bar is drawn at least this wide, px, and a click this close to one hits it */
export const MIN_BAR_PX = 1
export const HIT_SLOP_PX = 3

/** The first position in `ids` whose bar starts at or after `t` (ids in start order). */
function firstStartingAt(bars: TraceBars, ids: Uint32Array, t: number): number {
  let lo = 0
  let hi = ids.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (bars.start[ids[mid]!]! < t) lo = mid + 1
    else hi = mid
  }
  return lo
}

export interface BarRects {
  /** per size class: x, lane, width triplets (CSS px, lane index) */
  bySize: number[][]
  /** rectangles, after merging */
  rects: number
  /** reads in the window */
  reads: number
}

/** The bars of reads `ids` (ascending) inside window `r`, as rectangles per size class. */
export function planBars(bars: TraceBars, ids: Uint32Array, r: XRange, p: PlotX, sizeClasses: number): BarRects {
  const bySize: number[][] = Array.from({ length: sizeClasses }, () => [])
  const lastRect = new Int32Array(bars.lanes.length).fill(-1)
  const lastSize = new Int32Array(bars.lanes.length).fill(-1)
  let rects = 0
  let reads = 0
  const right = p.left + p.width
  for (let k = firstStartingAt(bars, ids, r.from - bars.maxDuration); k < ids.length; k++) {
    const i = ids[k]!
    const s = bars.start[i]!
    if (s > r.to) break
    const e = bars.end[i]!
    if (e < r.from) continue
    reads++
    const x0 = Math.max(p.left, xOf(s, r, p))
    const x1 = Math.min(right, Math.max(xOf(e, r, p), xOf(s, r, p) + MIN_BAR_PX))
    const lane = bars.lane[i]!
    const size = bars.size[i]!
    const out = bySize[size]!
    const j = lastRect[lane]!
    if (j >= 0 && lastSize[lane] === size && x0 <= out[j]! + out[j + 2]! + 0.5) {
      out[j + 2] = Math.max(out[j + 2]!, x1 - out[j]!)
      continue
    }
    lastRect[lane] = out.length
    lastSize[lane] = size
    out.push(x0, lane, Math.max(MIN_BAR_PX, x1 - x0))
    rects++
  }
  return { bySize, rects, reads }
}

/**
 * The read whose bar lies under (x, y), within HIT_SLOP_PX; of several, the nearest, and of equally
 * near ones the latest (drawn last, on top). Null for none.
 */
export function hitRead(bars: TraceBars, ids: Uint32Array, r: XRange, p: PlotX, rows: LaneRows, x: number, y: number): number | null {
  const lane = laneAt(y, rows)
  if (lane === null || x < p.left - HIT_SLOP_PX || x > p.left + p.width + HIT_SLOP_PX) return null
  const slop = (HIT_SLOP_PX / p.width) * (r.to - r.from)
  const t = tOf(x, r, p)
  let best: number | null = null
  let bestPx = Infinity
  for (let k = firstStartingAt(bars, ids, t - slop - bars.maxDuration); k < ids.length; k++) {
    const i = ids[k]!
    if (bars.start[i]! > t + slop) break
    if (bars.lane[i] !== lane) continue
    const x0 = xOf(bars.start[i]!, r, p)
    const x1 = Math.max(xOf(bars.end[i]!, r, p), x0 + MIN_BAR_PX)
    const d = x < x0 ? x0 - x : x > x1 ? x - x1 : 0
    if (d <= HIT_SLOP_PX && d <= bestPx) {
      best = i
      bestPx = d
    }
  }
  return best
}
