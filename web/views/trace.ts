/**
 * The TLP trace view: arm tap 0's trace around one run on the twin (POST /api/trace, the trigger
 * text sent as typed: the server parses it with the CLI's grammar) or open a saved one
 * (`pcie-scope trace --out` or `--json`), then see its reads as bars on a canvas (a lane per tag
 * or requester, coloured by size class, the trigger marked; wheel zooms, drag pans, a click
 * picks), a filtered table of them that renders only the rows in view, and the picked read's
 * records with their header fields decoded. This module wires the parts together.
 */
import { isPsError } from '../../host/src/core/errors.js'
import { SIZE_CLASSES } from '../../host/src/core/size-classes.js'
import type { TraceReport } from '../../host/src/core/trace-report.js'
import { PATTERN_SPECS, WORKLOAD_LIMITS } from '../../host/src/core/workload.js'
import { $, el } from '../dom.js'
import { int, SIZE_COLOURS } from '../model.js'
import type { XRange } from '../time-range.js'
import { buildBars, type LaneMode, type TraceBars } from '../trace-bars.js'
import { drawTimeline, timelineGeometry, type TimelineGeometry } from '../trace-canvas.js'
import { renderReadDetail } from '../trace-detail.js'
import { parseTraceFile } from '../trace-file.js'
import { filterReads, NO_FILTER, parseFilter, positionOf, READ_ENDS, type TraceFilter } from '../trace-filter.js'
import { hitRead } from '../trace-plan.js'
import { ReadTable } from '../trace-table.js'
import { traceRequestBody, traceSummary } from '../trace-text.js'
import { fullWindow, panWindow, windowShowing, zoomWindow, type PlotX } from '../trace-window.js'
import { timed } from '../update-timing.js'
import type { View } from './view.js'

const WHEEL_STEP = 1.25
const NO_READS = new Uint32Array()
/** a press that moves less than this is a click */
const CLICK_PX = 4

export interface Loaded {
  report: TraceReport
  bars: TraceBars
  full: XRange
  window: XRange
  /** the reads passing the filter, ascending */
  ids: Uint32Array
  selected: number | null
}

/** What the view holds and drew last (the browser tests' hook reads it, web/trace-hook.ts). */
export interface TraceViewState {
  data: Loaded | null
  geometry: TimelineGeometry | null
  drawn: { reads: number; rects: number }
  tableRows: number
}

let inspect: () => TraceViewState = () => ({ data: null, geometry: null, drawn: { reads: 0, rects: 0 }, tableRows: 0 })
export const traceViewState = (): TraceViewState => inspect()

type StatusState = 'busy' | 'loaded' | 'error'

/** the line under the form: progress, the trace shown, or an error (its stable code first) */
function status(text: string, state: StatusState): void {
  const p = $('trace-status')
  p.textContent = text
  p.className = `small${state === 'error' ? ' bad' : state === 'busy' ? ' muted' : ''}`
  p.dataset.state = state
}

/** The form's choices from the spec: the micro patterns, the bytes' limits, the size classes and their colours. */
function fillChoices(): void {
  const pattern = $<HTMLSelectElement>('trace-pattern')
  for (const p of PATTERN_SPECS) pattern.append(Object.assign(new Option(p.name, p.name), { title: p.doc }))
  pattern.value = 'merged-aligned'
  const l = WORKLOAD_LIMITS.bytes
  Object.assign($<HTMLInputElement>('trace-bytes'), {
    min: String(l.min),
    max: String(l.max),
    step: String(l.multipleOf),
    title: `${l.doc}: a multiple of ${l.multipleOf}`,
  })
  for (const c of SIZE_CLASSES) $('trace-f-size').append(new Option(c.label, c.key))
  for (const e of READ_ENDS) $('trace-f-end').append(new Option(e, e))
  $('trace-legend').replaceChildren(
    ...SIZE_CLASSES.map((c, i) => {
      const swatch = el('span', undefined, 'swatch')
      swatch.style.background = SIZE_COLOURS[i]!
      const item = el('span', undefined, 'legend-item')
      item.append(swatch, c.label)
      return item
    }),
    el('span', 'trigger', 'legend-item legend-trigger'),
    el('span', 'unexpected completion', 'legend-item legend-unexpected'),
  )
}

