import { describe, expect, it } from 'vitest'
import { placeRunLabels } from '../../web/run-labels.js'

/** 6 px a character */
const width = (t: string) => 6 * t.length

describe('run labels', () => {
  it('names a run inside its band when it fits', () => {
    expect(placeRunLabels([{ id: 1, label: 'strided', left: 10, right: 200 }], width, 1000)).toEqual([
      { id: 1, text: 'strided', x: 13, row: 0, full: true },
    ])
  })

  it('labels every run: narrow neighbours stack in rows, then fall back to the run number', () => {
    const bands = Array.from({ length: 8 }, (_, i) => ({
      id: i + 1,
      label: 'merged-misaligned +32',
      left: 100 + 30 * i,
      right: 128 + 30 * i,
    }))
    const placed = placeRunLabels(bands, width, 1000, 3)
    expect(placed.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(placed.at(-1)!.full).toBe(true) // the last one has the plot to its right
    expect(placed.filter((p) => !p.full).every((p) => p.text === `#${p.id}`)).toBe(true)
    // no two labels of a row overlap
    for (const row of [0, 1, 2]) {
      const inRow = placed.filter((p) => p.row === row).sort((a, b) => a.x - b.x)
      for (let i = 1; i < inRow.length; i++) expect(inRow[i]!.x).toBeGreaterThanOrEqual(inRow[i - 1]!.x + width(inRow[i - 1]!.text))
    }
  })

  it('keeps a label at the right edge inside the plot', () => {
    const [p] = placeRunLabels([{ id: 3, label: 'strided', left: 980, right: 1000 }], width, 1000)
    expect(p!.x + width(p!.text)).toBeLessThanOrEqual(1000)
    expect(p).toMatchObject({ x: 1000 - width('strided'), full: true })
  })
})
