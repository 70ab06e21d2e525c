import { describe, expect, it } from 'vitest'
import { HISTOGRAM_WORDS } from '../../host/src/core/generated.js'
import { barPosition, formatLatency, latencyBars, MAX_BARS, MIN_BARS } from '../../web/latency-bars.js'
import { binEdges } from '../../host/src/core/latency-histogram.js'

const empty = (): number[] => Array<number>(HISTOGRAM_WORDS).fill(0)

/** the probe's 65 bins of 64 clocks at 250 MHz: 256 ns each */
const edges256 = binEdges(65, 64).map((c) => c * 4)

describe('latencyBars', () => {
  it('draws only the range holding reads, a bin of margin either side, at least MIN_BARS wide, in ns', () => {
    const last = empty()
    last[3] = 90 // [768, 1024) ns at 256 ns a bin
    last[4] = 10
    const first = empty()
    first[3] = 100
    const b = latencyBars(first, last, edges256)!
    expect(b.bars).toHaveLength(MIN_BARS)
    expect(b.merge).toBe(1)
    expect(b.unit).toBe('ns')
    expect(b.bars.map((x) => x.last).reduce((s, v) => s + v)).toBe(100)
    expect(b.bars.map((x) => x.first).reduce((s, v) => s + v)).toBe(100)
    expect(b.labels[0]).toBe('0–256')
    expect(b.labels).toContain('768–1024')
    // a latency maps onto the bars linearly: 896 ns is the middle of the fourth bar
    expect(barPosition(b, 896)).toBeCloseTo(3.5)
  })

  it('merges neighbouring bins past MAX_BARS and keeps the overflow bin a bar of its own, in µs', () => {
    const last = empty()
    last[0] = 1
    last[60] = 1
    last[HISTOGRAM_WORDS - 1] = 5 // ≥ 16.4 µs
    const b = latencyBars(null, last, edges256)!
    expect(b.bars.length).toBeLessThanOrEqual(MAX_BARS + 1)
    expect(b.merge).toBe(3)
    expect(b.unit).toBe('µs')
    expect(b.bars.at(-1)).toEqual({ fromNs: 64 * 256, toNs: null, first: 0, last: 5 })
    expect(b.labels.at(-1)).toBe('≥ 16.4')
    expect(b.bars.reduce((s, x) => s + x.last, 0)).toBe(7)
    // a percentile in the overflow bin sits at its bar's left edge
    expect(barPosition(b, 20_000)).toBe(b.bars.length - 1)
  })

  it('gives nothing to draw while no bin holds a read', () => {
    expect(latencyBars(empty(), empty(), edges256)).toBeNull()
    expect(latencyBars(null, null, edges256)).toBeNull()
  })

  it('formats a latency in the bars’ unit', () => {
    expect(formatLatency(1018)).toBe('1018 ns')
    expect(formatLatency(1018, 'µs')).toBe('1.02 µs')
    expect(formatLatency(20_000)).toBe('20.00 µs')
  })

  it('takes bins of unequal width from their edges: labels and positions follow them', () => {
    // log-spaced edges: 0, 100, 200, 400, 800, … ns
    const edges = [0, ...Array.from({ length: 64 }, (_, k) => 100 * 2 ** k)]
    const last = Array<number>(65).fill(0)
    last[3] = 10 // 400–800 ns
    const b = latencyBars(null, last, edges)!
    const bar = b.bars.find((x) => x.last === 10)!
    expect(bar).toMatchObject({ fromNs: 400, toNs: 800 })
    // the widest bars shown reach past 10 µs: one unit for all, decimals for the narrowest
    expect([b.unit, b.labels[b.bars.indexOf(bar)]]).toEqual(['µs', '0.4–0.8'])
    // 600 ns lies half-way into that bar
    expect(barPosition(b, 600)).toBeCloseTo(b.bars.indexOf(bar) + 0.5)
  })
})
