/**
 * The time charts' navigation bar: reset zoom, zoom to the selection, zoom to a run (every run the
 * page holds, by name), and the figures of the selected stretch of time (web/time-range.ts). The
 * charts themselves take the wheel, drags and clicks (web/charts.ts `TimeNav`).
 */
import type { TimeNav } from '../charts.js'
import { $ } from '../dom.js'
import { int, si } from '../model.js'
import type { RangeFigures, XRange } from '../time-range.js'
import { formatLatency } from '../latency-bars.js'
import type { View, ViewContext } from './view.js'

/** The navigation the rate and in-flight charts share: every change goes through the state. */
export function timeNavOf(ctx: ViewContext): TimeNav {
  const { state } = ctx
  return {
    range: () => state.xRange,
    selection: () => state.selection,
    zoom(r) {
      state.setXRange(r)
      ctx.changed()
    },
    select(r) {
      state.select(r)
      ctx.changed()
    },
    runAt(x) {
      const newest = state.mrdRate.last()?.x
      // the newest band on top, as drawn
      for (let i = state.marks.length - 1; i >= 0; i--) {
        const m = state.marks[i]!
        if (x >= m.from && x <= (m.to ?? newest ?? m.from)) return m.id
      }
      return undefined
    },
    zoomToRun(id) {
      state.zoomToRun(id)
      ctx.changed()
    },
    reset() {
      state.setXRange(null)
      ctx.changed()
    },
  }
}

const seconds = (s: number): string => si(s, 's')

/** The selected stretch in words. */
export function figuresText(sel: XRange, f: RangeFigures): string {
  const span = `${seconds(sel.from)} – ${seconds(sel.to)} (${seconds(sel.to - sel.from)})`
  if (f.intervals === 0) return `selected ${span}: no interval of the rate chart ends inside it`
  return (
    `selected ${span}: ${f.gbps === null ? '–' : `${f.gbps.toFixed(2)} GB/s`} payload · ` +
    `${int(f.requests)} requests${f.mrdPerSec === null ? '' : ` (${si(f.mrdPerSec)}/s)`} · ` +
    `${f.inFlight === null ? '–' : f.inFlight.toFixed(1)} reads in flight · ` +
    `latency mean ${f.meanLatencyNs === null ? '–' : formatLatency(f.meanLatencyNs)} over ${int(f.latencyReads)} reads ` +
    `(${f.intervals} intervals, ${seconds(f.seconds)} counted)`
  )
}

export function timeNavView(): View {
  let runs: HTMLSelectElement
  let shownRuns = ''
  return {
    mount(ctx) {
      const { state } = ctx
      runs = $<HTMLSelectElement>('run-zoom')
      runs.addEventListener('change', () => {
        const id = Number(runs.value)
        runs.value = ''
        if (Number.isInteger(id) && state.zoomToRun(id)) ctx.changed()
      })
      $('btn-zoom-reset').addEventListener('click', () => {
        state.setXRange(null)
        state.select(null)
        ctx.changed()
      })
      $('btn-zoom-selection').addEventListener('click', () => {
        if (state.selection) state.setXRange(state.selection)
        ctx.changed()
      })
    },
    render({ state }) {
      const key = state.marks.map((m) => `${m.id}:${m.label}`).join(',')
      if (key !== shownRuns) {
        shownRuns = key
        runs.replaceChildren(
          new Option('zoom to run…', ''),
          ...[...state.marks]
            .reverse()
            .map((m) => new Option(`#${m.id} ${m.label}${m.origin === 'manual' ? ' (manual)' : ''}`, String(m.id))),
        )
      }
      ;($('btn-zoom-reset') as HTMLButtonElement).disabled = state.xRange === null && state.selection === null
      ;($('btn-zoom-selection') as HTMLButtonElement).disabled = state.selection === null
      const out = $('range-figures')
      const sel = state.selection
      const f = state.selectionFigures()
      out.textContent =
        sel && f ? figuresText(sel, f) : 'drag across a time chart to read a stretch of time: GB/s, requests, reads in flight, latency'
      out.dataset.gbps = f?.gbps?.toString() ?? ''
      out.dataset.requests = f ? String(f.requests) : ''
      $('zoom-state').textContent = state.xRange
        ? `zoomed: ${seconds(state.xRange.from)} – ${seconds(state.xRange.to)}`
        : 'following the newest point'
    },
  }
}
