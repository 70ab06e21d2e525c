/**
 * The GPU's own PCIe counters (`serve --gpu-counters`): a card, added before the link card only
 * while the server samples them, with the source as its badge, the newest interval's read GB/s,
 * request rate and mean request size (../gpu-counters.ts decides what it says), and two charts
 * over the counters' time: request rate with read and payload GB/s, and mean request size with
 * the reads in flight; GPU runs are shaded and named on both, as twin runs are on the probe's.
 */
import { type Chart, followX, timeChart } from '../charts.js'
import { $, el, row } from '../dom.js'
import { gpuCountersCard } from '../gpu-counters.js'
import { countLabels } from '../axis.js'
import { si, type Point } from '../model.js'
import type { View } from './view.js'

const X_TITLE = (unit: string): string => `GPU time (${unit}): the counter source's clock`
const gbps = (v: number): string => `${(v / 1e9).toFixed(2)} GB/s`

function chartBox(testid: string): { box: HTMLElement; canvas: HTMLCanvasElement } {
  const box = el('div', undefined, 'chart-box')
  const canvas = el('canvas')
  canvas.id = testid
  canvas.dataset.testid = testid
  box.append(canvas)
  return { box, canvas }
}

export function gpuCountersView(): View {
  let card: HTMLElement
  let badge: HTMLElement
  let detail: HTMLElement
  let body: HTMLTableSectionElement
  let rates: Chart<'line', Point[]>
  let sizes: Chart<'line', Point[]>
  return {
    mount({ state }) {
      card = el('section', undefined, 'card')
      card.id = 'gpu-counters-card'
      card.dataset.testid = 'gpu-counters-card'
      card.hidden = true
      const head = el('div', undefined, 'card-head')
      badge = el('span', '', 'badge')
      badge.dataset.testid = 'gpu-counters-source'
      head.append(el('h2', "GPU's own PCIe counters"), el('span', undefined, 'spacer'), badge)
      detail = el('p', '', 'muted')
      const table = el('table')
      body = el('tbody')
      table.append(body)
      const ratesBox = chartBox('gpu-rate-chart')
      const sizesBox = chartBox('gpu-size-chart')
      card.append(head, detail, table, ratesBox.box, sizesBox.box)
      const link = $('link-card')
      link.parentElement?.insertBefore(card, link)
      const gpu = state.gpu
      const common = { xTitle: X_TITLE, marks: () => gpu.marks, newestX: () => gpu.newestX() }
      rates = timeChart(ratesBox.canvas, {
        ...common,
        series: [
          { label: 'read requests / s', colour: '#4fd1c5', axis: 'y' },
          { label: 'read payload (GB/s)', colour: '#f6ad55', axis: 'y1' },
          // what came in with the completions' headers: the gap to the payload is their overhead
          { label: 'bytes in (GB/s)', colour: '#a0aec0', axis: 'y1', dashed: true },
        ],
        y: { title: 'read requests per second', labels: countLabels, wholeSteps: true },
        y1: { title: 'bytes per second', labels: (vs) => countLabels(vs, 'B/s'), wholeSteps: true },
        empty: 'no intervals yet: they come every 100 ms of GPU time',
        label: (i, y) => (i === 0 ? `read requests: ${si(y)}/s` : `${i === 1 ? 'read payload' : 'bytes in'}: ${gbps(y)}`),
      })
      sizes = timeChart(sizesBox.canvas, {
        ...common,
        series: [
          { label: 'mean request (B)', colour: '#b794f4', axis: 'y' },
          { label: 'reads in flight (Little, idle round trip)', colour: '#63b3ed', axis: 'y1' },
        ],
        y: { title: 'mean request size, bytes', labels: (vs) => countLabels(vs, 'B') },
        y1: { title: 'reads in flight', labels: countLabels },
        empty: 'no intervals yet',
        label: (i, y) => (i === 0 ? `mean request: ${y.toFixed(1)} B` : `reads in flight: ${y.toFixed(0)}`),
      })
    },
    render({ state }) {
      if (state.paused) return
      const c = gpuCountersCard(state.status?.gpuCounters, state.gpuCounters)
      card.hidden = !c.visible
      if (!c.visible) return
      badge.textContent = c.badge
      badge.className = `badge badge-${c.badgeKind}`
      detail.textContent = c.detail
      body.replaceChildren(
        ...c.rows.map((r) => {
          const tr = row([el('td', r.label, 'name'), el('td', r.value, 'num')])
          tr.dataset.testid = r.testid
          return tr
        }),
      )
      const gpu = state.gpu
      const first = gpu.requests.view()[0]?.x
      const newest = gpu.newestX()
      const [req, payload, read] = rates.data.datasets
      const [mean, inFlight] = sizes.data.datasets
      if (!req || !payload || !read || !mean || !inFlight) return
      req.data = gpu.requests.view()
      payload.data = gpu.payload.view()
      read.data = gpu.read.view()
      mean.data = gpu.meanRequest.view()
      inFlight.data = gpu.inFlight.view()
      for (const chart of [rates, sizes]) {
        followX(chart, first, newest, X_TITLE)
        chart.update('none')
      }
    },
  }
}
