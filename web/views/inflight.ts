/**
 * Requests in flight: the average number of reads outstanding per interval against the tag
 * budget, the mean completion latency beside it, and Little's law read off the probe's own
 * counters (read rate × mean latency = reads in flight), saying which limit the traffic hits.
 *
 * While the server forwards the sampler's INTERVAL records (a server started with `--sample-us N`,
 * `npm start -- --sample-us 10`), the lines are theirs: outstanding average and peak per sampler period (microseconds), Little's law and the
 * limit per interval (web/intervals.ts); without them, the 10-per-second snapshots'.
 */
import { type Chart, followX, timeChart } from '../charts.js'
import { $ } from '../dom.js'
import { inflightSummary } from '../../host/src/core/inflight.js'
import { limitOf, type Point } from '../model.js'
import { countLabels, fixedLabels } from '../axis.js'
import type { View } from './view.js'
import { timeNavOf } from './time-nav.js'
import { timedUpdate } from '../update-timing.js'

const LIMIT_TEXT = {
  wire: 'wire-bound: the payload sits at the link ceiling; more reads in flight only queue (latency rises)',
  tags: 'tag-bound: nearly every tag is in flight, so no more reads can be issued; larger requests or more tags would raise the rate',
  latency: 'latency-bound: too few reads in flight to cover the round trip; issue more reads at once',
} as const

/** what the interval line says while no INTERVAL record came: how a user of npm start turns the sampler on */
const SAMPLER_OFF = 'off: for per-interval lines (every 10 µs), restart the server with `npm start -- --sample-us 10`'

const X_TITLE = (unit: string): string => `probe time (${unit})`

const SERIES_TEXT: Record<number, string> = { 0: 'reads in flight', 1: 'tag budget', 3: 'peak in flight', 4: 'rate × latency' }

const us = (s: number | null | undefined): string =>
  s === null || s === undefined || !Number.isFinite(s) ? '–' : `${(s * 1e6).toFixed(2)} µs`

export function inflightView(): View {
  let chart: Chart<'line', Point[]>
  const budgetLine: Point[] = []
  return {
    mount(ctx) {
      const { state } = ctx
      chart = timeChart($<HTMLCanvasElement>('inflight-chart'), {
        series: [
          { label: 'reads in flight (average)', colour: '#b794f4', axis: 'y' },
          { label: 'tag budget', colour: '#fc8181', axis: 'y', dashed: true },
          { label: 'mean latency (µs)', colour: '#63b3ed', axis: 'y1' },
          { label: 'reads in flight (peak per interval)', colour: '#f6ad55', axis: 'y' },
          { label: 'rate × latency (per interval)', colour: '#68d391', axis: 'y', dashed: true },
        ],
        xTitle: X_TITLE,
        y: { title: 'reads outstanding', labels: countLabels },
        y1: { title: 'mean completion latency, µs', labels: (vs) => fixedLabels(vs, 1e6) },
        empty: 'no data yet: reads in flight appear once two snapshots have counted',
        label: (i, y) => (i === 2 ? `mean latency: ${us(y)}` : `${SERIES_TEXT[i] ?? ''}: ${y.toFixed(1)} reads`),
        marks: () => state.marks,
        nav: timeNavOf(ctx),
        newestX: () => (state.intervalAvg.last() ?? state.outstandingAvg.last())?.x,
      })
    },
    render(ctx) {
      const { state } = ctx
      if (state.paused) {
        // frozen data, yet zoom and pan still move over it
        if (state.xRange) {
          followX(chart, undefined, undefined, X_TITLE, state.xRange)
          timedUpdate(chart, 'inflight')
        }
        return
      }
      const [avg, budget, latency, peak, littleLine] = chart.data.datasets
      if (!avg || !budget || !latency || !peak || !littleLine) return
      // the sampler's records when they come, else the snapshots'
      const sampled = state.intervalAvg.length > 0
      const avgSeries = sampled ? state.intervalAvg : state.outstandingAvg
      avg.data = avgSeries.view()
      peak.data = sampled ? state.intervalPeak.view() : []
      littleLine.data = sampled ? state.intervalLittle.view() : []
      latency.data = state.latencyMean.view()
      const first = avgSeries.view()[0]
      const newest = avgSeries.last()
      budgetLine.length = 0
      if (state.tagBudget !== null && first && newest)
        budgetLine.push({ x: first.x, y: state.tagBudget }, { x: newest.x, y: state.tagBudget })
      budget.data = budgetLine
      followX(chart, first?.x, newest?.x, X_TITLE, state.xRange)
      timedUpdate(chart, 'inflight')

      const c = state.last?.counters
      const clockHz = state.info?.clockHz ?? 0
      const live = state.live(ctx.now()).key === 'live'
      const budgetText = state.tagBudget !== null ? ` of ${state.tagBudget} tags` : ''
      $('inflight-avg').textContent = live && newest && Number.isFinite(newest.y) ? `${newest.y.toFixed(1)}${budgetText}` : '–'
      $('inflight-peak').textContent = c ? String(c.outstandingPeak) : '–'
      // since the clear, from the probe's counters alone: the summary `capture` reports
      const summary = c && clockHz > 0 ? inflightSummary(c, clockHz, state.tagBudget) : undefined
      const last = summary?.latencyNs.last
      const s = (ns: number | null | undefined) => us(ns === null || ns === undefined ? ns : ns * 1e-9)
      $('inflight-latency').textContent = last && last.count > 0 ? `${s(last.min)} / ${s(last.mean)} / ${s(last.max)}` : '–'
      const little = summary?.littlesLaw
      $('inflight-little').textContent = little
        ? `rate × latency = ${little.rateTimesLatency.toFixed(1)} reads, measured ${little.measuredOutstanding.toFixed(1)}`
        : '–'
      const iv = state.lastInterval
      $('inflight-interval').textContent = iv
        ? `average ${iv.avgOutstanding.toFixed(1)}, peak ${iv.peakOutstanding}${budgetText}; ` +
          (iv.littleOutstanding !== undefined ? `rate × latency = ${iv.littleOutstanding.toFixed(1)} reads` : 'no completion in it')
        : SAMPLER_OFF
      const limit = !live
        ? undefined
        : sampled
          ? state.intervalLimitNow
          : limitOf({
              payloadPerSec: state.payloadRate.last()?.y,
              ceilingPerSec: state.ceilingRate.last()?.y,
              avgOutstanding: newest?.y,
              tagBudget: state.tagBudget,
            })
      const verdict = $('inflight-limit')
      verdict.textContent = limit ? LIMIT_TEXT[limit] : ''
      verdict.dataset.limit = limit ?? ''
    },
  }
}
