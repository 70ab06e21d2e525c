import { describe, expect, it } from 'vitest'
import { binEdgesNs, linearLayout, SPEC_HISTOGRAM_LAYOUT } from '../../host/src/core/latency-histogram.js'
import { barPosition, formatLatency, latencyBars, MAX_BARS, MIN_BARS } from '../../web/latency-bars.js'

// the spec's log-spaced bins at 250 MHz: 8 to an octave, one clock (4 ns) below 64 ns
const EDGES = binEdgesNs(SPEC_HISTOGRAM_LAYOUT, 250e6)
const empty = (): number[] => Array<number>(EDGES.length).fill(0)

describe('latencyBars', () => {
  it('draws only the range holding reads, a bin of margin either side, at least MIN_BARS wide, in ns', () => {
    const last = empty()
    last[60] = 90 // [768, 832) clocks = [3072, 3328) ns
    last[61] = 10
    const first = empty()
    first[60] = 100
    const b = latencyBars(first, last, EDGES)!
    expect(b.bars).toHaveLength(MIN_BARS)
    expect(b.merge).toBe(1)
    expect(b.unit).toBe('ns')
    expect(b.bars.map((x) => x.last).reduce((s, v) => s + v)).toBe(100)
    expect(b.bars.map((x) => x.first).reduce((s, v) => s + v)).toBe(100)
    expect(b.labels).toContain('3072–3328')
    // unequal bins, each bar the next one's neighbour: the edges are the layout's
    for (let i = 1; i < b.bars.length; i++) expect(b.bars[i]!.fromNs).toBe(b.bars[i - 1]!.toNs)
    expect(b.bars.at(-1)!.toNs! - b.bars.at(-1)!.fromNs).toBeGreaterThan(b.bars[0]!.toNs! - b.bars[0]!.fromNs)
  })

  it('places a latency on the bars by its log inside a bar (the axis is log: a bar a bin)', () => {
    const last = empty()
    last[60] = 1
    const b = latencyBars(null, last, EDGES)!
    const i = b.bars.findIndex((x) => x.fromNs === 3072)
    expect(barPosition(b, 3072)).toBeCloseTo(i)
    expect(barPosition(b, Math.sqrt(3072 * 3328))).toBeCloseTo(i + 0.5)
    expect(barPosition(b, 1)).toBe(0)
    expect(barPosition(b, 1e9)).toBe(b.bars.length)
  })

  it('merges neighbouring bins past MAX_BARS and keeps the overflow bin a bar of its own, in µs', () => {
    const last = empty()
    last[0] = 1
    last[60] = 1
    last[EDGES.length - 1] = 5 // ≥ 32.8 µs
    const b = latencyBars(null, last, EDGES)!
    expect(b.bars.length).toBeLessThanOrEqual(MAX_BARS + 1)
    expect(b.merge).toBe(3)
    expect(b.unit).toBe('µs')
    expect(b.bars.at(-1)).toEqual({ fromNs: 32768, toNs: null, first: 0, last: 5 })
    expect(b.labels.at(-1)).toBe('≥ 32.8')
    expect(b.bars.reduce((s, x) => s + x.last, 0)).toBe(7)
    // a percentile in the overflow bin sits at its bar's left edge
    expect(barPosition(b, 40_000)).toBe(b.bars.length - 1)
  })

  it('draws the equal bins of an older recording too', () => {
    const last = Array<number>(65).fill(0)
    last[3] = 10 // [768, 1024) ns at 256 ns a bin
    const b = latencyBars(null, last, binEdgesNs(linearLayout(64, 65), 250e6))!
    expect(b.labels[0]).toBe('0–256')
    expect(b.labels).toContain('768–1024')
    expect(barPosition(b, 896)).toBeCloseTo(3 + Math.log(896 / 768) / Math.log(1024 / 768))
  })

  it('gives nothing to draw while no bin holds a read, or edges that are not the bins’', () => {
    expect(latencyBars(empty(), empty(), EDGES)).toBeNull()
    expect(latencyBars(null, null, EDGES)).toBeNull()
    const one = empty()
    one[5] = 1
    expect(latencyBars(one, null, EDGES.slice(1))).toBeNull()
  })

  it('formats a latency in the bars’ unit', () => {
    expect(formatLatency(1018)).toBe('1018 ns')
    expect(formatLatency(1018, 'µs')).toBe('1.02 µs')
    expect(formatLatency(20_000)).toBe('20.00 µs')
  })
})
