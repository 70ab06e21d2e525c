import { describe, expect, it } from 'vitest'
import { SIZE_CLASSES } from '../../host/src/core/size-classes.js'
import { buildBars } from '../../web/trace-bars.js'
import { drawTimeline, timelineGeometry, type Canvas2D } from '../../web/trace-canvas.js'
import { filterReads, NO_FILTER } from '../../web/trace-filter.js'
import { fullWindow } from '../../web/trace-window.js'
import { syntheticTrace } from './trace-fixture.js'

/** A 2D context that counts what is drawn (drawTimeline's calls only). */
function countingContext() {
  const calls = { fill: 0, rect: 0, fillRect: 0, fillText: [] as string[] }
  const ctx = new Proxy(
    {},
    {
      get: (_t, name: string) => {
        if (name === 'fill') return () => calls.fill++
        if (name === 'rect') return () => calls.rect++
        if (name === 'fillRect') return () => calls.fillRect++
        if (name === 'fillText') return (text: string) => calls.fillText.push(text)
        return () => undefined
      },
      set: () => true,
    },
  )
  return { ctx: ctx as Canvas2D, calls }
}

describe('trace timeline on its canvas', () => {
  it('gives 256 lanes 2 px each and a few lanes up to 14 px', () => {
    expect(timelineGeometry(1400, 256).rows.height).toBe(2)
    expect(timelineGeometry(1400, 4).rows.height).toBe(14)
    const g = timelineGeometry(1400, 256)
    expect(g.plot.left + g.plot.width).toBeLessThan(1400)
    expect(g.height).toBeGreaterThan(g.rows.top + 256 * 2)
  })

  it('fills one path per size class, labels the axis in its unit and marks the trigger', () => {
    const { report } = syntheticTrace(3000, 1000)
    const bars = buildBars(report, 'tag')
    const g = timelineGeometry(1400, bars.lanes.length)
    const { ctx, calls } = countingContext()
    const ids = filterReads(report, NO_FILTER)
    const drawn = drawTimeline(ctx, g, { bars, ids, window: fullWindow(bars.span), selected: 5, colours: SIZE_CLASSES.map(() => '#fff') })
    expect(drawn.reads).toBe(report.reads.length)
    expect(calls.fill).toBeLessThanOrEqual(SIZE_CLASSES.length)
    expect(calls.rect).toBeGreaterThanOrEqual(drawn.rects)
    expect(calls.fillText).toContain('trigger')
    expect(calls.fillText).toContain("time since the trace's first record (µs)")
    expect(calls.fillText).toContain('tag 0')
  })
})
