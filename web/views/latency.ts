/**
 * Completion latency: the probe's first- and last-completion histograms (HISTOGRAM frames, via
 * the server's WebSocket), since the clear or of one run alone (the histograms around it
 * subtracted: AppState.shownLatency), as two bar series over the range of bins that holds reads
 * (web/latency-bars.ts), with each one's p50 and p99 drawn where the host's percentile rule
 * (core/latency-histogram.ts, kept within the counted min and max) puts them: solid for the last
 * completion, dashed for the first. Each marker's label has a row of its own above the bars, so
 * no two labels are ever drawn over each other.
 */
import { Chart, noDataPlugin } from '../charts.js'
import { $ } from '../dom.js'
import { int, si } from '../model.js'
import type { AppState } from '../state.js'
import type { Plugin } from 'chart.js'
import { binEdgesNs, histogramTotal } from '../../host/src/core/latency-histogram.js'
import type { HistogramKindKey } from '../../host/src/core/generated.js'
import { barPosition, formatLatency, latencyBars, type LatencyBars } from '../latency-bars.js'
import type { View } from './view.js'

/** The series in drawing order: the first completion comes before the last. */
const KINDS: readonly { kind: HistogramKindKey; label: string; colour: string; dash: number[]; ids: { p50: string; p99: string } }[] = [
  {
    kind: 'first',
    label: 'first completion',
    colour: '#f6ad55',
    dash: [5, 4],
    ids: { p50: 'latency-first-p50', p99: 'latency-first-p99' },
  },
  { kind: 'last', label: 'last completion', colour: '#63b3ed', dash: [], ids: { p50: 'latency-p50', p99: 'latency-p99' } },
]

const MARKS = [
  { key: 'p50', colour: '#68d391' },
  { key: 'p99', colour: '#fc8181' },
] as const

/** one text row per marker (4), above the bars */
const ROW_PX = 13
const LABEL_ROWS = KINDS.length * MARKS.length

/** Vertical lines at p50 and p99, each labelled on its own row above the plot. */
function percentileLines(state: AppState, bars: () => LatencyBars | null): Plugin<'bar'> {
  return {
    id: 'percentileLines',
    afterDatasetsDraw(chart) {
      const b = bars()
      if (!b || b.bars.length === 0) return
      const { ctx, chartArea } = chart
      const width = (chartArea.right - chartArea.left) / b.bars.length
      ctx.save()
      ctx.font = '11px system-ui, sans-serif'
      ctx.textBaseline = 'top'
      let row = 0
      for (const k of KINDS) {
        const p = state.latencyPercentiles(k.kind)
        for (const m of MARKS) {
          const labelY = chartArea.top - (LABEL_ROWS - row) * ROW_PX
          row++
          if (!p) continue
          const px = chartArea.left + barPosition(b, p[m.key]) * width
          ctx.setLineDash(k.dash)
          ctx.strokeStyle = m.colour
          ctx.lineWidth = 2
          ctx.beginPath()
          ctx.moveTo(px, labelY + ROW_PX / 2)
          ctx.lineTo(px, chartArea.bottom)
          ctx.stroke()
          const text = `${k.kind} ${m.key} ${p.overflow && m.key === 'p99' ? '≥ ' : ''}${formatLatency(p[m.key], b.unit)}`
          const w = ctx.measureText(text).width
          // right of the line, or left of it where the text would run past the plot
          const tx = px + 4 + w <= chartArea.right ? px + 4 : px - 4 - w
          ctx.fillStyle = m.colour
          ctx.fillText(text, tx, labelY)
        }
      }
      ctx.restore()
    },
  }
}

