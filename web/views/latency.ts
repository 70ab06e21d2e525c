/**
 * Completion latency: the probe's last-completion histogram (HISTOGRAM frames, via the server's
 * WebSocket) as bars over the bins, with p50 and p99 drawn where the host's percentile rule
 * (core/latency-histogram.ts) puts them.
 */
import { Chart } from '../charts.js'
import { $ } from '../dom.js'
import { int } from '../model.js'
import type { AppState } from '../state.js'
import type { Plugin } from 'chart.js'
import { histogramTotal } from '../../host/src/core/latency-histogram.js'
import { HISTOGRAM_WORDS } from '../../host/src/core/generated.js'
import type { View } from './view.js'

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
      const p = state.latencyPercentiles()
      const h = state.latencyHistogram
      const x = chart.scales['x']
      if (!p || !h || !x || !state.info) return
      const spanNs = (HISTOGRAM_WORDS * h.binClocks * 1e9) / state.info.clockHz
      const { ctx, chartArea } = chart
      ctx.save()
      for (const m of MARKS) {
        const px = x.left + (p[m.key] / spanNs) * (x.right - x.left)
        ctx.strokeStyle = m.colour
        ctx.lineWidth = 2
        ctx.beginPath()
        ctx.moveTo(px, chartArea.top)
        ctx.lineTo(px, chartArea.bottom)
        ctx.stroke()
        ctx.fillStyle = m.colour
        ctx.fillText(m.key, px + 3, chartArea.top + 10)
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
        data: { labels: [], datasets: [{ label: 'reads', data: [], backgroundColor: '#63b3ed', borderWidth: 0 }] },
        options: {
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          plugins: {
            legend: { display: false },
            tooltip: { callbacks: { label: (item) => `${int(Number(item.raw))} reads from ${item.label}` } },
          },
          scales: {
            x: { grid: { display: false }, title: { display: true, text: 'last-completion latency (bin start, µs)' } },
            y: { beginAtZero: true, title: { display: true, text: 'reads (count)' } },
          },
        },
        plugins: [percentileLines(state)],
      })
    },
    render({ state }) {
      if (state.paused) return
      const h = state.latencyHistogram
      const clockHz = state.info?.clockHz ?? 0
      const ds = chart.data.datasets[0]
      if (!h || !ds || clockHz <= 0) return
      const binNs = (h.binClocks * 1e9) / clockHz
      const key = `${binNs}/${h.bins.length}`
      if (key !== labelsFor) {
        chart.data.labels = h.bins.map((_, k) => (k === h.bins.length - 1 ? `≥ ${us(k * binNs)}` : us(k * binNs)))
        labelsFor = key
      }
      ds.data = [...h.bins]
      chart.update('none')
      const p = state.latencyPercentiles()
      const atLeast = p?.overflow ? '≥ ' : ''
      $('latency-p50').textContent = p ? us(p.p50) : '–'
      $('latency-p99').textContent = p ? `${atLeast}${us(p.p99)}` : '–'
      $('latency-caption').textContent =
        `${int(histogramTotal(h.bins))} reads completed since the clear (snapshot #${h.snapshotIndex}, ${h.reason}); ` +
        `bins of ${binNs.toFixed(0)} ns; a percentile is placed linearly inside its bin`
    },
  }
}
