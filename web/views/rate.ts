/**
 * Request rate and completed payload over probe time, with the link's ceiling for the same
 * completion mix dashed beside it and each workload run shaded and named on the time axis.
 */
import { type Chart, followX, timeChart } from '../charts.js'
import { $ } from '../dom.js'
import type { Point } from '../model.js'
import { si } from '../model.js'
import { countLabels } from '../axis.js'
import type { View } from './view.js'
import { timeNavOf } from './time-nav.js'
import { timedUpdate } from '../update-timing.js'

const gbps = (v: number): string => `${(v / 1e9).toFixed(2)} GB/s`
const X_TITLE = (unit: string): string => `probe time (${unit}): TIMESTAMP / probe clock, simulated on the twin`

export function rateView(): View {
  let chart: Chart<'line', Point[]>
  return {
    mount(ctx) {
      const { state } = ctx
      chart = timeChart($<HTMLCanvasElement>('rate-chart'), {
        series: [
          { label: 'MRd requests / s', colour: '#4fd1c5', axis: 'y' },
          { label: 'completed payload (GB/s)', colour: '#f6ad55', axis: 'y1' },
          // what the wire allows for the same completion mix: "why is it slower than the datasheet"
          { label: 'link ceiling (GB/s)', colour: '#fc8181', axis: 'y1', dashed: true },
        ],
        xTitle: X_TITLE,
        y: { title: 'MRd requests per second', labels: countLabels, wholeSteps: true },
        // whole bytes: an idle link's zero line reads 0 and 1 B/s, not 0.1 B/s steps
        y1: { title: 'completed payload, bytes per second', labels: (vs) => countLabels(vs, 'B/s'), wholeSteps: true },
        empty: 'no data yet: rates appear once two snapshots have counted',
        label: (i, y) => (i === 0 ? `MRd: ${si(y)} requests/s` : `${i === 1 ? 'completed payload' : 'link ceiling'}: ${gbps(y)}`),
        marks: () => state.marks,
        nav: timeNavOf(ctx),
        newestX: () => state.mrdRate.last()?.x,
      })
    },
    render(ctx) {
      const { state } = ctx
      if (state.paused) {
        // frozen data, yet zoom and pan still move over it
        if (state.xRange) {
          followX(chart, undefined, undefined, X_TITLE, state.xRange)
          timedUpdate(chart, 'rate')
        }
        return
      }
      const [mrd, payload, ceiling] = chart.data.datasets
      if (!mrd || !payload || !ceiling) return
      mrd.data = state.mrdRate.view()
      payload.data = state.payloadRate.view()
      ceiling.data = state.ceilingRate.view()
      followX(chart, state.mrdRate.view()[0]?.x, state.mrdRate.last()?.x, X_TITLE, state.xRange)
      timedUpdate(chart, 'rate')

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
