/**
 * chart.js set-up: only the parts the page uses are registered (a smaller bundle than
 * chart.js/auto), the dark theme's defaults, a plugin that draws workload runs as labelled
 * bands on a time axis, and the time charts' own navigation (no zoom plugin: a few listeners):
 * the wheel zooms around the pointer, a drag selects a stretch of time, a shift-drag pans, a
 * click on a run's band zooms to it, a double click follows the newest point again.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartType,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  type Plugin,
  PointElement,
  Tooltip,
} from 'chart.js'
import { si } from './model.js'
import type { RunMark } from './state.js'
import { fixedLabels, timeUnit } from './axis.js'
import { placeRunLabels, type PlacedLabel } from './run-labels.js'
import { normalRange, panBy, type XRange, zoomAround } from './time-range.js'

const siSeconds = (v: number): string => si(v, 's')

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Legend, Tooltip)
Chart.defaults.color = '#8593a6'
Chart.defaults.borderColor = '#263140'
Chart.defaults.font.family = 'system-ui, sans-serif'

export { Chart }

const BAND_FILL = { demo: 'rgba(120, 140, 170, 0.10)', manual: 'rgba(246, 173, 85, 0.16)' }

/** the run labels each chart drew last (the browser tests read them: every run in view is named) */
export const drawnRunLabels = new WeakMap<Chart, PlacedLabel[]>()

const LABEL_ROW_PX = 13

/**
 * Shades each run between its start and end on the x axis and names it at the top (every run in
 * view, web/run-labels.ts), so a rate curve can be read against the workload that made it. A run
 * still going ends at the newest point.
 */
export function runBandsPlugin<T extends ChartType>(marks: () => readonly RunMark[], newestX: () => number | undefined): Plugin<T> {
  return {
    id: 'runBands',
    beforeDatasetsDraw(chart) {
      const x = chart.scales.x
      const area = chart.chartArea
      if (!x || !area) return
      const ctx = chart.ctx
      ctx.save()
      ctx.font = '11px system-ui, sans-serif'
      ctx.textBaseline = 'top'
      const bands = []
      for (const m of marks()) {
        const to = m.to ?? newestX()
        if (to === undefined || to < (x.min ?? -Infinity) || m.from > (x.max ?? Infinity)) continue
        const left = Math.max(area.left, x.getPixelForValue(m.from))
        const right = Math.min(area.right, x.getPixelForValue(to))
        if (right < left) continue
        ctx.fillStyle = BAND_FILL[m.origin]
        ctx.fillRect(left, area.top, Math.max(1, right - left), area.bottom - area.top)
        ctx.strokeStyle = 'rgba(160, 174, 192, 0.35)'
        ctx.beginPath()
        ctx.moveTo(left + 0.5, area.top)
        ctx.lineTo(left + 0.5, area.bottom)
        ctx.stroke()
        bands.push({ id: m.id, label: m.label, left, right })
      }
      const placed = placeRunLabels(bands, (t) => ctx.measureText(t).width, area.right)
      ctx.fillStyle = '#a0aec0'
      for (const p of placed) ctx.fillText(p.text, p.x, area.top + 2 + p.row * LABEL_ROW_PX)
      drawnRunLabels.set(chart as unknown as Chart, placed)
      ctx.restore()
    },
  }
}

/** What the time charts' navigation changes: the shared window, the selection, a run to zoom to. */
export interface TimeNav {
  /** the window while zoomed, null while following the newest point */
  range(): XRange | null
  selection(): XRange | null
  zoom(r: XRange): void
  select(r: XRange | null): void
  /** the run whose band holds probe time `x`, if any */
  runAt(x: number): number | undefined
  zoomToRun(id: number): void
  reset(): void
}

const SELECT_FILL = 'rgba(79, 209, 197, 0.14)'
const SELECT_EDGE = 'rgba(79, 209, 197, 0.8)'
/** a press that moves less than this is a click */
const CLICK_PX = 4
const WHEEL_STEP = 1.25

