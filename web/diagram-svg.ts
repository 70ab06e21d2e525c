/** A diagram layout (web/pattern-diagram.ts) as SVG elements, for the page. */
import type { Layout } from './pattern-diagram.js'

const SVG = 'http://www.w3.org/2000/svg'

/** The layout as an <svg> (presentation attributes only: the page's CSP allows no inline style). */
export function diagramSvg(layout: Layout, label: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg')
  svg.setAttribute('viewBox', `0 0 ${layout.width} ${layout.height}`)
  svg.setAttribute('role', 'img')
  svg.setAttribute('aria-label', label)
  svg.classList.add('pd')
  for (const s of layout.shapes) {
    let node: SVGElement
    if (s.line) {
      node = document.createElementNS(SVG, 'line')
      node.setAttribute('x1', String(s.x))
      node.setAttribute('y1', String(s.y))
      node.setAttribute('x2', String(s.x + s.w))
      node.setAttribute('y2', String(s.y + s.h))
    } else if (s.kind === 'pd-label') {
      node = document.createElementNS(SVG, 'text')
      node.setAttribute('x', String(s.x))
      node.setAttribute('y', String(s.y))
      node.textContent = s.text ?? ''
    } else {
      const gEl = document.createElementNS(SVG, 'g')
      const r = document.createElementNS(SVG, 'rect')
      for (const [k, v] of [
        ['x', s.x],
        ['y', s.y],
        ['width', s.w],
        ['height', s.h],
      ] as const)
        r.setAttribute(k, String(v))
      if (s.fill) r.setAttribute('fill', s.fill)
      gEl.append(r)
      if (s.text) {
        const tx = document.createElementNS(SVG, 'text')
        tx.setAttribute('x', String(s.x + s.w / 2))
        tx.setAttribute('y', String(s.y + s.h - 4))
        tx.setAttribute('text-anchor', 'middle')
        tx.textContent = s.text
        gEl.append(tx)
      }
      node = gEl
    }
    node.classList.add(s.kind)
    if (s.title) {
      const title = document.createElementNS(SVG, 'title')
      title.textContent = s.title
      node.append(title)
    }
    svg.append(node)
  }
  return svg
}
