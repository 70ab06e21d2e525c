/**
 * Switch mode: the host side of the switch next to the GPU side (web/host-side.ts pairs them):
 * completion latency (mean, p50, p99), reads in flight, and the difference, which for the
 * latency is the time the reads spent in the switch: its traversal both ways plus any queueing
 * (reads wait in the switch while the host has no room for more), not the traversal alone. The
 * card shows whenever the twin runs the switch (its default design; it waits for the first
 * host-side snapshot) or a host side arrives (a board's switch design), and stays hidden in
 * endpoint mode.
 */
import { $, el, row, tbodyOf } from '../dom.js'
import { int } from '../model.js'
import type { SideFigures } from '../host-side.js'
import type { View } from './view.js'

const ns = (v: number | null, digits = 1): string => (v === null ? '–' : `${v.toFixed(digits)} ns`)
const reads = (v: number | null): string => (v === null ? '–' : v.toFixed(1))
const signed = (v: number | null, fmt: (x: number) => string): string => (v === null ? '–' : `${v > 0 ? '+' : ''}${fmt(v)}`)

interface Line {
  key: string
  label: string
  value: (s: SideFigures) => string
}

const LINES: readonly Line[] = [
  { key: 'mean', label: 'latency mean (last completion, since the clear)', value: (s) => ns(s.meanNs) },
  { key: 'p50', label: 'latency p50 (histogram)', value: (s) => ns(s.p50Ns, 0) },
  { key: 'p99', label: 'latency p99 (histogram)', value: (s) => ns(s.p99Ns, 0) },
  { key: 'outstanding', label: 'reads in flight, average since the clear', value: (s) => reads(s.outstandingAvg) },
  { key: 'interval', label: 'reads in flight, average between the newest snapshots', value: (s) => reads(s.outstandingInterval) },
  { key: 'reads', label: 'reads completed since the clear', value: (s) => int(s.reads) },
]

export function hostSideView(): View {
  let card: HTMLElement
  let body: HTMLTableSectionElement
  const cells = new Map<string, { gpu: HTMLTableCellElement; host: HTMLTableCellElement; diff: HTMLTableCellElement }>()
  return {
    mount() {
      card = $('hostside-card')
      body = tbodyOf('hostside-table')
      for (const l of LINES) {
        const c = { gpu: el('td', '–', 'num'), host: el('td', '–', 'num'), diff: el('td', '', 'num') }
        for (const [side, td] of Object.entries(c)) td.dataset.testid = `hostside-${l.key}-${side}`
        body.append(row([el('td', l.label, 'name'), c.gpu, c.host, c.diff]))
        cells.set(l.key, c)
      }
    },
    render({ state }) {
      card.hidden = !state.showHostSide
      if (state.paused || card.hidden) return
      const cmp = state.hostSideComparison()
      for (const l of LINES) {
        const c = cells.get(l.key)!
        c.gpu.textContent = cmp ? l.value(cmp.gpu) : '–'
        c.host.textContent = cmp ? l.value(cmp.host) : '–'
      }
      const d = cmp?.diff
      const clocks = cmp?.meanDiffClocks
      cells.get('mean')!.diff.textContent =
        d && d.meanNs !== null ? `${signed(d.meanNs, (x) => `${x.toFixed(1)} ns`)} (${clocks!.toFixed(1)} clocks)` : '–'
      cells.get('p50')!.diff.textContent = signed(d?.p50Ns ?? null, (x) => `${x.toFixed(0)} ns`)
      cells.get('p99')!.diff.textContent = signed(d?.p99Ns ?? null, (x) => `${x.toFixed(0)} ns`)
      cells.get('outstanding')!.diff.textContent = signed(d?.outstandingAvg ?? null, (x) => x.toFixed(2))
      $('hostside-traversal').textContent = d && d.meanNs !== null ? `${d.meanNs.toFixed(1)} ns` : '–'
      $('hostside-caption').textContent = cmp
        ? `counters of snapshot #${cmp.snapshotIndex} on both taps` +
          (cmp.histogramSnapshotIndex !== null ? `; percentiles from the histograms of snapshot #${cmp.histogramSnapshotIndex}` : '') +
          `, good to one bin, so their difference is not the time in the switch${cmp.overflow ? ' (≥: a percentile is past the last bin)' : ''}`
        : 'waiting for a host-side snapshot paired with the GPU side’s'
    },
  }
}
