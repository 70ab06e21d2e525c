/**
 * chart.js set-up: only the parts the page uses are registered (a smaller bundle than
 * chart.js/auto), the dark theme's defaults, and a plugin that draws workload runs as labelled
 * bands on a time axis.
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

const siSeconds = (v: number): string => si(v, 's')

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Legend, Tooltip)
Chart.defaults.color = '#8593a6'
Chart.defaults.borderColor = '#263140'
Chart.defaults.font.family = 'system-ui, sans-serif'

export { Chart }

const BAND_FILL = { demo: 'rgba(120, 140, 170, 0.10)', manual: 'rgba(246, 173, 85, 0.16)' }

/**
 * Shades each run between its start and end on the x axis and writes its pattern at the top, so
 * a rate curve can be read against the workload that made it. A run still going ends at the
 * newest point.
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
      for (const m of marks()) {
        const to = m.to ?? newestX()
        if (to === undefined || to < (x.min ?? -Infinity) || m.from > (x.max ?? Infinity)) continue
        const left = Math.max(area.left, x.getPixelForValue(m.from))
        const right = Math.min(area.right, x.getPixelForValue(to))
        if (right <= left) continue
        ctx.fillStyle = BAND_FILL[m.origin]
        ctx.fillRect(left, area.top, right - left, area.bottom - area.top)
        ctx.strokeStyle = 'rgba(160, 174, 192, 0.35)'
        ctx.beginPath()
        ctx.moveTo(left + 0.5, area.top)
        ctx.lineTo(left + 0.5, area.bottom)
        ctx.stroke()
        if (right - left > 30) {
          ctx.fillStyle = '#a0aec0'
          ctx.fillText(m.label, left + 3, area.top + 2, right - left - 6)
        }
      }
      ctx.restore()
    },
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
}

/**
 * A line chart over probe time with two y axes, run bands and hover values. Series take
 * {x, y} points (no parsing); a NaN point is a gap (cleared, stopped, quiet stream) and is
 * never drawn across.
 */
export function timeChart(canvas: HTMLCanvasElement, spec: TimeChartSpec): Chart<'line', { x: number; y: number }[]> {
  const yTicks = (axis: YAxisSpec) => ({
    ...(axis.wholeSteps ? { precision: 0 } : {}),
    callback: (_v: number | string, i: number, ticks: { value: number }[]) => axis.labels(ticks.map((t) => t.value))[i] ?? '',
  })
  const filled = (d: { data: unknown[] }) => (d.data as { y: number }[]).some((p) => Number.isFinite(p.y))
  const hasData = (chart: Chart, axis?: string) =>
    chart.data.datasets.some((d) => (axis === undefined || (d as { yAxisID?: string }).yAxisID === axis) && filled(d))
  return new Chart<'line', { x: number; y: number }[]>(canvas, {
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
            callback: (_v, i, ticks) => {
              const values = ticks.map((t) => t.value)
              return fixedLabels(values, timeUnit(Math.max(...values.map(Math.abs))).scale)[i] ?? ''
            },
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
): void {
  const x = chart.options.scales?.x
  if (!x || first === undefined || newest === undefined) return
  x.min = first
  x.max = newest > first ? newest : first + 1e-3
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
