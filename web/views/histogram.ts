/** Request-size histogram: since the last clear, or the current (or last) run alone. */
import { Chart, noDataPlugin } from '../charts.js'
import { countLabels } from '../axis.js'
import { $ } from '../dom.js'
import { int, SIZE_COLOURS, SIZE_LABELS } from '../model.js'
import type { HistogramMode } from '../state.js'
import type { View } from './view.js'

export function histogramView(): View {
  let chart: Chart<'bar', number[], string>
  return {
    mount(ctx) {
      chart = new Chart($<HTMLCanvasElement>('size-histogram'), {
        type: 'bar',
        data: {
          labels: SIZE_LABELS,
          datasets: [{ label: 'MRd requests', data: SIZE_LABELS.map(() => 0), backgroundColor: [...SIZE_COLOURS], borderWidth: 0 }],
        },
        options: {
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          plugins: {
            legend: { display: false },
            tooltip: { callbacks: { label: (item) => `${int(Number(item.raw))} requests of ${item.label}` } },
          },
          scales: {
            x: { grid: { display: false }, title: { display: true, text: 'requested bytes per memory-read request (MRd)' } },
            y: {
              beginAtZero: true,
              title: { display: true, text: 'requests (count)' },
              ticks: { precision: 0, callback: (_v, i, ticks) => countLabels(ticks.map((t) => t.value))[i] ?? '' },
            },
          },
        },
        plugins: [
          noDataPlugin<'bar'>((c) => ((c.data.datasets[0]?.data as number[]).some((n) => n > 0) ? null : 'no requests counted yet')),
        ],
      })
      const mode = $<HTMLSelectElement>('hist-mode')
      mode.value = ctx.state.histogramMode
      mode.addEventListener('change', () => {
        ctx.state.setHistogramMode(mode.value as HistogramMode)
        ctx.changed()
      })
    },
    render({ state }) {
      if (state.paused) return
      const shown = state.shownHistogram()
      const ds = chart.data.datasets[0]
      if (ds) ds.data = shown.counts
      chart.update('none')
      const total = shown.counts.reduce((a, b) => a + b, 0)
      $('hist-caption').textContent = shown.caption
      $('hist-total').textContent = int(total)
      $('hist-avg').textContent = total > 0 && shown.bytes !== undefined ? `${(shown.bytes / total).toFixed(1)} B` : '–'
      const last = state.last
      if (last) $('snap-index').textContent = `snapshot #${last.index}${last.enabled ? '' : ' (counters stopped)'}`
    },
  }
}
