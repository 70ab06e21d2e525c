/**
 * The TLP trace view: arm tap 0's trace around one run on the twin (POST /api/trace, the trigger
 * text sent as typed: the server parses it with the CLI's grammar) or open a saved one
 * (`pcie-scope trace --out` or `--json`), then see its reads as bars on a canvas (a lane per tag
 * or requester, coloured by size class, the trigger marked; wheel zooms, drag pans, a click
 * picks), a filtered table of them that renders only the rows in view, and the picked read's
 * records with their header fields decoded.
 */
import { isPsError } from '../../host/src/core/errors.js'
import { PATTERN_SPECS, WORKLOAD_LIMITS } from '../../host/src/core/workload.js'
import { SIZE_CLASSES } from '../../host/src/core/size-classes.js'
import type { TraceReport } from '../../host/src/core/trace-report.js'
import { $, el } from '../dom.js'
import { int, SIZE_COLOURS } from '../model.js'
import type { XRange } from '../time-range.js'
import { buildBars, type LaneMode, type TraceBars } from '../trace-bars.js'
import { drawTimeline, timelineGeometry, type TimelineGeometry } from '../trace-canvas.js'
import { readDetail } from '../trace-fields.js'
import { parseTraceFile } from '../trace-file.js'
import { filterReads, NO_FILTER, parseFilter, READ_ENDS, type TraceFilter } from '../trace-filter.js'
import { hitRead } from '../trace-plan.js'
import { fullWindow, panWindow, zoomWindow } from '../trace-window.js'
import { timed } from '../update-timing.js'
import { rowWindow, scrollToRow } from '../virtual-rows.js'
import type { View } from './view.js'

/** the table's row height, CSS px (style.css .trace-row) */
const ROW_PX = 22
const WHEEL_STEP = 1.25
/** a press that moves less than this is a click */
const CLICK_PX = 4

/** What the view holds and drew last (the browser tests' hook reads it, web/trace-hook.ts). */
export interface TraceViewState {
  data: Loaded | null
  geometry: TimelineGeometry | null
  drawn: { reads: number; rects: number }
  tableRows: number
}

let inspect: () => TraceViewState = () => ({ data: null, geometry: null, drawn: { reads: 0, rects: 0 }, tableRows: 0 })
export const traceViewState = (): TraceViewState => inspect()

export interface Loaded {
  report: TraceReport
  bars: TraceBars
  full: XRange
  window: XRange
  /** the reads passing the filter, ascending */
  ids: Uint32Array
  selected: number | null
}

const fmtNs = (v: number | null) => (v === null ? '–' : v.toFixed(1))
const hex = (a: number) => '0x' + a.toString(16).padStart(12, '0')

