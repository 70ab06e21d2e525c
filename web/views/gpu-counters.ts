/**
 * The GPU's own PCIe counters (`serve --gpu-counters`): a card, added before the link card only
 * while the server samples them, with the source as its badge and the newest interval's read
 * GB/s, request rate and mean request size (../gpu-counters.ts decides what it says).
 */
import { $, el, row } from '../dom.js'
import { gpuCountersCard } from '../gpu-counters.js'
import type { View } from './view.js'

export function gpuCountersView(): View {
  let card: HTMLElement
  let badge: HTMLElement
  let detail: HTMLElement
  let body: HTMLTableSectionElement
  return {
    mount() {
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
      card.append(head, detail, table)
      const link = $('link-card')
      link.parentElement?.insertBefore(card, link)
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
    },
  }
}
