import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { describeRecording, listRecordings, summarizeRecording } from '../../../host/src/recording/catalog.js'
import { CLOCK_HZ, killWriter, newWriter, removeRoots, snap, tempRoot, WORKLOAD, writeRun } from './fixtures.js'

afterEach(removeRoots)

describe('listRecordings', () => {
  it('lists complete, live and killed recordings; a killed one as interrupted with its readable records', async () => {
    const root = tempRoot()
    const done = newWriter(join(root, 'a-done'), { now: () => new Date('2025-01-01T00:00:00Z') })
    writeRun(done)
    done.close()
    const killed = newWriter(join(root, 'b-killed'), { now: () => new Date('2025-01-01T00:01:00Z') })
    writeRun(killed)
    killWriter(join(root, 'b-killed'), killed)
    const live = newWriter(join(root, 'c-live'), { now: () => new Date('2025-01-01T00:02:00Z') })
    live.append({ t: 'mark', at: Date.parse('2025-01-01T00:02:03Z'), label: 'start', note: null })
    mkdirSync(join(root, 'not-a-recording'))
    writeFileSync(join(root, 'loose-file.txt'), '')

    const l = await listRecordings(root)
    expect(l.recordings.map((c) => [c.name, c.status, c.records, c.runs])).toEqual([
      ['a-done', 'complete', 11, 1],
      ['b-killed', 'interrupted', 11, 1],
      ['c-live', 'recording', 1, 0],
    ])
    const killedSummary = l.recordings[1]!
    expect(killedSummary).toMatchObject({ torn: 1, workloads: [WORKLOAD], stoppedAt: null, note: expect.stringMatching(/writer/) })
    expect(l.recordings[2]!.durationSeconds).toBe(3)
    expect(l.skipped).toEqual([{ name: 'not-a-recording', code: 'PS_RECORDING_NOT_FOUND', message: expect.any(String) }])
    live.close()
  })

  it('an empty list for a root that does not exist', async () => {
    expect(await listRecordings(join(tempRoot(), 'nowhere'))).toMatchObject({ recordings: [], skipped: [] })
  })
})

describe('summarizeRecording', () => {
  it('adds the unsealed tail of a rolled recording still in status recording to what the manifest sealed', async () => {
    const dir = join(tempRoot(), 'rolling')
    const w = newWriter(dir, { segmentBytes: 1500 })
    for (let i = 0; i < 30; i++) w.append({ t: 'snapshot', at: i, snapshot: snap(i, {}) })
    w.append({ t: 'run-start', at: 30, id: 1, origin: 'demo', workload: { pattern: 'strided', bytes: 128, offset: 0 }, baseline: null })
    const s = await summarizeRecording(dir)
    expect(s).toMatchObject({ status: 'recording', records: 31, runs: 1 })
    expect(s.workloads.map((x) => x.pattern)).toEqual(['merged-aligned', 'strided'])
    w.close()
  })
})

describe('describeRecording', () => {
  it('counts the records by type and gives the probe-time span of the snapshots', async () => {
    const dir = join(tempRoot(), 'described')
    const w = newWriter(dir)
    writeRun(w)
    w.close()
    const d = await describeRecording(dir)
    expect(d.byType).toEqual({
      snapshot: 8,
      interval: 0,
      histogram: 0,
      'tap-snapshot': 0,
      'tap-histogram': 0,
      'run-start': 1,
      run: 1,
      device: 1,
      mark: 0,
      gap: 0,
      frame: 0,
      'gpu-counters': 0,
    })
    expect(d.read).toMatchObject({ segments: 1, torn: 0, invalid: 0 })
    expect(d.probeTime).toEqual({ firstSeconds: 10_000 / CLOCK_HZ, lastSeconds: 17_000 / CLOCK_HZ })
    expect(d.manifest.probe.probeId).toBe(0x50435343)
  })
})
