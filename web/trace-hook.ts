/**
 * What the browser tests read of the trace view (`window.__pcieScopeTrace`, web/test-entry.ts):
 * what it holds, what it drew last, and where a read's bar lies on its canvas. Only the test
 * build imports this module.
 */
import type { XRange } from './time-range.js'
import { xOf } from './trace-window.js'
import { traceViewState } from './views/trace.js'

export interface TraceViewHook {
  loaded: boolean
  reads: number
  /** reads passing the filter, and the table rows in the DOM */
  shown: number
  tableRows: number
  lanes: number
  window: XRange | null
  full: XRange | null
  drawnReads: number
  drawnRects: number
  selected: number | null
  /** where read i's bar is drawn, CSS px from the canvas's top left; null while out of the window */
  barPoint(i: number): { x: number; y: number } | null
}

export function traceViewHook(): TraceViewHook {
  const { data, geometry, drawn, tableRows } = traceViewState()
  return {
    loaded: data !== null,
    reads: data?.report.reads.length ?? 0,
    shown: data?.ids.length ?? 0,
    tableRows,
    lanes: data?.bars.lanes.length ?? 0,
    window: data ? { ...data.window } : null,
    full: data ? { ...data.full } : null,
    drawnReads: drawn.reads,
    drawnRects: drawn.rects,
    selected: data?.selected ?? null,
    barPoint: (i) => {
      if (!data || !geometry) return null
      const { bars: b, window: w } = data
      const { plot, rows } = geometry
      if (b.end[i]! < w.from || b.start[i]! > w.to) return null
      const x0 = Math.max(xOf(b.start[i]!, w, plot), plot.left)
      const x1 = Math.min(Math.max(xOf(b.end[i]!, w, plot), x0 + 1), plot.left + plot.width)
      return { x: (x0 + x1) / 2, y: rows.top + (b.lane[i]! + 0.5) * rows.height }
    },
  }
}
