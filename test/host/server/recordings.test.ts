import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { killWriter, newWriter, removeRoots, tempRoot, writeRun } from '../recording/fixtures.js'
import { closeServers, http, serve, TOKEN } from './helpers.js'
import { DuckDBInstance } from '@duckdb/node-api'
import { quoteLiteral } from '../../../host/src/recording/duckdb.js'
import { Recorder } from '../../../host/src/recording/recorder.js'
import { buildRawFrame } from '../../../host/src/protocol/frame.js'
import { FRAME_TYPE } from '../../../host/src/core/generated.js'

afterEach(async () => {
  await closeServers()
  removeRoots()
})

/** A root with one complete recording and one whose writer was killed. */
const rootWithRecordings = (): string => {
  const root = tempRoot()
  const done = newWriter(join(root, 'done'))
  writeRun(done)
  done.close()
  const killed = newWriter(join(root, 'killed'))
  writeRun(killed)
  killWriter(join(root, 'killed'), killed)
  return root
}

describe('GET /api/recordings', () => {
  it('lists the recordings in the folder, a killed one as interrupted', async () => {
    const root = rootWithRecordings()
    const { base } = await serve({ recordings: { dir: root, record: false } })
    const r = await http(base, 'GET', '/api/recordings', { token: TOKEN })
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({ root, recording: null, skipped: [] })
    expect(r.json.recordings.map((c: any) => [c.name, c.status, c.records])).toEqual([
      ['done', 'complete', 11],
      ['killed', 'interrupted', 11],
    ])
    // what each holds, so the page offers only the exports it can give (no frames: no pcapng;
    // no interval records: no VCD); a killed writer's unsealed records are counted too
    const held = { device: 1, snapshot: 8, 'run-start': 1, run: 1 }
    expect(r.json.recordings.map((c: any) => c.contents)).toEqual([held, held])
  })

  it('says it cannot tell what a recording holds whose manifest does not count its records', async () => {
    const root = rootWithRecordings()
    const file = join(root, 'done', 'manifest.json')
    const m = JSON.parse(readFileSync(file, 'utf8'))
    delete m.sealed.byType
    writeFileSync(file, JSON.stringify(m))
    const { base } = await serve({ recordings: { dir: root, record: false } })
    const r = await http(base, 'GET', '/api/recordings', { token: TOKEN })
    expect(r.json.recordings.find((c: any) => c.name === 'done').contents).toBeNull()
  })

  it('is token-protected like the rest of the API', async () => {
    const { base } = await serve({ recordings: { dir: rootWithRecordings(), record: false } })
    expect((await http(base, 'GET', '/api/recordings')).status).toBe(401)
    expect((await http(base, 'GET', '/api/recordings/done')).status).toBe(401)
    expect((await http(base, 'GET', '/api/recordings/done', { token: 'wrong' })).json.error.code).toBe('PS_HTTP_UNAUTHORIZED')
  })

  it('lists nothing on a server without a recordings folder', async () => {
    const { base } = await serve()
    expect((await http(base, 'GET', '/api/recordings', { token: TOKEN })).json).toEqual({
      root: null,
      recording: null,
      recordings: [],
      skipped: [],
    })
    expect((await http(base, 'GET', '/api/recordings/done', { token: TOKEN })).status).toBe(404)
  })
})

describe('GET /api/recordings/:name', () => {
  it('describes one recording', async () => {
    const { base } = await serve({ recordings: { dir: rootWithRecordings(), record: false } })
    const r = await http(base, 'GET', '/api/recordings/killed', { token: TOKEN })
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({
      name: 'killed',
      status: 'interrupted',
      byType: { snapshot: 8, run: 1 },
      read: { torn: 1 },
      manifest: { probe: { probeId: 0x50435343 } },
    })
  })

  it('404 PS_RECORDING_NOT_FOUND for an unknown name and for a directory that is not a recording', async () => {
    const root = rootWithRecordings()
    mkdirSync(join(root, 'plain-dir'))
    const { base } = await serve({ recordings: { dir: root, record: false } })
    for (const name of ['nope', 'plain-dir']) {
      const r = await http(base, 'GET', `/api/recordings/${name}`, { token: TOKEN })
      expect(r.status, name).toBe(404)
      expect(r.json.error.code).toBe('PS_RECORDING_NOT_FOUND')
    }
  })

  it('400 PS_RECORDING_NAME_INVALID for names that would leave the root', async () => {
    const { base } = await serve({ recordings: { dir: rootWithRecordings(), record: false } })
    // sent as written: a URL object would resolve the dot segments away before they reach the server
    for (const name of ['..', '%2e%2e', '..%2Fdone', '%2Fetc', '.hidden', 'a%5Cb', '%00']) {
      const r = await rawGet(base, `/api/recordings/${name}`)
      expect(r.status, name).toBe(400)
      expect(JSON.parse(r.text).error.code, name).toBe('PS_RECORDING_NAME_INVALID')
    }
  })
})

