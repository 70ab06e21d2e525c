import type * as nodeFs from 'node:fs'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'

// fsync and write, observed: which files were synced, and a switch to make writes fail
const fsState = vi.hoisted(() => ({ synced: [] as string[], failWrites: false }))
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof nodeFs>()
  return {
    ...fs,
    fsyncSync: (fd: number) => {
      fsState.synced.push(fs.readlinkSync(`/proc/self/fd/${fd}`))
      fs.fsyncSync(fd)
    },
    writeSync: (...args: Parameters<typeof fs.writeSync>) => {
      if (fsState.failWrites) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })
      return (fs.writeSync as (...a: unknown[]) => number)(...args)
    },
  }
})

import { MANIFEST_FILE, segmentName, type RecordingManifest, type AnyRecord } from '../../../host/src/recording/format.js'
import { readRecords } from '../../../host/src/recording/reader.js'
import { RecordingWriter, claimRecordingDir } from '../../../host/src/recording/writer.js'
import { newWriter, probeInfo, removeRoots, snap, tempRoot, WORKLOAD, writeRun } from './fixtures.js'

afterEach(() => {
  removeRoots()
  fsState.synced = []
  fsState.failWrites = false
})

const manifestOf = (dir: string): RecordingManifest => JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as RecordingManifest
const all = async (dir: string): Promise<AnyRecord[]> => {
  const out: AnyRecord[] = []
  for await (const r of readRecords(dir)) out.push(r)
  return out
}

