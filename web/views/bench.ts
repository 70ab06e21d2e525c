/**
 * The bench card: the summary of a run (the newest, or the one clicked in the history), the run
 * history (GET /api/runs: this server's runs and its recordings'), and the runs picked in it side
 * by side (grouped bars, every metric with its change, the sentence on why). Either exports as a
 * self-contained HTML report, made here from the same core module `compare --html` uses. The
 * history is fetched on mount, shortly after a run (a demo run only while demo runs are listed)
 * and on Refresh.
 */
import type { RunsListing } from '../../host/src/core/wire.js'
import { runLabel } from '../../host/src/core/compare.js'
import { comparisonTableHtml, groupedBarsSvg, legendHtml, reportHtml, runCharts, runColour } from '../../host/src/core/bench-report.js'
import { LIMIT_WORDS, sig, summaryRows, type RunEntry } from '../../host/src/core/run-summary.js'
import { $, el, row, tbodyOf } from '../dom.js'
import { RunPicker } from '../history.js'
import type { View, ViewContext } from './view.js'

/** Hand a text to the browser as a download. */
function saveText(text: string, filename: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const a = document.createElement('a')
  a.href = url
  a.download = filename
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** after a run, how long the card waits before it fetches the history again */
const REFRESH_MS = 500

const fileNameOf = (s: string): string => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '')

export function benchView(picker = new RunPicker()): View {
  let drawn = -1
  let lastRunSeen: number | undefined
  let pending: ReturnType<typeof setTimeout> | undefined

  const refresh = (ctx: ViewContext) => {
    ctx.api.get<RunsListing>('runs').then(
      (listing) => {
        picker.setRuns(listing.runs)
        ctx.changed()
      },
      (e: unknown) => {
        ctx.state.say(`listing runs failed: ${(e as Error).message}`)
        ctx.changed()
      },
    )
  }

  /** A refresh within REFRESH_MS, one for a burst of runs (the demo loop runs one every second or two). */
  const refreshSoon = (ctx: ViewContext) => {
    if (pending !== undefined) return
    pending = setTimeout(() => {
      pending = undefined
      refresh(ctx)
    }, REFRESH_MS)
  }

  const drawSummary = () => {
    const r = picker.shown()
    $('bench-summary-title').textContent = r ? `${runLabel(r)} · ${r.source} · ${new Date(r.at).toLocaleString()}` : 'no run yet'
    const body = tbodyOf('bench-summary')
    body.replaceChildren(
      ...(r
        ? summaryRows(r.summary).map(([k, v]) => {
            const tr = row([el('td', k, 'muted'), el('td', v)])
            tr.dataset.testid = `bench-summary-${k.replaceAll(' ', '-')}`
            return tr
          })
        : []),
    )
    ;($('bench-export-run') as HTMLButtonElement).disabled = r === null
  }

  const drawHistory = (ctx: ViewContext) => {
    const body = tbodyOf('bench-history')
    body.replaceChildren(
      ...picker.rows().map((r) => {
        const pick = el('input')
        pick.type = 'checkbox'
        pick.checked = picker.picked.includes(r.key)
        pick.dataset.testid = `bench-pick-${r.key}`
        pick.addEventListener('change', () => {
          picker.toggle(r.key)
          ctx.changed()
        })
        const at = picker.picked.indexOf(r.key)
        const mark = el('span', at === 0 ? 'baseline' : '', 'small muted')
        if (at > 0) {
          const b = el('button', 'make baseline', 'small')
          b.type = 'button'
          b.addEventListener('click', () => {
            picker.makeBaseline(r.key)
            ctx.changed()
          })
          mark.append(b)
        }
        const swatch = el('span', undefined, 'swatch')
        if (at >= 0) swatch.style.background = runColour(at)
        const name = el('button', runLabel(r), 'link')
        name.type = 'button'
        name.title = 'show its summary'
        name.addEventListener('click', () => {
          picker.show(r.key)
          ctx.changed()
        })
        const s = r.summary
        const tr = row([
          el('td'),
          el('td'),
          el('td', r.source, 'muted'),
          el('td', sig(s.gbPerSecond), 'num'),
          el('td', s.latencyNs.p50 === null ? '–' : sig(s.latencyNs.p50), 'num'),
          el('td', LIMIT_WORDS[s.limit.kind], 'muted'),
          el('td', new Date(r.at).toLocaleTimeString(), 'num muted'),
          el('td'),
        ])
        tr.cells[0]!.append(pick)
        tr.cells[1]!.append(swatch, name)
        tr.cells[7]!.append(mark)
        tr.dataset.testid = `bench-run-${r.key}`
        if (r.key === picker.shown()?.key) tr.classList.add('shown')
        return tr
      }),
    )
  }

  const drawComparison = () => {
    const c = picker.comparison()
    const box = $('bench-compare')
    ;($('bench-export-compare') as HTMLButtonElement).disabled = c === null
    if (!c) {
      box.replaceChildren(el('p', 'pick two runs or more in the list to compare them (the first picked is the baseline)', 'muted small'))
      return
    }
    const why = el('div', undefined, 'bench-why')
    why.dataset.testid = 'bench-why'
    for (const s of c.sentences) why.append(el('p', s))
    const charts = el('div', undefined, 'bench-charts')
    charts.dataset.testid = 'bench-charts'
    // the SVG and tables are written by core/bench-report.ts, every text escaped there
    charts.innerHTML = runCharts(c.runs)
      .map((ch) => groupedBarsSvg(ch, 380, 200))
      .join('')
    const legend = el('div')
    legend.innerHTML = legendHtml(c.runs)
    const table = el('div', undefined, 'bench-table')
    table.dataset.testid = 'bench-compare-table'
    table.innerHTML = comparisonTableHtml(c)
    box.replaceChildren(why, legend, charts, table)
  }

  const exportReport = (runs: RunEntry[], name: string) => saveText(reportHtml(runs), `${fileNameOf(name)}.html`, 'text/html')

  return {
    mount(ctx) {
      $('bench-refresh').addEventListener('click', () => refresh(ctx))
      $('bench-demo').addEventListener('change', (e) => {
        picker.setWithDemo((e.target as HTMLInputElement).checked)
        refresh(ctx)
        ctx.changed()
      })
      $('bench-export-run').addEventListener('click', () => {
        const r = picker.shown()
        if (r) exportReport([r], `pcie-scope-${r.key}`)
      })
      $('bench-export-compare').addEventListener('click', () => {
        const runs = picker.pickedRuns()
        if (runs.length >= 2) exportReport(runs, `pcie-scope-comparison-${runs.map((r) => r.key).join('-vs-')}`)
      })
      refresh(ctx)
    },
    render(ctx) {
      const last = ctx.state.lastRun
      if (last?.id !== lastRunSeen && ctx.state.feed === 'open') {
        lastRunSeen = last?.id
        // demo runs are listed only on request: no fetch for one while they are hidden
        if (last && (last.origin !== 'demo' || picker.withDemo)) refreshSoon(ctx)
      }
      if (drawn === picker.version) return
      drawn = picker.version
      drawSummary()
      drawHistory(ctx)
      drawComparison()
    },
  }
}