/** Mouse and wheel on a time chart's canvas, and the selection drawn over its plot. */
function navigation(nav: TimeNav): { plugin: Plugin<'line'>; attach(chart: Chart): void } {
  let drag: { startPx: number; nowPx: number; pan: boolean; startRange: XRange } | null = null
  const valueAt = (chart: Chart, px: number) => chart.scales.x?.getValueForPixel(px) ?? NaN
  const shownRange = (chart: Chart): XRange => ({ from: chart.scales.x?.min ?? 0, to: chart.scales.x?.max ?? 1 })
  const plugin: Plugin<'line'> = {
    id: 'timeNav',
    afterDatasetsDraw(chart) {
      const x = chart.scales.x
      const area = chart.chartArea
      if (!x || !area) return
      const pending = drag && !drag.pan && Math.abs(drag.nowPx - drag.startPx) >= CLICK_PX ? drag : null
      const sel = pending
        ? normalRange(valueAt(chart as unknown as Chart, pending.startPx), valueAt(chart as unknown as Chart, pending.nowPx))
        : nav.selection()
      if (!sel) return
      const left = Math.max(area.left, x.getPixelForValue(sel.from))
      const right = Math.min(area.right, x.getPixelForValue(sel.to))
      if (right < left) return
      const ctx = chart.ctx
      ctx.save()
      ctx.fillStyle = SELECT_FILL
      ctx.fillRect(left, area.top, Math.max(1, right - left), area.bottom - area.top)
      ctx.strokeStyle = SELECT_EDGE
      ctx.strokeRect(left + 0.5, area.top + 0.5, Math.max(1, right - left - 1), area.bottom - area.top - 1)
      ctx.restore()
    },
  }
  const attach = (chart: Chart) => {
    const canvas = chart.canvas
    const px = (ev: MouseEvent) => ev.offsetX
    const inPlot = (ev: MouseEvent) => {
      const a = chart.chartArea
      return !!a && ev.offsetX >= a.left && ev.offsetX <= a.right && ev.offsetY >= a.top && ev.offsetY <= a.bottom
    }
    canvas.addEventListener('wheel', (ev) => {
      if (!inPlot(ev) || !chart.scales.x) return
      ev.preventDefault()
      nav.zoom(zoomAround(nav.range() ?? shownRange(chart), valueAt(chart, px(ev)), ev.deltaY > 0 ? WHEEL_STEP : 1 / WHEEL_STEP))
    })
    canvas.addEventListener('pointerdown', (ev) => {
      if (ev.button !== 0 || !inPlot(ev)) return
      canvas.setPointerCapture(ev.pointerId)
      drag = { startPx: px(ev), nowPx: px(ev), pan: ev.shiftKey, startRange: nav.range() ?? shownRange(chart) }
    })
    canvas.addEventListener('pointermove', (ev) => {
      if (!drag) return
      drag.nowPx = px(ev)
      if (drag.pan) {
        const dx = valueAt(chart, drag.startPx) - valueAt(chart, drag.nowPx)
        nav.zoom(panBy(drag.startRange, dx))
      } else chart.draw()
    })
    const end = (ev: PointerEvent) => {
      const d = drag
      drag = null
      if (!d) return
      d.nowPx = px(ev)
      if (d.pan) return
      if (Math.abs(d.nowPx - d.startPx) < CLICK_PX) {
        // a click: on a run's band, zoom to that run
        const id = nav.runAt(valueAt(chart, d.nowPx))
        if (id !== undefined) nav.zoomToRun(id)
        return
      }
      nav.select(normalRange(valueAt(chart, d.startPx), valueAt(chart, d.nowPx)))
    }
    canvas.addEventListener('pointerup', end)
    canvas.addEventListener('pointercancel', () => {
      drag = null
    })
    canvas.addEventListener('dblclick', () => nav.reset())
  }
  return { plugin, attach }
}

/**
 * An axis's labels are made all at once (web/axis.ts), while chart.js asks for them tick by tick
 * with the same array of ticks: made once per array, not once per tick (the update stays cheap).
 */
function onceper(make: (values: number[]) => string[]): (ticks: readonly { value: number }[]) => string[] {
  let of: readonly { value: number }[] | undefined
  let labels: string[] = []
  return (ticks) => {
    if (ticks !== of || labels.length !== ticks.length) {
      of = ticks
      labels = make(ticks.map((t) => t.value))
    }
    return labels
  }
}

/** One line of a time-series chart: which axis, and dashed for a limit drawn beside a reading. */
export interface SeriesSpec {
  label: string
  colour: string
  axis: 'y' | 'y1'
  dashed?: boolean
}

/** A y axis: its title, its ticks' labels (all at once: web/axis.ts), whole-number steps for counts. */
export interface YAxisSpec {
  title: string
  labels: (values: number[]) => string[]
  wholeSteps?: boolean
}

export interface TimeChartSpec {
  series: SeriesSpec[]
  /** the x axis title for the unit its ticks are in (s, ms or µs: one per axis) */
  xTitle: (unit: string) => string
  y: YAxisSpec
  y1: YAxisSpec
  /** what the empty chart says */
  empty: string
  /** tooltip text of a point of series i */
  label: (series: number, y: number) => string
  marks: () => readonly RunMark[]
  newestX: () => number | undefined
  /** zoom, pan, select and zoom-to-run (the time charts share one TimeNav) */
  nav?: TimeNav
}

/**
 * A line chart over probe time with two y axes, run bands and hover values. Series take
 * {x, y} points (no parsing); a NaN point is a gap (cleared, stopped, quiet stream) and is
 * never drawn across.
 */
