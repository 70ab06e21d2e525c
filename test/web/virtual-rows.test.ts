import { describe, expect, it } from 'vitest'
import { rowWindow, scrollToRow } from '../../web/virtual-rows.js'

describe('virtual rows', () => {
  it('renders a screenful of 50 000 rows plus a few either side', () => {
    expect(rowWindow(0, 300, 20, 50_000, 8)).toEqual({ first: 0, end: 23 })
    const w = rowWindow(20 * 25_000, 300, 20, 50_000, 8)
    expect(w).toEqual({ first: 24_992, end: 25_023 })
    expect(rowWindow(20 * 50_000, 300, 20, 50_000, 8).end).toBe(50_000)
    expect(rowWindow(0, 300, 20, 3, 8)).toEqual({ first: 0, end: 3 })
    expect(rowWindow(500, 300, 20, 0, 8)).toEqual({ first: 0, end: 0 })
  })

  it('scrolls just enough to show a row', () => {
    expect(scrollToRow(10, 0, 300, 20)).toBe(0) // in view
    expect(scrollToRow(100, 0, 300, 20)).toBe(100 * 20 + 20 - 300)
    expect(scrollToRow(2, 400, 300, 20)).toBe(40)
  })
})