export function traceView(): View {
  let data: Loaded | null = null
  let laneMode: LaneMode = 'tag'
  let filter: TraceFilter = NO_FILTER
  let busySince: number | null = null
  let geometry: TimelineGeometry | null = null
  let drawn = { reads: 0, rects: 0 }
  let framePending = false
  let canvas: HTMLCanvasElement
  let table: ReadTable

  /** canvas and table on the next frame, apart from the page's render: a pan redraws only this */
  const schedule = () => {
    if (framePending) return
    framePending = true
    requestAnimationFrame(() => {
      framePending = false
      drawCanvas()
      table.render(data?.report ?? null, data?.ids ?? NO_READS, data?.selected ?? null)
    })
  }
  const plotX = (): PlotX => geometry?.plot ?? { left: 0, width: 1 }

  function drawCanvas(): void {
    canvas.hidden = data === null
    if (!data) return
    const d = data
    const g = timelineGeometry(canvas.parentElement!.clientWidth, d.bars.lanes.length)
    geometry = g
    const dpr = window.devicePixelRatio || 1
    if (canvas.width !== Math.round(g.width * dpr) || canvas.height !== Math.round(g.height * dpr)) {
      canvas.width = Math.round(g.width * dpr)
      canvas.height = Math.round(g.height * dpr)
      canvas.style.height = `${g.height}px`
    }
    const ctx = canvas.getContext('2d')!
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0)
    timed('trace-timeline', () => {
      drawn = drawTimeline(ctx, g, { bars: d.bars, ids: d.ids, window: d.window, selected: d.selected, colours: SIZE_COLOURS })
      return drawn.reads
    })
  }

  const shownCount = (d: Loaded) => ($('trace-shown').textContent = `${int(d.ids.length)} of ${int(d.report.reads.length)} reads`)

  function load(report: TraceReport, origin: string): void {
    const bars = buildBars(report, laneMode)
    const full = fullWindow(bars.span)
    data = { report, bars, full, window: full, ids: filterReads(report, filter), selected: null }
    status(`${origin} · ${traceSummary(report)}`, 'loaded')
    shownCount(data)
    $<HTMLButtonElement>('trace-zoom-reset').disabled = false
    table.toTop()
    renderReadDetail($('trace-detail'), report, null)
    schedule()
  }

  /** Pick read `i`: from the table its bar comes into the window; from the canvas its row into view. */
  function select(i: number | null, from: 'canvas' | 'table'): void {
    if (!data) return
    data.selected = i
    if (i !== null && from === 'table') data.window = windowShowing(data.window, data.bars.start[i]!, data.bars.end[i]!, data.full)
    const at = i === null ? null : positionOf(data.ids, i)
    if (at !== null && from === 'canvas') table.reveal(at)
    renderReadDetail($('trace-detail'), data.report, i)
    schedule()
  }

  function applyFilter(): void {
    const v = (id: string) => $<HTMLInputElement | HTMLSelectElement>(id).value
    const parsed = parseFilter({
      tag: v('trace-f-tag'),
      addrFrom: v('trace-f-from'),
      addrTo: v('trace-f-to'),
      size: v('trace-f-size'),
      end: v('trace-f-end'),
      minLatencyNs: v('trace-f-latency'),
    })
    $('trace-filter-error').textContent = 'error' in parsed ? parsed.error : ''
    if ('error' in parsed) return
    filter = parsed.filter
    if (!data) return
    data.ids = filterReads(data.report, filter)
    shownCount(data)
    table.toTop()
    schedule()
  }

  function wireCanvas(): void {
    canvas.addEventListener(
      'wheel',
      (ev) => {
        if (!data) return
        ev.preventDefault()
        data.window = zoomWindow(data.window, ev.offsetX, ev.deltaY > 0 ? WHEEL_STEP : 1 / WHEEL_STEP, plotX(), data.full)
        schedule()
      },
      { passive: false },
    )
    // a press that moves pans (the trace follows the pointer, also outside the canvas); one that does not is a click
    let press: { x: number; last: number; moved: boolean } | null = null
    const xIn = (ev: MouseEvent) => ev.clientX - canvas.getBoundingClientRect().left
    canvas.addEventListener('mousedown', (ev) => {
      if (!data || ev.button !== 0) return
      press = { x: xIn(ev), last: xIn(ev), moved: false }
      ev.preventDefault()
    })
    window.addEventListener('mousemove', (ev) => {
      if (!press || !data) return
      const x = xIn(ev)
      if (!press.moved && Math.abs(x - press.x) < CLICK_PX) return
      press.moved = true
      data.window = panWindow(data.window, x - press.last, plotX(), data.full)
      press.last = x
      schedule()
    })
    window.addEventListener('mouseup', (ev) => {
      const p = press
      press = null
      if (!p || p.moved || !data || !geometry) return
      const r = canvas.getBoundingClientRect()
      select(hitRead(data.bars, data.ids, data.window, geometry.plot, geometry.rows, ev.clientX - r.left, ev.clientY - r.top), 'canvas')
    })
    const whole = () => {
      if (!data) return
      data.window = data.full
      schedule()
    }
    canvas.addEventListener('dblclick', whole)
    $('trace-zoom-reset').addEventListener('click', whole)
  }

  return {
    mount(ctx) {
      canvas = $<HTMLCanvasElement>('trace-timeline')
      const scroller = $('trace-scroll')
      table = new ReadTable(scroller, $('trace-sizer'), $('trace-rows'))
      fillChoices()

      $<HTMLFormElement>('trace-form').addEventListener('submit', (ev) => {
        ev.preventDefault()
        const v = (id: string) => $<HTMLInputElement | HTMLSelectElement>(id).value
        const body = traceRequestBody({
          pattern: v('trace-pattern'),
          bytes: v('trace-bytes'),
          trigger: v('trace-trigger'),
          filter: v('trace-filter-spec'),
          tap: v('trace-tap'),
          pre: v('trace-pre'),
        })
        busySince = ctx.now()
        status(
          `arming tap ${Number(body.tap ?? 0)}'s trace, running ${String(body.pattern)} (${int(Number(body.bytes))} B) on the twin and reading the trace back…`,
          'busy',
        )
        ctx.changed()
        ctx.api
          .post<TraceReport>('trace', body)
          .then(
            (report) => load(report, `armed ${new Date(ctx.now()).toLocaleTimeString()}`),
            (e: unknown) => status((e as Error).message, 'error'),
          )
          .finally(() => {
            busySince = null
            ctx.changed()
          })
      })
      $<HTMLInputElement>('trace-file').addEventListener('change', (ev) => {
        const input = ev.target as HTMLInputElement
        const file = input.files?.[0]
        if (!file) return
        status(`reading ${file.name}…`, 'busy')
        file
          .text()
          .then((text) => load(parseTraceFile(text), `file ${file.name}`))
          .catch((e: unknown) => status(isPsError(e) ? `${e.code}: ${e.message}` : String(e), 'error'))
          .finally(() => (input.value = ''))
      })
      $<HTMLSelectElement>('trace-lanes').addEventListener('change', (ev) => {
        laneMode = (ev.target as HTMLSelectElement).value as LaneMode
        if (!data) return
        data.bars = buildBars(data.report, laneMode)
        schedule()
      })
      for (const id of ['trace-f-tag', 'trace-f-from', 'trace-f-to', 'trace-f-latency']) $(id).addEventListener('input', applyFilter)
      for (const id of ['trace-f-size', 'trace-f-end']) $(id).addEventListener('change', applyFilter)
      scroller.addEventListener('scroll', schedule, { passive: true })
      $('trace-rows').addEventListener('click', (ev) => {
        const row = (ev.target as HTMLElement).closest<HTMLElement>('.trace-row')
        if (row?.dataset.read !== undefined) select(Number(row.dataset.read), 'table')
      })
      wireCanvas()
      new ResizeObserver(schedule).observe(canvas.parentElement!)
      renderReadDetail($('trace-detail'), null, null)
      inspect = () => ({ data, geometry, drawn, tableRows: table.rowCount })
    },
    render(ctx) {
      $<HTMLButtonElement>('trace-button').disabled = busySince !== null || !(ctx.state.status?.connected ?? false)
      $('trace-elapsed').textContent = busySince === null ? '' : `${((ctx.now() - busySince) / 1000).toFixed(0)} s`
    },
  }
}
