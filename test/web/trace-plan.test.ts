import { describe, expect, it } from 'vitest'
import { SIZE_CLASSES } from '../../host/src/core/size-classes.js'
import { buildBars } from '../../web/trace-bars.js'
import { filterReads, NO_FILTER } from '../../web/trace-filter.js'
import { hitRead, laneAt, planBars, type LaneRows } from '../../web/trace-plan.js'
import { fullWindow, xOf } from '../../web/trace-window.js'
import { syntheticTrace } from './trace-fixture.js'

const plot = { left: 60, width: 1200 }

describe('trace timeline geometry', () => {
  const { report } = syntheticTrace(2000)
  const bars = buildBars(report, 'tag')
  const all = filterReads(report, NO_FILTER)
  const rows: LaneRows = { top: 10, height: 2, count: bars.lanes.length }

  it('finds the lane under a pointer', () => {
    expect(laneAt(10, rows)).toBe(0)
    expect(laneAt(13.9, rows)).toBe(1)
    expect(laneAt(9, rows)).toBeNull()
    expect(laneAt(10 + 2 * rows.count, rows)).toBeNull()
  })

  it('draws every read of a window, merging neighbours of one lane and colour', () => {
    const full = fullWindow(bars.span)
    const whole = planBars(bars, all, full, plot, SIZE_CLASSES.length)
    expect(whole.reads).toBe(report.reads.length)
    expect(whole.rects).toBeLessThanOrEqual(whole.reads)
    // zoomed in on a stretch, only the reads overlapping it, each rectangle within the plot
    const r = { from: bars.span * 0.4, to: bars.span * 0.45 }
    const part = planBars(bars, all, r, plot, SIZE_CLASSES.length)
    let overlapping = 0
    for (let i = 0; i < report.reads.length; i++) if (bars.end[i]! >= r.from && bars.start[i]! <= r.to) overlapping++
    expect(part.reads).toBe(overlapping)
    for (const rects of part.bySize)
      for (let j = 0; j < rects.length; j += 3) {
        expect(rects[j]!).toBeGreaterThanOrEqual(plot.left)
        expect(rects[j]! + rects[j + 2]!).toBeLessThanOrEqual(plot.left + plot.width + 1e-9)
      }
  })

  it('hits the bar under a click, within a few pixels, on its own lane only', () => {
    const r = { from: bars.span * 0.3, to: bars.span * 0.7 }
    const k = all.find((i) => bars.start[i]! > r.from && bars.end[i]! < r.to)!
    const x = (xOf(bars.start[k]!, r, plot) + xOf(bars.end[k]!, r, plot)) / 2
    const y = rows.top + bars.lane[k]! * rows.height + 1
    expect(hitRead(bars, all, r, plot, rows, x, y)).toBe(k)
    // just past its end, within the slop
    expect(hitRead(bars, all, r, plot, rows, xOf(bars.end[k]!, r, plot) + 2, y)).toBe(k)
    // another lane at the same x is another read (or none)
    expect(hitRead(bars, all, r, plot, rows, x, y + rows.height)).not.toBe(k)
    // outside every lane
    expect(hitRead(bars, all, r, plot, rows, x, rows.top - 5)).toBeNull()
    // a filtered-out read is not hit
    const others = all.filter((i) => i !== k)
    expect(hitRead(bars, others, r, plot, rows, x, y)).not.toBe(k)
  })
})
