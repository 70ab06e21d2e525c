/**
 * Request rate and completed payload over probe time, with the link's ceiling for the same
 * completion mix dashed beside it and each workload run shaded and named on the time axis.
 */
import { Chart, runBandsPlugin } from '../charts.js'
import { $ } from '../dom.js'
import type { Point } from '../model.js'
import { si } from '../model.js'
import type { View } from './view.js'

const gbps = (v: number): string => `${(v / 1e9).toFixed(2)} GB/s`

export function rateView(): View {
  let chart: Chart<'line', Point[]>
  return {
    mount({ state }) {
      chart = new Chart<'line', Point[]>($<HTMLCanvasElement>('rate-chart'), {
        type: 'line',
        data: {
          datasets: [
            { label: 'MRd requests / s', data: [], borderColor: '#4fd1c5', backgroundColor: '#4fd1c5', yAxisID: 'y' },
            { label: 'completed payload (GB/s)', data: [], borderColor: '#f6ad55', backgroundColor: '#f6ad55', yAxisID: 'y1' },
            // what the wire allows for the same completion mix: "why is it slower than the datasheet"
            {
              label: 'link ceiling (GB/s)',
              data: [],
              borderColor: '#fc8181',
              backgroundColor: '#fc8181',
              borderDash: [6, 4],
              yAxisID: 'y1',
            },
          ],
        },
        plugins: [
          runBandsPlugin<'line'>(
            () => state.marks,
            () => state.mrdRate.last()?.x,
          ),
        ],
        options: {
          animation: false,
          parsing: false,
          normalized: true,
          responsive: true,
          maintainAspectRatio: false,
          elements: { point: { radius: 0, hitRadius: 6 }, line: { tension: 0, borderWidth: 1.5 } },
          // a NaN point is a gap (cleared, stopped, quiet stream): never draw across it
          spanGaps: false,
          interaction: { mode: 'index', intersect: false },
          plugins: {
            legend: { position: 'top', labels: { boxWidth: 12 } },
            tooltip: {
              callbacks: {
                title: (items) => (items[0] ? `t = ${si(items[0].parsed.x ?? NaN, 's')}` : ''),
                label: (item) => {
                  const y = item.parsed.y ?? NaN
                  return item.datasetIndex === 0 ? `MRd: ${si(y)} requests/s` : `${item.dataset.label?.replace(' (GB/s)', '')}: ${gbps(y)}`
                },
              },
            },
          },
          scales: {
            x: {
              type: 'linear',
              title: { display: true, text: 'probe time (s): TIMESTAMP / probe clock, simulated on the twin' },
              ticks: { maxRotation: 0, callback: (v) => si(Number(v), 's') },
            },
            y: {
              type: 'linear',
              beginAtZero: true,
              position: 'left',
              title: { display: true, text: 'MRd requests per second' },
              ticks: { callback: (v) => si(Number(v)) },
            },
            y1: {
              type: 'linear',
              beginAtZero: true,
              position: 'right',
              grid: { drawOnChartArea: false },
              title: { display: true, text: 'completed payload, GB/s' },
              ticks: { callback: (v) => (Number(v) / 1e9).toFixed(1) },
            },
          },
        },
      })
    },
    render(ctx) {
      const { state } = ctx
      if (state.paused) return
      const [mrd, payload, ceiling] = chart.data.datasets
      if (!mrd || !payload || !ceiling) return
      mrd.data = state.mrdRate.view()
      payload.data = state.payloadRate.view()
      ceiling.data = state.ceilingRate.view()
      const first = state.mrdRate.view()[0]
      const newest = state.mrdRate.last()
      const x = chart.options.scales?.x
      if (x && first && newest) {
        x.min = first.x
        x.max = newest.x > first.x ? newest.x : first.x + 1e-3
      }
      chart.update('none')

      // the figures in the card's head are current only while live
      const live = state.live(ctx.now()).key === 'live'
      const lp = state.mrdRate.last()
      const lb = state.payloadRate.last()
      const lc = state.ceilingRate.last()
      const link = state.pcieLink?.name
      $('rate-mrd').textContent = live && lp && Number.isFinite(lp.y) ? si(lp.y) : '–'
      $('rate-bytes').textContent = live && lb && Number.isFinite(lb.y) ? gbps(lb.y) : '–'
      $('rate-ceiling').textContent = live && lc && Number.isFinite(lc.y) ? `${gbps(lc.y)} on ${link ?? '?'}` : (link ?? '–')
      $('rate-note').textContent =
        state.aboveCeilingCount > 0
          ? `${state.aboveCeilingCount} interval(s) read above the link ceiling: the wire cannot carry that, so the probe clock or the link the server reports is wrong.`
          : ''
    },
  }
}
