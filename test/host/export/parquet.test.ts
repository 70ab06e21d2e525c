/** Parquet export, read back by DuckDB itself (read_parquet): row counts and values against the recording. */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterEach, describe, expect, it } from 'vitest'
import { openRecording } from '../../../host/src/recording/catalog.js'
import { quoteLiteral } from '../../../host/src/recording/duckdb.js'
import { exportParquet } from '../../../host/src/export/parquet.js'
import { newReadStats } from '../../../host/src/recording/reader.js'
import { TABLES } from '../../../host/src/recording/tables.js'
import { COUNTERS } from '../../../host/src/core/generated.js'
import { CLOCK_HZ, killWriter, newWriter, removeRoots, snap, tempRoot, writeIntervals, writeRun } from '../recording/fixtures.js'

afterEach(removeRoots)

/** Rows of a Parquet file as DuckDB reads them, integers as numbers. */
const readParquet = async (file: string, sql = 'select * from t'): Promise<Record<string, unknown>[]> => {
  const db = await DuckDBInstance.create(':memory:')
  const c = await db.connect()
  try {
    await c.run(`create view t as select * from read_parquet(${quoteLiteral(file)})`)
    const r = await c.runAndReadAll(sql)
    return r.getRowObjectsJS().map((o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])))
  } finally {
    c.closeSync()
    db.closeSync()
  }
}

const recorded = async () => {
  const dir = join(tempRoot(), 'pq')
  const w = newWriter(dir)
  const snaps = writeRun(w)
  const samples = writeIntervals(w)
  w.close()
  return { recording: await openRecording(dir), snaps, samples }
}

describe('Parquet export', () => {
  it('snapshots: one row per snapshot, every spec counter as a column, values as recorded', async () => {
    const { recording, snaps } = await recorded()
    const file = join(tempRoot(), 'snapshots.parquet')
    expect(await exportParquet(recording, 'snapshots', file)).toBe(snaps.length)
    const rows = await readParquet(file, 'select * from t order by snapshot_index')
    expect(rows).toHaveLength(snaps.length)
    expect(Object.keys(rows[0]!)).toEqual(TABLES.find((t) => t.name === 'snapshots')!.columns.map((c) => c.name))
    for (const c of COUNTERS) expect(rows[0]).toHaveProperty(c.name.toLowerCase())
    const last = rows.at(-1)!
    const s = snaps.at(-1)!
    expect(last).toMatchObject({ snapshot_index: s.index, at_ms: s.receivedAt, timestamp: 17_000, mrd_128: 512, mrd_bytes: 512 * 128 })
    expect(last['time_s']).toBeCloseTo(17_000 / CLOCK_HZ, 15)
    expect(rows[0]).toMatchObject({ on_demand: true, enabled: false })
  })

  it("the probe's all-ones 'none yet' (a u64 beyond BIGINT) is NULL, not a failed load", async () => {
    const dir = join(tempRoot(), 'sentinel')
    const w = newWriter(dir)
    const s = snap(0, { latFirstMin: 2 ** 64, latFirstMax: 0, timestamp: 5 })
    w.append({ t: 'snapshot', at: s.receivedAt, snapshot: s })
    w.close()
    const file = join(tempRoot(), 's.parquet')
    expect(await exportParquet(await openRecording(dir), 'snapshots', file)).toBe(1)
    expect(await readParquet(file, 'select lat_first_min, lat_first_max, timestamp from t')).toEqual([
      { lat_first_min: null, lat_first_max: 0, timestamp: 5 },
    ])
  })

  it('intervals: one row per sampler record, with the derived averages', async () => {
    const { recording, samples } = await recorded()
    const file = join(tempRoot(), 'intervals.parquet')
    expect(await exportParquet(recording, 'intervals', file)).toBe(samples.length)
    const rows = await readParquet(file, 'select * from t order by sample_index')
    expect(rows.map((r) => r['sample_index'])).toEqual(samples.map((_, i) => 100 + i))
    expect(rows.map((r) => r['mrd_bytes'])).toEqual(samples.map((s) => s.mrdBytes))
    expect(rows[1]!['outstanding_avg']).toBeCloseTo(samples[1]!.occSum / samples[1]!.cycles, 12)
    expect(rows[1]!['latency_avg_cycles']).toBeCloseTo(samples[1]!.latSum / samples[1]!.latCount, 12)
    const [{ total }] = (await readParquet(file, 'select sum(mrd_count) as total from t')) as [{ total: number }]
    expect(total).toBe(samples.reduce((a, s) => a + s.mrdCount, 0))
  })

  it('runs: the workload and probe window of each run', async () => {
    const { recording } = await recorded()
    const file = join(tempRoot(), 'runs.parquet')
    expect(await exportParquet(recording, 'runs', file)).toBe(1)
    const [run] = await readParquet(file)
    expect(run).toMatchObject({
      run_id: 1,
      origin: 'capture',
      pattern: 'merged-aligned',
      bytes: 65536,
      probe_from: 10_000,
      probe_to: 17_000,
    })
    expect(JSON.parse(run!['result_json'] as string)).toEqual({ ok: true })
  })

  it('a killed recording exports up to its last complete line and leaves no temporary file', async () => {
    const dir = join(tempRoot(), 'killed')
    const w = newWriter(dir)
    writeRun(w)
    killWriter(dir, w)
    const out = tempRoot()
    const stats = newReadStats()
    expect(await exportParquet(await openRecording(dir), 'snapshots', join(out, 's.parquet'), stats)).toBe(8)
    expect(stats.torn).toBe(1)
    expect(readdirSync(out)).toEqual(['s.parquet'])
  })

  it('an unknown table is a usage error, and nothing is written', async () => {
    const { recording } = await recorded()
    const file = join(tempRoot(), 'x.parquet')
    await expect(exportParquet(recording, 'frames; drop table runs', file)).rejects.toMatchObject({ code: 'PS_USAGE' })
    expect(existsSync(file)).toBe(false)
  })
})