function summary(r: TraceReport): string {
  const ended = (e: string) => r.reads.filter((x) => x.end === e).length
  const trig =
    r.triggerIndex === null
      ? `trigger ${r.trigger} never fired`
      : `trigger ${r.trigger} at record ${int(r.triggerIndex)}${r.triggerRecord ? ` (${r.triggerRecord.kind} tag ${r.triggerRecord.tag})` : ''}`
  return (
    `${r.pattern}, ${int(r.bytes)} B: ${int(r.records)} records of tap ${r.tap} (ring ${int(r.depth)}), ${r.lost} lost · ` +
    `${int(r.reads.length)} reads (${READ_ENDS.map((e) => `${int(ended(e))} ${e}`).join(', ')}), ${int(r.unexpected.length)} unexpected completions · ${trig}`
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
  let scroller: HTMLElement
  let rowsBox: HTMLElement

  /** the line under the form: progress, the loaded trace, or an error (its stable code first) */
  const status = (text: string, state: 'busy' | 'loaded' | 'error') => {
    const p = $('trace-status')
    p.textContent = text
    p.className = `small${state === 'error' ? ' bad' : state === 'busy' ? ' muted' : ''}`
    p.dataset.state = state
  }

  /** canvas and table on the next frame, apart from the page's render (a pan redraws only this) */
  const schedule = () => {
    if (framePending) return
    framePending = true
    requestAnimationFrame(() => {
      framePending = false
      drawCanvas()
      drawRows()
    })
  }

  function drawCanvas(): void {
    const box = canvas.parentElement!
    if (!data) {
      canvas.hidden = true
      return
    }
    canvas.hidden = false
    const d = data
    const g = timelineGeometry(box.clientWidth, d.bars.lanes.length)
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

  function drawRows(): void {
    const n = data?.ids.length ?? 0
    $('trace-sizer').style.height = `${n * ROW_PX}px`
    if (!data) {
      rowsBox.replaceChildren()
      return
    }
    const { report, ids, selected } = data
    const w = rowWindow(scroller.scrollTop, scroller.clientHeight || 300, ROW_PX, n)
    rowsBox.style.transform = `translateY(${w.first * ROW_PX}px)`
    const out: HTMLElement[] = []
    for (let k = w.first; k < w.end; k++) {
      const i = ids[k]!
      const r = report.reads[i]!
      const rowEl = el('div', undefined, `trace-row${i === selected ? ' selected' : ''}${r.end === 'done' ? '' : ` end-${r.end}`}`)
      rowEl.dataset.read = String(i)
      rowEl.dataset.testid = `trace-row-${i}`
      for (const c of [
        String(r.record),
        String(r.tag),
        hex(r.address),
        String(r.requestedBytes),
        String(r.bytes),
        String(r.completions),
        r.end,
        fmtNs(r.firstLatencyNs),
        fmtNs(r.lastLatencyNs),
      ])
        rowEl.append(el('span', c))
      out.push(rowEl)
    }
    rowsBox.replaceChildren(...out)
  }

  function showDetail(): void {
    const box = $('trace-detail')
    if (!data || data.selected === null) {
      box.replaceChildren(
        el('p', data ? 'click a bar or a row: its request and completions, every header field decoded' : '', 'muted small'),
      )
      return
    }
    const d = readDetail(data.report, data.selected)
    const t = el('table')
    t.dataset.testid = 'trace-detail-table'
    const head = el('tr')
    head.append(el('td'), ...d.columns.map((c) => el('td', c, 'muted')))
    t.append(head)
    for (const row of d.rows) {
      const tr = el('tr')
      tr.dataset.field = row.label
      tr.append(el('td', row.label, 'name'), ...row.values.map((v) => el('td', v, 'num')))
      t.append(tr)
    }
    const r = data.report.reads[data.selected]!
    const title = el(
      'h3',
      `read of record ${r.record}: tag ${r.tag}, ${r.requestedBytes} B at ${hex(r.address)}, ${r.end}, first ${fmtNs(r.firstLatencyNs)} ns, last ${fmtNs(r.lastLatencyNs)} ns`,
    )
    const scroll = el('div', undefined, 'trace-detail-scroll')
    scroll.append(t)
    box.replaceChildren(title, scroll)
  }

  function load(report: TraceReport, origin: string): void {
    const bars = buildBars(report, laneMode)
    const full = fullWindow(bars.span)
    data = { report, bars, full, window: full, ids: filterReads(report, filter), selected: null }
    status(`${origin} · ${summary(report)}`, 'loaded')
    $('trace-shown').textContent = `${int(data.ids.length)} of ${int(report.reads.length)} reads`
    $<HTMLButtonElement>('trace-zoom-reset').disabled = false
    scroller.scrollTop = 0
    showDetail()
    schedule()
  }

  function select(i: number | null, from: 'canvas' | 'table'): void {
    if (!data) return
    data.selected = i
    if (i !== null && from === 'table') {
      // bring the bar into the window, keeping the zoom
      const b = data.bars
      const w = data.window
      if (b.end[i]! < w.from || b.start[i]! > w.to) {
        const mid = (b.start[i]! + b.end[i]!) / 2
        const half = (w.to - w.from) / 2
        data.window = panWindow({ from: mid - half, to: mid + half }, 0, geometry?.plot ?? { left: 0, width: 1 }, data.full)
      }
    }
    if (i !== null && from === 'canvas') {
      let lo = 0
      let hi = data.ids.length
      while (lo < hi) {
        const m = (lo + hi) >> 1
        if (data.ids[m]! < i) lo = m + 1
        else hi = m
      }
      if (data.ids[lo] === i) scroller.scrollTop = scrollToRow(lo, scroller.scrollTop, scroller.clientHeight, ROW_PX)
    }
    showDetail()
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
    const note = $('trace-filter-error')
    if ('error' in parsed) {
      note.textContent = parsed.error
      return
    }
    note.textContent = ''
    filter = parsed.filter
    if (!data) return
    data.ids = filterReads(data.report, filter)
    $('trace-shown').textContent = `${int(data.ids.length)} of ${int(data.report.reads.length)} reads`
    scroller.scrollTop = 0
    schedule()
  }

  function wireCanvas(): void {
    const plotX = () => geometry?.plot ?? { left: 0, width: 1 }
    canvas.addEventListener(
      'wheel',
      (ev) => {
        if (!data) return
        ev.preventDefault()
        const factor = ev.deltaY > 0 ? WHEEL_STEP : 1 / WHEEL_STEP
        data.window = zoomWindow(data.window, ev.offsetX, factor, plotX(), data.full)
        schedule()
      },
      { passive: false },
    )
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
    canvas.addEventListener('dblclick', () => {
      if (!data) return
      data.window = data.full
      schedule()
    })
  }

  return {
    mount(ctx) {
      canvas = $<HTMLCanvasElement>('trace-timeline')
      scroller = $('trace-scroll')
      rowsBox = $('trace-rows')
      const pattern = $<HTMLSelectElement>('trace-pattern')
      for (const p of PATTERN_SPECS) pattern.append(Object.assign(new Option(p.name, p.name), { title: p.doc }))
      pattern.value = 'merged-aligned'
      const bytes = $<HTMLInputElement>('trace-bytes')
      const l = WORKLOAD_LIMITS.bytes
      Object.assign(bytes, {
        min: String(l.min),
        max: String(l.max),
        step: String(l.multipleOf),
        title: `${l.doc}: a multiple of ${l.multipleOf}`,
      })
      const size = $<HTMLSelectElement>('trace-f-size')
      for (const c of SIZE_CLASSES) size.append(new Option(c.label, c.key))
      const end = $<HTMLSelectElement>('trace-f-end')
      for (const e of READ_ENDS) end.append(new Option(e, e))
      $('trace-legend').replaceChildren(
        ...SIZE_CLASSES.map((c, i) => {
          const sw = el('span', undefined, 'swatch')
          sw.style.background = SIZE_COLOURS[i]!
          const item = el('span', undefined, 'legend-item')
          item.append(sw, c.label)
          return item
        }),
        el('span', 'trigger', 'legend-item legend-trigger'),
        el('span', 'unexpected completion', 'legend-item legend-unexpected'),
      )

      $<HTMLFormElement>('trace-form').addEventListener('submit', (ev) => {
        ev.preventDefault()
        const trigger = $<HTMLInputElement>('trace-trigger').value
        const pre = $<HTMLInputElement>('trace-pre').value.trim()
        const body = {
          pattern: pattern.value,
          bytes: Number(bytes.value),
          ...(trigger.trim() === '' ? {} : { trigger }),
          ...(pre === '' ? {} : { pre: Number(pre) }),
        }
        busySince = ctx.now()
        status(`arming tap 0's trace, running ${body.pattern} (${int(body.bytes)} B) on the twin and reading the trace back…`, 'busy')
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
      $('trace-zoom-reset').addEventListener('click', () => {
        if (!data) return
        data.window = data.full
        schedule()
      })
      for (const id of ['trace-f-tag', 'trace-f-from', 'trace-f-to', 'trace-f-latency']) $(id).addEventListener('input', applyFilter)
      for (const id of ['trace-f-size', 'trace-f-end']) $(id).addEventListener('change', applyFilter)
      scroller.addEventListener('scroll', schedule, { passive: true })
      rowsBox.addEventListener('click', (ev) => {
        const row = (ev.target as HTMLElement).closest<HTMLElement>('.trace-row')
        if (row?.dataset.read !== undefined) select(Number(row.dataset.read), 'table')
      })
      wireCanvas()
      new ResizeObserver(schedule).observe(canvas.parentElement!)
      showDetail()

      inspect = () => ({ data, geometry, drawn, tableRows: rowsBox.childElementCount })
    },
    render(ctx) {
      const connected = ctx.state.status?.connected ?? false
      $<HTMLButtonElement>('trace-button').disabled = busySince !== null || !connected
      if (busySince !== null) $('trace-elapsed').textContent = `${((ctx.now() - busySince) / 1000).toFixed(0)} s`
      else $('trace-elapsed').textContent = ''
    },
  }
}
