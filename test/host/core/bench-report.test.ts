import { describe, expect, it } from 'vitest'
import { escapeHtml, groupedBarsSvg, reportHtml, runCharts } from '../../../host/src/core/bench-report.js'
import { entry, runCounters } from './run-fixtures.js'

const a = () => entry(1, runCounters({ reads: 125_000, size: 32, micros: 1000, inFlight: 250, latencyNs: 2000, peak: 256 }), {}, 'strided')
const b = () => entry(2, runCounters({ reads: 94_531, size: 128, micros: 1000, inFlight: 189, latencyNs: 2000 }))

describe('runCharts', () => {
  it('draws requests by size, bytes on the wire, GB/s, tags in use and latency, one series a run', () => {
    const charts = runCharts([a(), b()])
    expect(charts.map((c) => c.key)).toEqual(['sizes', 'wire', 'rate', 'tags', 'latency'])
    const sizes = charts[0]!
    expect(sizes.series).toHaveLength(2)
    expect(sizes.series[0]!.values[sizes.groups.indexOf('32 B')]).toBe(125_000)
    expect(sizes.series[1]!.values[sizes.groups.indexOf('128 B')]).toBe(94_531)
    const wire = charts[1]!
    expect(wire.series[1]!.values).toEqual([94_531 * 128, 94_531 * 20, 94_531 * 24])
    expect(charts[3]!.series[0]!.values).toEqual([250, 256, 256])
  })
})

describe('groupedBarsSvg', () => {
  it('draws one bar per run and group with a value, scaled to the largest', () => {
    const svg = groupedBarsSvg({
      key: 'x',
      title: 'T',
      unit: 'u',
      groups: ['g0', 'g1'],
      series: [
        { name: 'r0', values: [10, null] },
        { name: 'r1', values: [5, 20] },
      ],
    })
    const bars = [...svg.matchAll(/<rect data-series="(\d)" data-group="(\d)"[^>]* height="([\d.]+)"/g)].map((m) => [
      m[1],
      m[2],
      Number(m[3]),
    ])
    expect(bars.map(([s, g]) => `${s}/${g}`)).toEqual(['0/0', '1/0', '1/1'])
    const h = Object.fromEntries(bars.map(([s, g, hh]) => [`${s}/${g}`, hh]))
    expect(h['1/1']).toBeGreaterThan(h['0/0'] as number)
    expect(h['0/0']).toBeCloseTo((h['1/1'] as number) / 2, 0)
  })

  it('escapes what it writes', () => {
    expect(groupedBarsSvg({ key: 'k', title: '<b>', unit: 'u', groups: ['"g"'], series: [] })).not.toMatch(/<b>|"g"/)
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
  })
})

describe('reportHtml', () => {
  it('is one self-contained file: inline style and SVG, nothing fetched', () => {
    const html = reportHtml([a(), b()], { generatedAt: new Date('2026-01-02T03:04:05Z') })
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html).toContain('<style>')
    expect(html.match(/<svg class="bench-bars"/g)).toHaveLength(5)
    expect(html).not.toMatch(/<script|<link|\ssrc=|\shref=|url\(|@import|https?:\/\//i)
    expect(html).toContain('2026-01-02T03:04:05.000Z')
  })

  it('holds the comparison with its sentence for two runs or more, and each run’s summary', () => {
    const html = reportHtml([a(), b()])
    expect(html).toMatch(/<p class="why">rec-2 #1 \(merged-aligned 1048576 B\) is 3× faster than/)
    expect(html).toContain('<table class="bench-compare">')
    expect(html.match(/<table class="bench-summary"/g)).toHaveLength(2)
  })

  it('a single run is a summary without a comparison', () => {
    const html = reportHtml([b()])
    expect(html).not.toContain('bench-compare')
    expect(html).not.toContain('class="why"')
    expect(html).toContain('<title>pcie-scope: rec-2 #1 (merged-aligned 1048576 B)</title>')
    expect(() => reportHtml([])).toThrow(RangeError)
  })
})
