import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MANIFEST_FILE, ManifestSchema, type RecordingManifest } from '../../../host/src/recording/format.js'
import { effectiveStatus, readManifest } from '../../../host/src/recording/manifest.js'
import { deadPid, newWriter, removeRoots, tempRoot } from './fixtures.js'

afterEach(removeRoots)

const manifest = (): RecordingManifest => {
  const dir = join(tempRoot(), 'm')
  newWriter(dir).close()
  return JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as RecordingManifest
}

describe('effectiveStatus', () => {
  it('a recording in status recording whose writer is alive is recording; one whose writer is gone is interrupted', () => {
    const m = { ...manifest(), status: 'recording' as const, stoppedAt: null }
    expect(effectiveStatus(m).status).toBe('recording')
    const dead = { ...m, writer: { ...m.writer, pid: deadPid() } }
    expect(effectiveStatus(dead)).toMatchObject({ status: 'interrupted', note: expect.stringMatching(/ended without closing/) })
  })
  it('cannot judge a writer on another host: recording', () => {
    const m = { ...manifest(), status: 'recording' as const, writer: { host: 'elsewhere', pid: deadPid() } }
    expect(effectiveStatus(m, { host: 'here' }).status).toBe('recording')
  })
  it('a closed manifest says what it says', () => {
    expect(effectiveStatus(manifest()).status).toBe('complete')
    expect(effectiveStatus({ ...manifest(), status: 'interrupted', note: 'run failed' })).toEqual({
      status: 'interrupted',
      note: 'run failed',
    })
  })
})

describe('readManifest', () => {
  it('PS_RECORDING_NOT_FOUND without a manifest, PS_RECORDING_CORRUPT for one that is not JSON or not a manifest', async () => {
    const root = tempRoot()
    await expect(readManifest(join(root, 'none'))).rejects.toMatchObject({ code: 'PS_RECORDING_NOT_FOUND' })
    mkdirSync(join(root, 'bad'))
    writeFileSync(join(root, 'bad', MANIFEST_FILE), '{"format":')
    await expect(readManifest(join(root, 'bad'))).rejects.toMatchObject({ code: 'PS_RECORDING_CORRUPT' })
    writeFileSync(join(root, 'bad', MANIFEST_FILE), JSON.stringify({ ...manifest(), formatVersion: 99 }))
    await expect(readManifest(join(root, 'bad'))).rejects.toMatchObject({ code: 'PS_RECORDING_CORRUPT', message: /formatVersion/ })
  })
  it("reads a manifest written under the format's earlier name as the current format, and no other name", async () => {
    const root = tempRoot()
    mkdirSync(join(root, 'earlier'))
    writeFileSync(join(root, 'earlier', MANIFEST_FILE), JSON.stringify({ ...manifest(), format: 'pcie-scope-capture' }))
    expect((await readManifest(join(root, 'earlier'))).format).toBe('pcie-scope-recording')
    writeFileSync(join(root, 'earlier', MANIFEST_FILE), JSON.stringify({ ...manifest(), format: 'pcie-scope-trace' }))
    await expect(readManifest(join(root, 'earlier'))).rejects.toMatchObject({ code: 'PS_RECORDING_CORRUPT', message: /format/ })
  })
})

describe('ManifestSchema workloads', () => {
  it("keeps a workload's lane width and L1 use, and reads older workloads without them", () => {
    const m = manifest()
    const wide = { pattern: 'strided' as const, bytes: 4096, offset: 0, elementBytes: 16 as const, l1: 'bypass' as const }
    const old = { pattern: 'merged-aligned' as const, bytes: 4096, offset: 0 }
    expect(ManifestSchema.parse({ ...m, workloads: [wide, old] }).workloads).toEqual([wide, old])
    expect(ManifestSchema.safeParse({ ...m, workloads: [{ ...wide, elementBytes: 12 }] }).success).toBe(false)
  })
})
