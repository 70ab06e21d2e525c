/**
 * The switch design's host side in every export: a recording with tap-snapshot and tap-histogram
 * records (the fixtures' switch run) exported as CSV, JSONL, Perfetto and through DuckDB
 * (query, Parquet), next to the GPU side.
 */
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openRecording } from '../../../host/src/recording/catalog.js'
import { loadRecording, runQuery } from '../../../host/src/recording/duckdb.js'
import { exportRecording } from '../../../host/src/export/formats.js'
import { COUNTER_TRACKS, type TraceEvent } from '../../../host/src/export/perfetto.js'
import { csvHeader } from '../../../host/src/export/csv.js'
import {
  CLOCK_HZ,
  GPU_LATENCY_CLOCKS,
  newWriter,
  removeRoots,
  SWITCH_CLOCKS,
  TAP_SNAPSHOT_SKEW,
  tempRoot,
  writeRun,
} from '../recording/fixtures.js'
import { binEdges, binOf, SPEC_HISTOGRAM_LAYOUT } from '../../../host/src/core/latency-histogram.js'

afterEach(removeRoots)

const text = async (chunks: AsyncIterable<string>): Promise<string> => {
  let s = ''
  for await (const c of chunks) s += c
  return s
}

const switchRecording = async (hostSide = true) => {
  const dir = join(tempRoot(), hostSide ? 'switch' : 'endpoint')
  const w = newWriter(dir)
  const snaps = writeRun(w, { hostSide })
  w.close()
  return { recording: await openRecording(dir), snaps }
}

describe('exports of the host side (tap records)', () => {
  it('CSV: a row per snapshot of either tap, in record order, the tap named in the last column', async () => {
    const { recording, snaps } = await switchRecording()
    const lines = (await text(exportRecording(recording, 'csv'))).trimEnd().split('\n')
    expect(lines[0]).toBe(csvHeader().join(','))
    const rows = lines.slice(1).map((l) => l.split(','))
    expect(rows).toHaveLength(2 * snaps.length)
    const col = (r: string[], name: string) => r[csvHeader().indexOf(name)]!
    expect(rows.map((r) => col(r, 'tap'))).toEqual(snaps.flatMap(() => ['gpuSide', 'hostSide']))
    const [gpu, host] = rows.slice(-2) as [string[], string[]]
    expect(Number(col(host, 'TIMESTAMP')) - Number(col(gpu, 'TIMESTAMP'))).toBe(TAP_SNAPSHOT_SKEW)
    expect(col(host, 'MRD_128')).toBe(col(gpu, 'MRD_128')) // the same reads on both ports
    expect(Number(col(gpu, 'LAT_LAST_SUM')) - Number(col(host, 'LAT_LAST_SUM'))).toBe(SWITCH_CLOCKS * Number(col(gpu, 'LAT_LAST_COUNT')))
  })

  it('CSV of a BAR-design recording: every row is the GPU side', async () => {
    const { recording, snaps } = await switchRecording(false)
    const rows = (await text(exportRecording(recording, 'csv'))).trimEnd().split('\n').slice(1)
    expect(rows).toHaveLength(snaps.length)
    expect(rows.every((r) => r.split(',')[csvHeader().indexOf('tap')] === 'gpuSide')).toBe(true)
  })

  it('JSONL: the tap records as recorded, each after the SNAPSHOT it names', async () => {
    const { recording } = await switchRecording()
    const records = (await text(exportRecording(recording, 'jsonl')))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { t: string })
    const types = records.map((r) => r.t)
    expect(types.filter((t) => t === 'tap-snapshot')).toHaveLength(8)
    expect(types.slice(-3)).toEqual(['histogram', 'tap-histogram', 'run'])
    types.forEach((t, i) => {
      if (t === 'tap-snapshot') expect(types[i - 1]).toBe('snapshot')
    })
  })

  it('Perfetto: a host-side process with the same counter tracks, on the same time axis', async () => {
    const { recording } = await switchRecording()
    const ev = (JSON.parse(await text(exportRecording(recording, 'perfetto'))) as { traceEvents: TraceEvent[] }).traceEvents
    const names = ev.filter((e) => e.name === 'process_name').map((e) => [e.pid, e.args?.['name']])
    expect(names).toEqual([
      [1, `pcie-scope ${recording.manifest.name}`],
      [2, `pcie-scope ${recording.manifest.name} host side`],
    ])
    for (const track of Object.values(COUNTER_TRACKS)) {
      const gpu = ev.filter((e) => e.ph === 'C' && e.name === track && e.pid === 1)
      const host = ev.filter((e) => e.ph === 'C' && e.name === track && e.pid === 2)
      expect(host, track).toHaveLength(gpu.length)
      // each host sample a few clocks after the GPU side's (TAP_SNAPSHOT_SKEW), with the same rates: the same reads
      host.forEach((h, i) => {
        expect(h.ts - gpu[i]!.ts).toBeCloseTo((TAP_SNAPSHOT_SKEW / CLOCK_HZ) * 1e6, 9)
        expect(h.args).toEqual(gpu[i]!.args)
      })
    }
  })

  it('Perfetto of a BAR-design recording has no host side', async () => {
    const { recording } = await switchRecording(false)
    const ev = (JSON.parse(await text(exportRecording(recording, 'perfetto'))) as { traceEvents: TraceEvent[] }).traceEvents
    expect(ev.some((e) => e.pid === 2)).toBe(false)
  })

  it('query / Parquet: tap_snapshots and tap_histograms beside snapshots and histograms, joined by snapshot', async () => {
    const { recording, snaps } = await switchRecording()
    const loaded = await loadRecording(recording)
    try {
      expect(loaded.rows).toMatchObject({ snapshots: 8, tap_snapshots: 8, histograms: 1, tap_histograms: 1 })
      const diff = await runQuery(
        loaded,
        `select t.tap, s.snapshot_index,
                (s.lat_last_sum / s.lat_last_count - t.lat_last_sum / t.lat_last_count) as traversal_clocks
           from snapshots s join tap_snapshots t using (snapshot_index)
          where s.lat_last_count > 0 order by s.snapshot_index`,
      )
      expect(diff.rows).toHaveLength(7)
      expect(diff.rows.every(([tap, , clocks]) => tap === 'hostSide' && clocks === SWITCH_CLOCKS)).toBe(true)
      const h = await runQuery(
        loaded,
        `select 'gpuSide' as tap, reads, p50_ns, overflow, edges_json from histograms
          union all select tap, reads, p50_ns, overflow, edges_json from tap_histograms order by tap`,
      )
      const reads = snaps.at(-1)!.counters.latLastCount
      // both sides' reads fall in one bin, [240, 256) clocks: the histograms cannot see the 8 ns
      // between them (p50 mid-bin: 247.5 clocks)
      const edges = JSON.stringify(binEdges(SPEC_HISTOGRAM_LAYOUT))
      expect(h.rows).toEqual([
        ['gpuSide', reads, 990, false, edges],
        ['hostSide', reads, 990, false, edges],
      ])
      const bins = await runQuery(loaded, `select bins_json from tap_histograms`)
      expect((JSON.parse(bins.rows[0]![0] as string) as number[])[binOf(SPEC_HISTOGRAM_LAYOUT, GPU_LATENCY_CLOCKS - SWITCH_CLOCKS)]).toBe(
        reads,
      )
    } finally {
      loaded.close()
    }
  })
})
