/** Small DOM helpers shared by the views. */

export const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const found = document.getElementById(id)
  if (!found) throw new Error(`#${id} missing from index.html`)
  return found as T
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag)
  if (text !== undefined) e.textContent = text
  if (cls) e.className = cls
  return e
}

export function row(cells: (string | HTMLElement)[], cls?: string): HTMLTableRowElement {
  const tr = el('tr', undefined, cls)
  for (const c of cells) tr.append(typeof c === 'string' ? el('td', c) : c)
  return tr
}

/** The body of a table in index.html. */
export function tbodyOf(tableId: string): HTMLTableSectionElement {
  const body = $(tableId).querySelector('tbody')
  if (!body) throw new Error(`#${tableId} has no tbody`)
  return body
}