describe('RecordingWriter', () => {
  it('writes records that read back equal and in order (round trip)', async () => {
    const dir = join(tempRoot(), 'round-trip')
    const w = newWriter(dir)
    const written: AnyRecord[] = [
      { t: 'device', at: 1, event: 'connect', info: probeInfo(), error: null },
      { t: 'mark', at: 2, label: 'start', note: '100 ms' },
      { t: 'run-start', at: 3, id: 7, origin: 'manual', workload: WORKLOAD, baseline: snap(0, { timestamp: 5 }) },
      { t: 'snapshot', at: 4, snapshot: snap(1, { timestamp: 99, mrd128: 3 }) },
      {
        t: 'run',
        at: 5,
        id: 7,
        origin: 'manual',
        workload: WORKLOAD,
        probeWindow: { from: 5, to: 99 },
        error: null,
        result: { any: ['json'] },
      },
      { t: 'device', at: 6, event: 'disconnect', info: null, error: { code: 'PS_TWIN_EXITED', message: 'gone' } },
    ]
    for (const r of written) w.append(r)
    expect(w.records).toBe(written.length)
    w.close()
    expect(await all(dir)).toEqual(written)
  })

  it('writes a recording manifest at once and a complete one, with what it sealed, at close', () => {
    const dir = join(tempRoot(), 'manifest')
    const times = [new Date('2025-01-02T03:04:05.000Z'), new Date('2025-01-02T03:04:15.500Z')]
    const w = newWriter(dir, { now: () => times.shift()! })
    const m0 = manifestOf(dir)
    expect(m0).toMatchObject({
      format: 'pcie-scope-recording',
      formatVersion: 1,
      name: 'manifest',
      status: 'recording',
      source: 'twin',
      probe: { firmwareVersion: 0x0100, probeId: 0x50435343, clockHz: 250e6 },
      writer: { pid: process.pid },
      workloads: [WORKLOAD],
      startedAt: '2025-01-02T03:04:05.000Z',
      stoppedAt: null,
      sealed: { segments: 0, records: 0 },
    })
    expect(m0.pcieScopeVersion).toMatch(/^\d+\.\d+\.\d+/)
    writeRun(w)
    w.close()
    const m = manifestOf(dir)
    expect(m).toMatchObject({ status: 'complete', stoppedAt: '2025-01-02T03:04:15.500Z', runs: 1, sealed: { segments: 1, records: 11 } })
    // what it holds, by type, without reading it
    expect(m.sealed.byType).toEqual({ device: 1, snapshot: 8, 'run-start': 1, run: 1 })
    expect(readdirSync(dir).sort()).toEqual([MANIFEST_FILE, segmentName(1)]) // no temporary file left behind
  })

  it('rolls to a new segment before one would pass the size limit, and fsyncs each as it rolls and closes', async () => {
    const dir = join(tempRoot(), 'roll')
    const w = newWriter(dir, { segmentBytes: 2048 })
    const snaps = Array.from({ length: 40 }, (_, i) => snap(i, { timestamp: i * 10 }))
    for (const s of snaps) w.append({ t: 'snapshot', at: s.receivedAt, snapshot: s })
    const files = readdirSync(dir)
      .filter((f) => f.startsWith('segment-'))
      .sort()
    expect(files.length).toBeGreaterThan(3)
    expect(fsState.synced.filter((p) => p.endsWith('.jsonl'))).toEqual(files.slice(0, -1).map((f) => join(dir, f)))
    // the manifest knows what is sealed while the recording still records
    expect(manifestOf(dir).sealed.segments).toBe(files.length - 1)
    w.close()
    expect(fsState.synced.filter((p) => p.endsWith('.jsonl'))).toEqual(files.map((f) => join(dir, f)))
    for (const f of files) expect(statSync(join(dir, f)).size).toBeLessThanOrEqual(2048)
    const back = await all(dir)
    expect(back.map((r) => (r.t === 'snapshot' ? r.snapshot.index : -1))).toEqual(snaps.map((s) => s.index))
    expect(manifestOf(dir).sealed).toMatchObject({ segments: files.length, records: 40 })
  })

  it('puts a record larger than the limit in a segment of its own', async () => {
    const dir = join(tempRoot(), 'big')
    const w = newWriter(dir, { segmentBytes: 64 })
    w.append({ t: 'mark', at: 1, label: 'a', note: null })
    w.append({ t: 'mark', at: 2, label: 'x'.repeat(500), note: null })
    w.close()
    expect(readdirSync(dir).filter((f) => f.startsWith('segment-'))).toHaveLength(2)
    expect((await all(dir)).map((r) => r.at)).toEqual([1, 2])
  })

  it('refuses a directory that holds anything, takes an empty one, and checks the name', () => {
    const root = tempRoot()
    const used = join(root, 'used')
    claimRecordingDir(used)
    writeFileSync(join(used, 'notes.txt'), 'mine')
    expect(() => newWriter(used)).toThrow(expect.objectContaining({ code: 'PS_RECORDING_EXISTS' }))
    expect(readFileSync(join(used, 'notes.txt'), 'utf8')).toBe('mine')
    const empty = join(root, 'empty')
    claimRecordingDir(empty)
    expect(() => newWriter(empty).close()).not.toThrow()
    expect(() => newWriter(join(root, '.hidden'))).toThrow(expect.objectContaining({ code: 'PS_RECORDING_NAME_INVALID' }))
  })

  it('refuses records after close; close is idempotent', () => {
    const w = newWriter(join(tempRoot(), 'closed'))
    w.close()
    w.close()
    expect(() => w.append({ t: 'mark', at: 1, label: 'late', note: null })).toThrow(expect.objectContaining({ code: 'PS_RECORDING_IO' }))
  })

  it('a failed write stops the writer, and close then marks the recording interrupted with why', () => {
    const dir = join(tempRoot(), 'full-disk')
    const w = newWriter(dir)
    w.append({ t: 'mark', at: 1, label: 'ok', note: null })
    fsState.failWrites = true
    expect(() => w.append({ t: 'mark', at: 2, label: 'lost', note: null })).toThrow(/ENOSPC/)
    fsState.failWrites = false
    expect(() => w.append({ t: 'mark', at: 3, label: 'after', note: null })).toThrow(/ENOSPC/)
    w.close('complete')
    expect(manifestOf(dir)).toMatchObject({
      status: 'interrupted',
      note: expect.stringMatching(/recording failed.*ENOSPC/),
      sealed: { records: 1 },
    })
  })

  it('keeps the distinct workloads of the runs and counts the runs', () => {
    const dir = join(tempRoot(), 'runs')
    const w = RecordingWriter.create(dir, {
      source: 'serial',
      path: '/dev/ttyUSB0',
      probe: probeInfo(),
      link: { name: 'gen3x16', tlpBytesPerSecond: 1 },
    })
    const strided = { pattern: 'strided', bytes: 4096, offset: 0 } as const
    for (const [id, wl] of [
      [1, strided],
      [2, WORKLOAD],
      [3, strided],
    ] as const)
      w.append({ t: 'run-start', at: id, id, origin: 'demo', workload: wl, baseline: null })
    w.close()
    expect(manifestOf(dir)).toMatchObject({ source: 'serial', link: { name: 'gen3x16' }, runs: 3, workloads: [strided, WORKLOAD] })
  })
})
