/**
 * The trace timeline drawn on one <canvas> (no DOM node per bar): lane labels, the bars of the
 * reads in the window as rectangles per size class (web/trace-plan.ts), unexpected completions as
 * ticks, the selected read outlined, the trigger marked, and the time axis in ns or µs.
 */
import type { XRange } from './time-range.js'
import type { TraceBars } from './trace-bars.js'
import { planBars, type LaneRows } from './trace-plan.js'
import { timeTicks, xOf, type PlotX } from './trace-window.js'

const LABEL_PX = 70
const RIGHT_PX = 12
const TOP_PX = 16
const AXIS_PX = 34
/** lanes share at most this much height, and none is taller than LANE_MAX_PX */
const LANES_PX = 512
const LANE_MAX_PX = 14
const COLOURS = {
  text: '#8593a6',
  grid: '#263140',
  stripe: 'rgba(255, 255, 255, 0.025)',
  trigger: '#f6ad55',
  unexpected: '#fc6d6d',
  selected: 'rgba(255, 255, 255, 0.12)',
}

export interface TimelineGeometry {
  plot: PlotX
  rows: LaneRows
  width: number
  height: number
}

/** Where everything goes on a canvas `width` CSS px wide, for `lanes` lanes. */
export function timelineGeometry(width: number, lanes: number): TimelineGeometry {
  const height = Math.min(LANE_MAX_PX, LANES_PX / Math.max(1, lanes))
  const rows = { top: TOP_PX, height, count: lanes }
  return {
    plot: { left: LABEL_PX, width: Math.max(10, width - LABEL_PX - RIGHT_PX) },
    rows,
    width,
    height: TOP_PX + lanes * height + AXIS_PX,
  }
}

/**
 * The parts of a canvas's 2D context the timeline uses: a CanvasRenderingContext2D is one, and a
 * unit test passes a fake that counts the calls.
 */
export interface Canvas2D {
  font: string
  /** a context's may also hold gradients and patterns; the timeline sets colours only */
  fillStyle: unknown
  strokeStyle: unknown
  lineWidth: number
  textAlign: string
  textBaseline: string
  clearRect(x: number, y: number, w: number, h: number): void
  fillRect(x: number, y: number, w: number, h: number): void
  strokeRect(x: number, y: number, w: number, h: number): void
  fillText(text: string, x: number, y: number): void
  beginPath(): void
  rect(x: number, y: number, w: number, h: number): void
  moveTo(x: number, y: number): void
  lineTo(x: number, y: number): void
  fill(): void
  stroke(): void
  clip(): void
  save(): void
  restore(): void
  setLineDash(segments: number[]): void
}

export interface TimelineScene {
  bars: TraceBars
  /** the reads shown (the table's filter), ascending */
  ids: Uint32Array
  window: XRange
  selected: number | null
  colours: readonly string[]
}

export interface DrawnTimeline {
  reads: number
  rects: number
}

/** Draw the scene on `ctx` (already scaled to CSS px). */
export function drawTimeline(ctx: Canvas2D, g: TimelineGeometry, s: TimelineScene): DrawnTimeline {
  const { plot, rows } = g
  const { bars, window: r } = s
  ctx.clearRect(0, 0, g.width, g.height)
  ctx.font = '11px system-ui, sans-serif'
  const laneY = (lane: number) => rows.top + lane * rows.height
  const bottom = laneY(rows.count)

  // every other lane shaded where lanes are tall enough to tell apart; labels spaced to stay legible
  if (rows.height >= 3) {
    ctx.fillStyle = COLOURS.stripe
    for (let l = 1; l < rows.count; l += 2) ctx.fillRect(plot.left, laneY(l), plot.width, rows.height)
  }
  ctx.fillStyle = COLOURS.text
  ctx.textBaseline = 'middle'
  ctx.textAlign = 'right'
  const every = Math.max(1, Math.ceil(13 / rows.height))
  for (let l = 0; l < rows.count; l += every) ctx.fillText(bars.lanes[l]!.label, plot.left - 6, laneY(l) + rows.height / 2)

  // time grid and axis
  const { unit, ticks } = timeTicks(r, plot)
  ctx.strokeStyle = COLOURS.grid
  ctx.beginPath()
  for (const t of ticks) {
    ctx.moveTo(Math.round(t.x) + 0.5, rows.top)
    ctx.lineTo(Math.round(t.x) + 0.5, bottom + 4)
  }
  ctx.moveTo(plot.left, bottom + 0.5)
  ctx.lineTo(plot.left + plot.width, bottom + 0.5)
  ctx.stroke()
  ctx.textAlign = 'center'
  ctx.textBaseline = 'top'
  for (const t of ticks) ctx.fillText(t.label, t.x, bottom + 6)
  ctx.textAlign = 'right'
  ctx.fillText(`time since the trace's first record (${unit})`, plot.left + plot.width, bottom + 20)

  // the bars: one path per size class, a few px of lane kept clear where lanes are tall
  ctx.save()
  ctx.beginPath()
  ctx.rect(plot.left, rows.top, plot.width, bottom - rows.top)
  ctx.clip()
  const plan = planBars(bars, s.ids, r, plot, s.colours.length)
  const pad = rows.height >= 6 ? 1 : 0
  plan.bySize.forEach((rects, size) => {
    if (rects.length === 0) return
    ctx.fillStyle = s.colours[size]!
    ctx.beginPath()
    for (let j = 0; j < rects.length; j += 3) ctx.rect(rects[j]!, laneY(rects[j + 1]!) + pad, rects[j + 2]!, rows.height - 2 * pad)
    ctx.fill()
  })
  ctx.fillStyle = COLOURS.unexpected
  for (const u of bars.unexpected) {
    if (u.t < r.from || u.t > r.to) continue
    ctx.fillRect(xOf(u.t, r, plot) - 1, laneY(u.lane) - 1, 2, rows.height + 2)
  }
  if (s.selected !== null) {
    const i = s.selected
    const x0 = xOf(bars.start[i]!, r, plot)
    const x1 = Math.max(xOf(bars.end[i]!, r, plot), x0 + 1)
    // a band across every lane over its time, so that a read on a lane 2 px tall is still found
    ctx.fillStyle = COLOURS.selected
    ctx.fillRect(x0, rows.top, x1 - x0, bottom - rows.top)
    ctx.strokeStyle = '#ffffff'
    ctx.lineWidth = 1.5
    ctx.strokeRect(x0 - 1, laneY(bars.lane[i]!) - 1.5, x1 - x0 + 2, rows.height + 3)
  }
  ctx.restore()

  if (bars.trigger !== null && bars.trigger >= r.from && bars.trigger <= r.to) {
    const x = Math.round(xOf(bars.trigger, r, plot)) + 0.5
    ctx.strokeStyle = COLOURS.trigger
    ctx.setLineDash([4, 3])
    ctx.beginPath()
    ctx.moveTo(x, rows.top - 4)
    ctx.lineTo(x, bottom)
    ctx.stroke()
    ctx.setLineDash([])
    ctx.fillStyle = COLOURS.trigger
    ctx.textAlign = 'left'
    ctx.textBaseline = 'bottom'
    ctx.fillText('trigger', x + 3, rows.top - 2)
  }
  return { reads: plan.reads, rects: plan.rects }
}