export function latencyView(): View {
  let chart: Chart<'bar', number[], string>
  let shown: LatencyBars | null = null
  let picker: HTMLSelectElement
  let pickerKey = ''
  return {
    mount(ctx) {
      const { state } = ctx
      picker = $<HTMLSelectElement>('latency-of')
      picker.addEventListener('change', () => {
        state.setLatencyOf(picker.value === '' ? null : Number(picker.value))
        ctx.changed()
      })
      chart = new Chart($<HTMLCanvasElement>('latency-chart'), {
        type: 'bar',
        data: {
          labels: [],
          datasets: KINDS.map((k) => ({ label: k.label, data: [], backgroundColor: k.colour, borderWidth: 0 })),
        },
        options: {
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          layout: { padding: { top: LABEL_ROWS * ROW_PX + 4 } },
          plugins: {
            legend: { display: true, position: 'bottom' },
            tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${int(Number(item.raw))} reads` } },
          },
          scales: {
            x: { grid: { display: false }, title: { display: true, text: 'latency (ns, log)' }, ticks: { maxRotation: 0, autoSkip: true } },
            y: { beginAtZero: true, title: { display: true, text: 'reads (count)' }, ticks: { precision: 0 } },
          },
        },
        plugins: [percentileLines(state, () => shown), noDataPlugin<'bar'>(() => (shown ? null : 'no completed reads yet'))],
      })
    },
    render({ state }) {
      // the run picker: every run the page holds, newest first
      const runsKey = `${state.latencyOf}|${state.marks.map((m) => m.id).join(',')}`
      if (runsKey !== pickerKey) {
        pickerKey = runsKey
        picker.replaceChildren(
          new Option('since the clear', ''),
          ...[...state.marks].reverse().map((m) => new Option(`run #${m.id} ${m.label}`, String(m.id), false, m.id === state.latencyOf)),
        )
        picker.value = state.latencyOf === null ? '' : String(state.latencyOf)
      }
      if (state.paused) return
      const clockHz = state.info?.clockHz ?? 0
      const shownHists = KINDS.map((k) => state.shownLatency(k.kind))
      const any = shownHists.find((h) => h !== null)
      // both kinds share the layout (HIST_LAYOUT), so one set of bars fits both
      const edgesNs = any && clockHz > 0 ? binEdgesNs(any.layout, clockHz) : []
      shown = any ? latencyBars(shownHists[0]?.bins ?? null, shownHists[1]?.bins ?? null, edgesNs) : null
      chart.data.labels = shown?.labels ?? []
      KINDS.forEach((k, i) => {
        const ds = chart.data.datasets[i]
        if (ds) ds.data = shown ? shown.bars.map((b) => (k.kind === 'first' ? b.first : b.last)) : []
        const p = state.latencyPercentiles(k.kind)
        $(k.ids.p50).textContent = p ? formatLatency(p.p50, shown?.unit) : '–'
        $(k.ids.p99).textContent = p ? `${p.overflow ? '≥ ' : ''}${formatLatency(p.p99, shown?.unit)}` : '–'
      })
      const x = chart.options.scales?.['x']
      if (x?.title) x.title.text = `latency (${shown?.unit ?? 'ns'}, log)`
      // an empty chart shows no invented 0..1 count axis, only the words of noDataPlugin
      const y = chart.options.scales?.['y']
      if (y?.ticks) y.ticks.display = shown !== null
      chart.update('none')
      const run = state.latencyOf === null ? undefined : state.marks.find((m) => m.id === state.latencyOf)
      if (!any || !shown) {
        $('latency-caption').textContent =
          state.latencyOf === null
            ? 'no read has completed since the clear'
            : run?.to === undefined
              ? `run #${state.latencyOf} has not finished`
              : `waiting for the probe's histogram after run #${run.id} (once a second while streaming)`
        return
      }
      const reads = int(histogramTotal(shownHists[1]?.bins ?? []))
      const firstReads = int(histogramTotal(shownHists[0]?.bins ?? []))
      const s = (t: number | null | undefined) => (t === null || t === undefined ? 'the clear' : si(t, 's'))
      const last = state.latencyHistograms.last ?? state.latencyHistograms.first
      const what =
        run && shownHists[1]
          ? `run #${run.id} ${run.label}: ${reads} reads completed between the probe's histograms at ${s(shownHists[1].from)} and ${s(shownHists[1].to)} ` +
            `(the run ran ${s(run.from)} – ${s(run.to)}; a neighbouring run's reads within that stretch count too)`
          : `${reads} reads completed since the clear${last ? ` (snapshot #${last.snapshotIndex}, ${last.reason})` : ''}`
      $('latency-caption').textContent =
        `${what}; ${firstReads} had a first completion; ` +
        `the probe's bins are log-spaced, ${any.layout.subBins} to an octave${shown.merge > 1 ? `, ${shown.merge} to a bar` : ''}; only the range holding reads is drawn; ` +
        'a percentile is placed linearly inside its bin, within the smallest and largest latency counted'
    },
  }
}
