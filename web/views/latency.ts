/**
 * Completion latency: the probe's first- and last-completion histograms (HISTOGRAM frames, via
 * the server's WebSocket) as two bar series over the same bins, with each one's p50 and p99 drawn
 * where the host's percentile rule (core/latency-histogram.ts) puts them: solid for the last
 * completion, dashed for the first.
 */
import { Chart } from '../charts.js'
import { $ } from '../dom.js'
import { int } from '../model.js'
import type { AppState } from '../state.js'
import type { Plugin } from 'chart.js'
import { histogramTotal } from '../../host/src/core/latency-histogram.js'
import { HISTOGRAM_WORDS, type HistogramKindKey } from '../../host/src/core/generated.js'
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

const us = (ns: number): string => `${(ns / 1000).toFixed(2)} µs`

/** Vertical lines at p50 and p99: bins are equal-width categories, so ns maps linearly onto x. */
function percentileLines(state: AppState): Plugin<'bar'> {
  return {
    id: 'percentileLines',
    afterDatasetsDraw(chart) {
      const x = chart.scales['x']
      if (!x || !state.info) return
      const { ctx, chartArea } = chart
      ctx.save()
      for (const k of KINDS) {
        const p = state.latencyPercentiles(k.kind)
        const h = state.latencyHistograms[k.kind]
        if (!p || !h) continue
        const spanNs = (HISTOGRAM_WORDS * h.binClocks * 1e9) / state.info.clockHz
        ctx.setLineDash(k.dash)
        for (const m of MARKS) {
          const px = x.left + (p[m.key] / spanNs) * (x.right - x.left)
          ctx.strokeStyle = m.colour
          ctx.lineWidth = 2
          ctx.beginPath()
          ctx.moveTo(px, chartArea.top)
          ctx.lineTo(px, chartArea.bottom)
          ctx.stroke()
          ctx.fillStyle = m.colour
          ctx.fillText(`${m.key} ${k.kind}`, px + 3, chartArea.top + (k.kind === 'first' ? 22 : 10))
        }
      }
      ctx.restore()
    },
  }
}

export function latencyView(): View {
  let chart: Chart<'bar', number[], string>
  let labelsFor = ''
  return {
    mount({ state }) {
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
          plugins: {
            legend: { display: true },
            tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${int(Number(item.raw))} reads from ${item.label}` } },
          },
          scales: {
            x: { grid: { display: false }, title: { display: true, text: 'latency (bin start, µs)' } },
            y: { beginAtZero: true, title: { display: true, text: 'reads (count)' } },
          },
        },
        plugins: [percentileLines(state)],
      })
    },
    render({ state }) {
      if (state.paused) return
      const clockHz = state.info?.clockHz ?? 0
      const shown = KINDS.map((k) => state.latencyHistograms[k.kind])
      const any = shown.find((h) => h !== null)
      if (!any || clockHz <= 0) return
      // both kinds share the bin width (HIST_BIN_CLOCKS), so one set of labels fits both
      const binNs = (any.binClocks * 1e9) / clockHz
      const key = `${binNs}/${any.bins.length}`
      if (key !== labelsFor) {
        chart.data.labels = any.bins.map((_, k) => (k === any.bins.length - 1 ? `≥ ${us(k * binNs)}` : us(k * binNs)))
        labelsFor = key
      }
      KINDS.forEach((k, i) => {
        const ds = chart.data.datasets[i]
        if (ds) ds.data = [...(shown[i]?.bins ?? [])]
        const p = state.latencyPercentiles(k.kind)
        $(k.ids.p50).textContent = p ? us(p.p50) : '–'
        $(k.ids.p99).textContent = p ? `${p.overflow ? '≥ ' : ''}${us(p.p99)}` : '–'
      })
      chart.update('none')
      const last = state.latencyHistograms.last ?? any
      $('latency-caption').textContent =
        `${int(histogramTotal(last.bins))} reads completed since the clear (snapshot #${last.snapshotIndex}, ${last.reason}); ` +
        `${int(histogramTotal(state.latencyHistograms.first?.bins ?? []))} had a first completion; ` +
        `bins of ${binNs.toFixed(0)} ns; a percentile is placed linearly inside its bin`
    },
  }
}
