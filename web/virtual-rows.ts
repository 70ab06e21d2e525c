/**
 * A virtualised table's window (DOM-free): which rows of a long list a scrolled box shows, so
 * 50 000 rows cost the DOM a screenful, and where a row must scroll to be seen.
 */

export interface RowWindow {
  /** the first row rendered, and one past the last */
  first: number
  end: number
}

/** The rows visible in a box `viewportPx` tall scrolled to `scrollTop`, plus `overscan` either side. */
export function rowWindow(scrollTop: number, viewportPx: number, rowPx: number, total: number, overscan = 8): RowWindow {
  const first = Math.max(0, Math.floor(scrollTop / rowPx) - overscan)
  const end = Math.min(total, Math.ceil((scrollTop + viewportPx) / rowPx) + overscan)
  return { first: Math.min(first, end), end }
}

/** The scrollTop that shows row `i`: unchanged when it is in view, else just enough to bring it in. */
export function scrollToRow(i: number, scrollTop: number, viewportPx: number, rowPx: number): number {
  const top = i * rowPx
  if (top < scrollTop) return top
  if (top + rowPx > scrollTop + viewportPx) return top + rowPx - viewportPx
  return scrollTop
}
