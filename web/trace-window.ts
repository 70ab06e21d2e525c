/**
 * The trace timeline's time axis (DOM-free): which stretch of the trace is shown (seconds since its
 * first record), where a time lies on the canvas and back, the wheel's zoom around the pointer
 * and the drag's pan, kept within the trace, and the axis ticks in ns or µs (web/axis.ts).
 */
import { fixedLabels, niceTicks, timeUnit } from './axis.js'
import { panBy, zoomAround, type XRange } from './time-range.js'

/** The plot's horizontal extent on the canvas, CSS px. */
export interface PlotX {
  left: number
  width: number
}

/** the margin around a whole trace, as a share of its span */
const MARGIN = 0.01
/** a trace of one clock still gets a window this wide, s */
const MIN_FULL_SPAN_S = 1e-7

export const xOf = (t: number, r: XRange, p: PlotX): number => p.left + ((t - r.from) / (r.to - r.from)) * p.width
export const tOf = (x: number, r: XRange, p: PlotX): number => r.from + ((x - p.left) / p.width) * (r.to - r.from)

/** The whole trace with a small margin either side. */
export function fullWindow(span: number): XRange {
  const s = Math.max(span, MIN_FULL_SPAN_S)
  const pad = s * MARGIN
  return { from: (span - s) / 2 - pad, to: (span + s) / 2 + pad }
}

/** `r` moved (and narrowed if need be) to lie within `full`. */
export function clampWindow(r: XRange, full: XRange): XRange {
  const width = Math.min(r.to - r.from, full.to - full.from)
  const from = Math.min(Math.max(r.from, full.from), full.to - width)
  return { from, to: from + width }
}

/** `r` if it overlaps [from, to], else a window of its width centred on that stretch (within `full`). */
export function windowShowing(r: XRange, from: number, to: number, full: XRange): XRange {
  if (to >= r.from && from <= r.to) return r
  const half = (r.to - r.from) / 2
  const mid = (from + to) / 2
  return clampWindow({ from: mid - half, to: mid + half }, full)
}

/** The wheel: zoom by `factor` (< 1 narrows) keeping the time under pixel `x` where it is. */
export const zoomWindow = (r: XRange, x: number, factor: number, p: PlotX, full: XRange): XRange =>
  clampWindow(zoomAround(r, tOf(x, r, p), factor), full)

/** A drag of `dx` px: the trace follows the pointer. */
export const panWindow = (r: XRange, dx: number, p: PlotX, full: XRange): XRange =>
  clampWindow(panBy(r, (-dx / p.width) * (r.to - r.from)), full)

export interface TimeTick {
  x: number
  label: string
}

/** Ticks about every `spacingPx`, labelled in the one unit (ns, µs, ms or s) the window's largest time needs. */
export function timeTicks(r: XRange, p: PlotX, spacingPx = 90): { unit: string; ticks: TimeTick[] } {
  const values = niceTicks(r.from, r.to, Math.max(3, Math.floor(p.width / spacingPx)))
  const unit = timeUnit(Math.max(Math.abs(r.from), Math.abs(r.to)), 'ns')
  const labels = fixedLabels(values, unit.scale)
  return { unit: unit.unit, ticks: values.map((v, i) => ({ x: xOf(v, r, p), label: labels[i]! })) }
}
