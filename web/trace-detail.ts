/** The trace view's detail: the picked read's request and completions, a column each, every header field decoded. */
import type { TraceReport } from '../host/src/core/trace-report.js'
import { el } from './dom.js'
import { readDetail } from './trace-fields.js'
import { readTitle } from './trace-text.js'

export function renderReadDetail(box: HTMLElement, report: TraceReport | null, selected: number | null): void {
  if (!report || selected === null) {
    box.replaceChildren(
      el('p', report ? 'click a bar or a row: its request and completions, every header field decoded' : '', 'muted small'),
    )
    return
  }
  const d = readDetail(report, selected)
  const t = el('table')
  t.dataset.testid = 'trace-detail-table'
  const head = el('tr')
  head.append(el('td'), ...d.columns.map((c) => el('td', c, 'muted')))
  t.append(head)
  for (const row of d.rows) {
    const tr = el('tr')
    tr.dataset.field = row.label
    tr.append(el('td', row.label, 'name'), ...row.values.map((v) => el('td', v, 'num')))
    t.append(tr)
  }
  const scroll = el('div', undefined, 'trace-detail-scroll')
  scroll.append(t)
  box.replaceChildren(el('h3', readTitle(report.reads[selected]!)), scroll)
}
