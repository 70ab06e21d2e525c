import { describe, expect, it } from 'vitest'
import { TableContext, tableOf } from '../../../host/src/recording/tables.js'
import type { AnyRecord } from '../../../host/src/recording/format.js'
import type { LatencyHistogram } from '../../../host/src/core/probe.js'
import { HISTOGRAM_WORDS } from '../../../host/src/core/generated.js'
import { binEdge, binOf, SPEC_HISTOGRAM_LAYOUT } from '../../../host/src/core/latency-histogram.js'
import { CLOCK_HZ, snap } from './fixtures.js'

/** 100 reads of 254–255 clocks (1016–1020 ns at 250 MHz): all in the 240–255-clock bin */
const BIN = binOf(SPEC_HISTOGRAM_LAYOUT, 254)
/** p50 placed mid-bin, the bin's whole clocks [240, 255], when nothing bounds it */
const UNBOUNDED_P50_NS = ((binEdge(SPEC_HISTOGRAM_LAYOUT, BIN) + binEdge(SPEC_HISTOGRAM_LAYOUT, BIN + 1) - 1) / 2) * 4
const histogram = (): LatencyHistogram => {
  const bins = Array<number>(HISTOGRAM_WORDS).fill(0)
  bins[BIN] = 100
  return { seq: 1, reason: 'periodic', kind: 'last', snapshotIndex: 5, layout: SPEC_HISTOGRAM_LAYOUT, bins, receivedAt: 0 }
}
const snapshot = (over: Record<string, number>, epoch?: number): AnyRecord => ({
  t: 'snapshot',
  at: 1,
  snapshot: snap(5, { latLastCount: 100, latLastSum: 25_450, ...over }),
  ...(epoch === undefined ? {} : { epoch }),
})
const cellsOf = (seen: TableContext | undefined, epoch?: number) => {
  const table = tableOf('histogram')!
  const row = table.rows({ t: 'histogram', at: 2, histogram: histogram(), ...(epoch === undefined ? {} : { epoch }) }, CLOCK_HZ, seen)[0]!
  const col = (name: string) => row[table.columns.findIndex((c) => c.name === name)]
  return { p50: col('p50_ns'), p99: col('p99_ns') }
}

describe('the histograms table', () => {
  it('keeps p50 and p99 within the latencies the probe observed, as the page does', () => {
    const seen = new TableContext()
    seen.note(snapshot({ latLastMin: 254, latLastMax: 255 }))
    const { p50, p99 } = cellsOf(seen)
    expect(p50).toBeCloseTo(254.5 * 4, 6) // not the bin's middle, below every read
    expect(p99).toBeCloseTo(254.99 * 4, 6)
  })

  it('places them inside the bin where the counters cannot bound them', () => {
    // no counters read yet, or none that completed a read, or those of another epoch
    expect(cellsOf(undefined).p50).toBe(UNBOUNDED_P50_NS)
    const empty = new TableContext()
    empty.note(snapshot({ latLastMin: 2 ** 32 - 1, latLastMax: 0, latLastCount: 0 }))
    expect(cellsOf(empty).p50).toBe(UNBOUNDED_P50_NS)
    const other = new TableContext()
    other.note(snapshot({ latLastMin: 254, latLastMax: 255 }, 1))
    expect(cellsOf(other, 2).p50).toBe(UNBOUNDED_P50_NS)
  })
})
