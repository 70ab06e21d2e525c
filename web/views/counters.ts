/** Every probe counter of the newest snapshot, with its name and documentation from the spec. */
import { el, row, tbodyOf } from '../dom.js'
import { int } from '../model.js'
import type { View } from './view.js'

export function countersView(): View {
  const cells = new Map<string, HTMLTableCellElement>()
  let body: HTMLTableSectionElement
  return {
    mount() {
      body = tbodyOf('counters-table')
    },
    render({ state }) {
      const s = state.last
      if (state.paused || !s) return
      if (cells.size !== state.counters.length) {
        body.replaceChildren()
        cells.clear()
        for (const c of state.counters) {
          // the spec's docs hold for both designs (BAR and switch)
          const doc = c.doc
          const name = el('td', c.name, 'name')
          name.title = doc
          const val = el('td', '0', 'num')
          const tr = row([name, val, el('td', doc, 'muted small')])
          tr.dataset.testid = `counter-${c.key}`
          body.append(tr)
          cells.set(c.key, val)
        }
      }
      for (const c of state.counters) {
        const cell = cells.get(c.key)
        // an empty latency minimum reads all ones: nothing completed since the clear
        if (cell) cell.textContent = s.counters[c.key] >= 2 ** 63 ? '– (none yet)' : int(s.counters[c.key])
      }
    },
  }
}
