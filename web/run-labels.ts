/**
 * Where the run bands' names go (DOM-free): every run in view gets a label. A name runs on past
 * its band's right edge as far as the next band; where it does not fit, the run's number (#12)
 * takes its place (the "zoom to run" list and a zoom give the name); labels that would overlap
 * stack in rows (up to `rows`), and the least crowded row takes one when none has room, so no run
 * is ever left unnamed.
 */

export interface BandPx {
  id: number
  label: string
  /** the band's edges in pixels, already clipped to the plot */
  left: number
  right: number
}

export interface PlacedLabel {
  id: number
  text: string
  x: number
  row: number
  /** the full name (false: the run's number stands in for it) */
  full: boolean
}

const GAP_PX = 6

export function placeRunLabels(bands: readonly BandPx[], width: (text: string) => number, plotRight: number, rows = 3): PlacedLabel[] {
  /** the right end of the last label in each row */
  const ends = Array<number>(Math.max(1, rows)).fill(-Infinity)
  const out: PlacedLabel[] = []
  const sorted = [...bands].sort((p, q) => p.left - q.left)
  sorted.forEach((b, i) => {
    // at the plot's right edge a label moves left rather than be cut
    const startOf = (w: number) => Math.min(b.left + 3, plotRight - w)
    const rowFor = (text: string): number => {
      const start = startOf(width(text))
      return ends.findIndex((end) => start >= end + GAP_PX)
    }
    // the name, where it ends before the next run's band begins (or inside its own)
    const room = Math.max(b.right, (sorted[i + 1]?.left ?? Infinity) - GAP_PX)
    let text = b.label
    let full = startOf(width(text)) + width(text) <= room
    let row = full ? rowFor(text) : -1
    if (row < 0) {
      text = `#${b.id}`
      full = false
      row = rowFor(text)
    }
    if (row < 0) row = ends.indexOf(Math.min(...ends))
    const w = width(text)
    const start = startOf(w)
    ends[row] = Math.max(ends[row]!, start + w)
    out.push({ id: b.id, text, x: start, row, full })
  })
  return out
}