export function timeChart(canvas: HTMLCanvasElement, spec: TimeChartSpec): Chart<'line', { x: number; y: number }[]> {
  const yTicks = (axis: YAxisSpec) => {
    const labels = onceper((values) => axis.labels(values))
    return {
      ...(axis.wholeSteps ? { precision: 0 } : {}),
      callback: (_v: number | string, i: number, ticks: { value: number }[]) => labels(ticks)[i] ?? '',
    }
  }
  const xLabels = onceper((values) => fixedLabels(values, timeUnit(Math.max(...values.map(Math.abs))).scale))
  const filled = (d: { data: unknown[] }) => (d.data as { y: number }[]).some((p) => Number.isFinite(p.y))
  const hasData = (chart: Chart, axis?: string) =>
    chart.data.datasets.some((d) => (axis === undefined || (d as { yAxisID?: string }).yAxisID === axis) && filled(d))
  const nav = spec.nav ? navigation(spec.nav) : undefined
  const chart = new Chart<'line', { x: number; y: number }[]>(canvas, {
    type: 'line',
    data: {
      datasets: spec.series.map((s) => ({
        label: s.label,
        data: [],
        borderColor: s.colour,
        backgroundColor: s.colour,
        yAxisID: s.axis,
        ...(s.dashed ? { borderDash: [6, 4] } : {}),
      })),
    },
    plugins: [
      runBandsPlugin<'line'>(spec.marks, spec.newestX),
      {
        // an axis none of whose lines has a point shows no ticks (chart.js would invent a 0..1
        // range: "1000000.0 µs"); an empty chart says why instead
        id: 'emptyAxes',
        beforeUpdate(chart) {
          for (const [id, scale] of Object.entries(chart.options.scales ?? {}))
            if (scale?.ticks) scale.ticks.display = hasData(chart, id === 'x' ? undefined : id)
        },
      },
      noDataPlugin<'line'>((chart) => (hasData(chart) ? null : spec.empty)),
      ...(nav ? [nav.plugin] : []),
    ],
    options: {
      animation: false,
      parsing: false,
      normalized: true,
      responsive: true,
      maintainAspectRatio: false,
      elements: { point: { radius: 0, hitRadius: 6 }, line: { tension: 0, borderWidth: 1.5 } },
      spanGaps: false,
      interaction: { mode: 'index', intersect: false },
      plugins: {
        legend: { position: 'top', labels: { boxWidth: 12 } },
        tooltip: {
          callbacks: {
            title: (items) => (items[0] ? `t = ${siSeconds(items[0].parsed.x ?? NaN)}` : ''),
            label: (item) => spec.label(item.datasetIndex, item.parsed.y ?? NaN),
          },
        },
      },
      scales: {
        x: {
          type: 'linear',
          title: { display: true, text: spec.xTitle('s') },
          // only the round ticks: the bounds (the oldest and newest point) would be odd values
          ticks: {
            maxRotation: 0,
            includeBounds: false,
            callback: (_v, i, ticks) => xLabels(ticks)[i] ?? '',
          },
        },
        y: {
          type: 'linear',
          beginAtZero: true,
          position: 'left',
          title: { display: true, text: spec.y.title },
          ticks: yTicks(spec.y),
        },
        y1: {
          type: 'linear',
          beginAtZero: true,
          position: 'right',
          grid: { drawOnChartArea: false },
          title: { display: true, text: spec.y1.title },
          ticks: yTicks(spec.y1),
        },
      },
    },
  })
  nav?.attach(chart as unknown as Chart)
  return chart
}

/**
 * The x axis spans the oldest to the newest point shown, its title naming the one time unit its
 * ticks are in (web/axis.ts picks it from the newest time, as the tick labels do).
 */
export function followX(
  chart: Chart<'line', { x: number; y: number }[]>,
  first: number | undefined,
  newest: number | undefined,
  xTitle: (unit: string) => string,
  zoomed: XRange | null = null,
): void {
  const x = chart.options.scales?.x
  if (!x) return
  if (zoomed) {
    // zoomed or panned: the window the user chose, whatever arrives
    x.min = zoomed.from
    x.max = zoomed.to
  } else {
    if (first === undefined || newest === undefined) return
    x.min = first
    x.max = newest > first ? newest : first + 1e-3
  }
  if (x.title) x.title.text = xTitle(timeUnit(Math.max(Math.abs(x.min), Math.abs(x.max))).unit)
}

/**
 * An empty chart says so in words in the middle of its plot, instead of showing bare axes whose
 * ticks mean nothing; `message` returns null once there is something to draw.
 */
export function noDataPlugin<T extends ChartType>(message: (chart: Chart) => string | null): Plugin<T> {
  return {
    id: 'noData',
    afterDraw(chart) {
      const text = message(chart as Chart)
      const area = chart.chartArea
      if (!text || !area) return
      const ctx = chart.ctx
      ctx.save()
      ctx.font = '13px system-ui, sans-serif'
      ctx.fillStyle = '#8593a6'
      ctx.textAlign = 'center'
      ctx.textBaseline = 'middle'
      ctx.fillText(text, (area.left + area.right) / 2, (area.top + area.bottom) / 2)
      ctx.restore()
    },
  }
}