/** GET with the path exactly as given (no URL normalisation), with the token. */
const rawGet = (base: string, path: string): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const u = new URL(base)
    const r = request({ host: u.hostname, port: u.port, path, headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
    })
    r.on('error', reject)
    r.end()
  })

describe('GET /api/recordings/:name/export', () => {
  it('downloads the exports of `pcie-scope export`, named after the recording', async () => {
    const { base } = await serve({ recordings: { dir: rootWithRecordings(), record: false } })
    const csv = await http(base, 'GET', '/api/recordings/done/export?format=csv', { token: TOKEN })
    expect(csv.status).toBe(200)
    expect(csv.headers['content-type']).toMatch(/^text\/csv/)
    expect(csv.headers['content-disposition']).toBe('attachment; filename=done.csv')
    const lines = csv.text.trim().split('\n')
    expect(lines[0]).toMatch(/^time_s,CYCLES,TIMESTAMP,/)
    expect(lines.length).toBeGreaterThan(1)
    const perfetto = await http(base, 'GET', '/api/recordings/killed/export?format=perfetto', { token: TOKEN })
    expect(perfetto.status).toBe(200)
    expect(perfetto.headers['content-disposition']).toBe('attachment; filename=killed.perfetto.json')
    expect(JSON.parse(perfetto.text).traceEvents.length).toBeGreaterThan(0)
    const jsonl = await http(base, 'GET', '/api/recordings/done/export?format=jsonl', { token: TOKEN })
    expect(
      jsonl.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).t),
    ).toContain('run')
  })

  it('refuses an unknown format (400), an unknown recording (404) and a missing token (401)', async () => {
    const { base } = await serve({ recordings: { dir: rootWithRecordings(), record: false } })
    const bad = await http(base, 'GET', '/api/recordings/done/export?format=xlsx', { token: TOKEN })
    expect([bad.status, bad.json.error.code]).toEqual([400, 'PS_REQUEST_INVALID'])
    expect((await http(base, 'GET', '/api/recordings/nope/export?format=csv', { token: TOKEN })).status).toBe(404)
    expect((await http(base, 'GET', '/api/recordings/done/export?format=csv')).status).toBe(401)
  })
})

describe('GET /api/recordings/:name/export: the binary formats', () => {
  const download = async (base: string, path: string) => {
    const res = await fetch(new URL(path, base), { headers: { authorization: `Bearer ${TOKEN}` } })
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) }
  }

  it('parquet: one table as a download DuckDB reads back', async () => {
    const { base } = await serve({ recordings: { dir: rootWithRecordings(), record: false } })
    const r = await download(base, '/api/recordings/done/export?format=parquet&table=runs')
    expect(r.status).toBe(200)
    expect(r.headers.get('content-disposition')).toBe('attachment; filename=done.runs.parquet')
    expect(r.headers.get('content-type')).toBe('application/vnd.apache.parquet')
    expect(r.bytes.subarray(0, 4).toString()).toBe('PAR1')
    const file = join(tempRoot(), 'runs.parquet')
    writeFileSync(file, r.bytes)
    const db = await DuckDBInstance.create(':memory:')
    const c = await db.connect()
    const rows = (await c.runAndReadAll(`select pattern, probe_to from read_parquet(${quoteLiteral(file)})`)).getRowsJS()
    c.closeSync()
    db.closeSync()
    expect(rows).toEqual([['merged-aligned', 17_000n]])
  })

  it('pcapng: 409 PS_RECORDING_NO_FRAMES for a recording without frames; a pcapng section for one with them', async () => {
    const root = rootWithRecordings()
    const rec = new Recorder(newWriter(join(root, 'framed')))
    rec.frame('rx', 1_700_000_000_000, buildRawFrame(FRAME_TYPE.RESPONSE, 1, Buffer.from([1, 0, 0, 0])))
    rec.close()
    const { base } = await serve({ recordings: { dir: root, record: false } })
    const none = await http(base, 'GET', '/api/recordings/done/export?format=pcapng', { token: TOKEN })
    expect(none.status).toBe(409)
    expect(none.json.error.code).toBe('PS_RECORDING_NO_FRAMES')
    const r = await download(base, '/api/recordings/framed/export?format=pcapng')
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('application/x-pcapng')
    expect(r.bytes.readUInt32LE(0)).toBe(0x0a0d0d0a) // Section Header Block
    expect(r.bytes.readUInt32LE(8)).toBe(0x1a2b3c4d) // little-endian byte-order magic
  })

  it('an unknown table is 400 PS_REQUEST_INVALID', async () => {
    const { base } = await serve({ recordings: { dir: rootWithRecordings(), record: false } })
    const r = await http(base, 'GET', '/api/recordings/done/export?format=parquet&table=secrets', { token: TOKEN })
    expect(r.status).toBe(400)
    expect(r.json.error.code).toBe('PS_REQUEST_INVALID')
  })
})
