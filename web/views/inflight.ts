/**
 * Requests in flight: the average number of reads outstanding per interval against the tag
 * budget, the mean completion latency beside it, and Little's law read off the probe's own
 * counters (read rate × mean latency = reads in flight), saying which limit the traffic hits.
 */
import { type Chart, followX, timeChart } from '../charts.js'
import { $ } from '../dom.js'
import { inflightSummary } from '../../host/src/core/inflight.js'
import { limitOf, type Point } from '../model.js'
import type { View } from './view.js'

const LIMIT_TEXT = {
  wire: 'wire-bound: the payload sits at the link ceiling; more reads in flight only queue (latency rises)',
  tags: 'tag-bound: nearly every tag is in flight at the bare latency; larger requests or more tags would raise the rate',
  latency: 'latency-bound: too few reads in flight to cover the round trip; issue more reads at once',
} as const

const us = (s: number | null | undefined): string =>
  s === null || s === undefined || !Number.isFinite(s) ? '–' : `${(s * 1e6).toFixed(2)} µs`

export function inflightView(): View {
  let chart: Chart<'line', Point[]>
  const budgetLine: Point[] = []
  return {
    mount({ state }) {
      chart = timeChart($<HTMLCanvasElement>('inflight-chart'), {
        series: [
          { label: 'reads in flight (average)', colour: '#b794f4', axis: 'y' },
          { label: 'tag budget', colour: '#fc8181', axis: 'y', dashed: true },
          { label: 'mean latency (µs)', colour: '#63b3ed', axis: 'y1' },
        ],
        xTitle: 'probe time (s)',
        y: { title: 'reads outstanding', tick: (v) => String(v) },
        y1: { title: 'mean completion latency, µs', tick: (v) => (v * 1e6).toFixed(1) },
        label: (i, y) => (i === 2 ? `mean latency: ${us(y)}` : `${i === 0 ? 'reads in flight' : 'tag budget'}: ${y.toFixed(1)} reads`),
        marks: () => state.marks,
        newestX: () => state.outstandingAvg.last()?.x,
      })
    },
    render(ctx) {
      const { state } = ctx
      if (state.paused) return
      const [avg, budget, latency] = chart.data.datasets
      if (!avg || !budget || !latency) return
      avg.data = state.outstandingAvg.view()
      latency.data = state.latencyMean.view()
      const first = state.outstandingAvg.view()[0]
      const newest = state.outstandingAvg.last()
      budgetLine.length = 0
      if (state.tagBudget !== null && first && newest)
        budgetLine.push({ x: first.x, y: state.tagBudget }, { x: newest.x, y: state.tagBudget })
      budget.data = budgetLine
      followX(chart, first?.x, newest?.x)
      chart.update('none')

      const c = state.last?.counters
      const clockHz = state.info?.clockHz ?? 0
      const live = state.live(ctx.now()).key === 'live'
      const budgetText = state.tagBudget !== null ? ` of ${state.tagBudget} tags` : ''
      $('inflight-avg').textContent = live && newest && Number.isFinite(newest.y) ? `${newest.y.toFixed(1)}${budgetText}` : '–'
      $('inflight-peak').textContent = c ? String(c.outstandingPeak) : '–'
      // since the clear, from the probe's counters alone: the summary a capture reports
      const summary = c && clockHz > 0 ? inflightSummary(c, clockHz, state.tagBudget) : undefined
      const last = summary?.latencyNs.last
      const s = (ns: number | null | undefined) => us(ns === null || ns === undefined ? ns : ns * 1e-9)
      $('inflight-latency').textContent = last && last.count > 0 ? `${s(last.min)} / ${s(last.mean)} / ${s(last.max)}` : '–'
      const little = summary?.littlesLaw
      $('inflight-little').textContent = little
        ? `rate × latency = ${little.rateTimesLatency.toFixed(1)} reads, measured ${little.measuredOutstanding.toFixed(1)}`
        : '–'
      const limit = live
        ? limitOf({
            payloadPerSec: state.payloadRate.last()?.y,
            ceilingPerSec: state.ceilingRate.last()?.y,
            avgOutstanding: newest?.y,
            tagBudget: state.tagBudget,
            meanLatency: state.latencyMean.last()?.y,
            minLatency: last?.min === null || last?.min === undefined ? undefined : last.min * 1e-9,
          })
        : undefined
      const verdict = $('inflight-limit')
      verdict.textContent = limit ? LIMIT_TEXT[limit] : ''
      verdict.dataset.limit = limit ?? ''
    },
  }
}
