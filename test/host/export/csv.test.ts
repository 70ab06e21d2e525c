import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openRecording } from '../../../host/src/recording/catalog.js'
import { csvHeader } from '../../../host/src/export/csv.js'
import { exportRecording } from '../../../host/src/export/formats.js'
import { newReadStats } from '../../../host/src/recording/reader.js'
import { COUNTERS } from '../../../host/src/core/generated.js'
import { Recorder } from '../../../host/src/recording/recorder.js'
import { loadRecording, runQuery } from '../../../host/src/recording/duckdb.js'
import { hostSideOf, killWriter, newWriter, probeInfo, removeRoots, snap, tempRoot, writeRun } from '../recording/fixtures.js'

afterEach(removeRoots)

const text = async (chunks: AsyncIterable<string>): Promise<string> => {
  let s = ''
  for await (const c of chunks) s += c
  return s
}

describe('CSV export', () => {
  it('has time_s, exactly the generated counter list, tap, epoch, then the GPU counter columns as its header', () => {
    expect(csvHeader()).toEqual([
      'time_s',
      ...COUNTERS.map((c) => c.name),
      'tap',
      'epoch',
      'gpu_counter_source',
      'gpu_start_ns',
      'gpu_end_ns',
      'gpu_samples',
      'gpu_lost',
      'gpu_read_bytes',
      'gpu_write_bytes',
      'gpu_read_gbps',
      'gpu_requests_per_s',
      'gpu_mean_request_bytes',
    ])
    expect(csvHeader()).toContain('MRD_128') // the list is the spec's, not empty
  })

  it('writes one row per snapshot: probe seconds, then every counter', async () => {
    const dir = join(tempRoot(), 'csv')
    const w = newWriter(dir)
    const snaps = writeRun(w)
    w.close()
    const lines = (await text(exportRecording(await openRecording(dir), 'csv'))).trimEnd().split('\n')
    expect(lines[0]).toBe(csvHeader().join(','))
    expect(lines).toHaveLength(1 + snaps.length)
    const last = lines.at(-1)!.split(',')
    const col = (name: string) => last[csvHeader().indexOf(name)]
    expect(Number(col('time_s'))).toBeCloseTo(17_000 / 250e6, 12)
    expect(col('TIMESTAMP')).toBe('17000')
    expect(col('MRD_128')).toBe('512')
    expect(col('MRD_BYTES')).toBe(String(512 * 128))
  })

  it('leaves a latency minimum empty while nothing completed, not 18446744073709552000', async () => {
    const dir = join(tempRoot(), 'csv-nothing-completed')
    const w = newWriter(dir)
    const allOnes = 2 ** 64 - 1 // what the probe holds in LAT_*_MIN while LAT_*_COUNT is 0
    w.append({ t: 'snapshot', at: 1, snapshot: snap(1, { timestamp: 1000, latFirstMin: allOnes, latLastMin: allOnes }) })
    w.append({ t: 'snapshot', at: 2, snapshot: snap(2, { timestamp: 2000, latFirstMin: 250, latFirstCount: 3, latLastMin: allOnes }) })
    w.close()
    const rows = (await text(exportRecording(await openRecording(dir), 'csv'))).trimEnd().split('\n').slice(1)
    const col = (row: string, name: string) => row.split(',')[csvHeader().indexOf(name)]
    expect(col(rows[0]!, 'LAT_FIRST_MIN')).toBe('')
    expect(col(rows[0]!, 'LAT_LAST_MIN')).toBe('')
    expect(col(rows[1]!, 'LAT_FIRST_MIN')).toBe('250')
    expect(col(rows[1]!, 'LAT_LAST_MIN')).toBe('')
    expect(rows.join('\n')).not.toContain('18446744073709552000')
  })

  it('across a device restart: time_s never goes backwards, each row names its epoch, and (epoch, snapshot index) joins one to one', async () => {
    const dir = join(tempRoot(), 'two-lives')
    const rec = new Recorder(newWriter(dir))
    rec.device('connect', probeInfo())
    const life = (from: number) => {
      for (let i = 0; i < 4; i++) {
        const s = snap(i, { timestamp: 1_000 + 25_000 * i }, { receivedAt: from + 100 * i })
        rec.snapshot(s)
        rec.tapSnapshot({ ...hostSideOf(s), receivedAt: from + 100 * i })
      }
    }
    life(1_700_000_000_000)
    rec.device('disconnect', null, { code: 'PS_TWIN_EXITED', message: 'the twin was killed by SIGKILL' })
    rec.device('reconnect', probeInfo()) // a restarted twin: snapshot indexes and probe time from 0 again
    life(1_700_000_002_000)
    rec.close()
    const rows = (await text(exportRecording(await openRecording(dir), 'csv'))).trimEnd().split('\n').slice(1)
    const col = (row: string, name: string) => row.split(',')[csvHeader().indexOf(name)]!
    const times = rows.map((r) => Number(col(r, 'time_s')))
    expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true)
    expect(rows.map((r) => col(r, 'epoch'))).toEqual([...Array(8).fill('0'), ...Array(8).fill('1')])
    // the second life starts after the first ended plus the 1.7 s the device was away
    expect(times[8]! - times[7]!).toBeGreaterThan(1.5)
    const loaded = await loadRecording(await openRecording(dir))
    try {
      const join = (on: string) => runQuery(loaded, `select count(*) from snapshots s join tap_snapshots t on ${on}`)
      expect((await join('s.epoch = t.epoch and s.snapshot_index = t.snapshot_index')).rows[0]![0]).toBe(8)
      expect((await join('s.snapshot_index = t.snapshot_index')).rows[0]![0]).toBe(16) // what the index alone gave
    } finally {
      loaded.close()
    }
  })

  it('exports a killed recording up to its last complete line', async () => {
    const dir = join(tempRoot(), 'killed')
    const w = newWriter(dir)
    writeRun(w)
    killWriter(dir, w)
    const recording = await openRecording(dir)
    expect(recording.status).toBe('interrupted')
    const stats = newReadStats()
    const lines = (await text(exportRecording(recording, 'csv', stats))).trimEnd().split('\n')
    expect(lines).toHaveLength(1 + 8)
    expect(stats.torn).toBe(1)
  })
})

describe('JSONL export', () => {
  it('writes the records, one JSON object per line', async () => {
    const dir = join(tempRoot(), 'jsonl')
    const w = newWriter(dir)
    writeRun(w)
    w.close()
    const lines = (await text(exportRecording(await openRecording(dir), 'jsonl'))).trimEnd().split('\n')
    expect(lines.map((l) => (JSON.parse(l) as { t: string }).t)).toEqual([
      'device',
      'snapshot',
      'run-start',
      ...Array(7).fill('snapshot'),
      'run',
    ])
  })
})
