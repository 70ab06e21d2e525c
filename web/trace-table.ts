/**
 * The trace view's table of reads: a scrolled box whose DOM holds only the rows in view
 * (web/virtual-rows.ts), rebuilt when the scroll, the reads shown or the pick change.
 */
import type { TraceReport } from '../host/src/core/trace-report.js'
import { el } from './dom.js'
import { readCells } from './trace-text.js'
import { rowWindow, scrollToRow } from './virtual-rows.js'

/** a row's height, CSS px (style.css .trace-row) */
const ROW_PX = 22

export class ReadTable {
  /** what the rows in the DOM show: the list, the rows in view, the pick */
  private shown: { report: TraceReport | null; ids: Uint32Array | null; key: string } = { report: null, ids: null, key: '' }

  constructor(
    /** the scrolled box */
    private readonly scroller: HTMLElement,
    /** inside it: as tall as every row together */
    private readonly sizer: HTMLElement,
    /** inside that: the rows in view, moved to where they belong */
    private readonly rows: HTMLElement,
  ) {}

  /** Rows `ids` of `report` (null: none), `selected` highlighted; nothing is rebuilt when nothing changed. */
  render(report: TraceReport | null, ids: Uint32Array, selected: number | null): void {
    const n = report ? ids.length : 0
    const w = rowWindow(this.scroller.scrollTop, this.scroller.clientHeight || 300, ROW_PX, n)
    const key = `${w.first}/${w.end}/${selected}`
    if (report === this.shown.report && ids === this.shown.ids && key === this.shown.key) return
    this.shown = { report, ids, key }
    this.sizer.style.height = `${n * ROW_PX}px`
    this.rows.style.transform = `translateY(${w.first * ROW_PX}px)`
    const out: HTMLElement[] = []
    for (let k = w.first; k < w.end && report; k++) {
      const i = ids[k]!
      const r = report.reads[i]!
      const row = el('div', undefined, `trace-row${i === selected ? ' selected' : ''}${r.end === 'done' ? '' : ` end-${r.end}`}`)
      row.dataset.read = String(i)
      row.dataset.testid = `trace-row-${i}`
      row.append(...readCells(r).map((c) => el('span', c)))
      out.push(row)
    }
    this.rows.replaceChildren(...out)
  }

  /** Scroll just enough to show row `position`. */
  reveal(position: number): void {
    this.scroller.scrollTop = scrollToRow(position, this.scroller.scrollTop, this.scroller.clientHeight, ROW_PX)
  }

  toTop(): void {
    this.scroller.scrollTop = 0
  }

  /** rows in the DOM now */
  get rowCount(): number {
    return this.rows.childElementCount
  }
}
