/** GET /api/runs and POST /api/compare over the fake session: shapes, the recordings' runs, refusals as PS_ codes. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { closeServers, http, serve, TOKEN } from './helpers.js'
import type { RunEntry } from '../../../host/src/core/run-summary.js'

const roots: string[] = []
afterEach(async () => {
  await closeServers()
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true })
})
const tempRoot = () => {
  const r = mkdtempSync(join(tmpdir(), 'ps-runs-'))
  roots.push(r)
  return r
}

/** A server whose probe counts (START): a run's counters are then the workload's. */
const counting = async (o: Parameters<typeof serve>[0] = {}) => {
  // runs long enough for the fake's 100-ms tick to move its clock: probe time passes in each
  const s = await serve({ runDelayMs: 150, ...o })
  expect((await http(s.base, 'POST', '/api/start', { token: TOKEN, body: {} })).status).toBe(200)
  return s
}

const run = async (base: string, body: object) => {
  const r = await http(base, 'POST', '/api/run', { token: TOKEN, body })
  expect(r.status).toBe(200)
  return r.json
}

describe('GET /api/runs', () => {
  it("lists this server's runs newest first, each with its summary; the run reply carries it too", async () => {
    const { base } = await counting()
    const first = await run(base, { pattern: 'strided', bytes: 65536 })
    expect(first.report.summary.requests.count).toBe(2048)
    await run(base, { pattern: 'merged-aligned', bytes: 65536 })
    const r = await http(base, 'GET', '/api/runs', { token: TOKEN })
    expect(r.status).toBe(200)
    const runs = r.json.runs as RunEntry[]
    expect(runs.map((e) => [e.key, e.recording, e.workload.pattern, e.source, e.origin])).toEqual([
      ['server:2', null, 'merged-aligned', 'twin', 'manual'],
      ['server:1', null, 'strided', 'twin', 'manual'],
    ])
    expect(runs[1]!.summary.requests.bySize['32']).toBe(2048)
    expect(runs[0]!.summary.requests.meanBytes).toBe(128)
    expect(runs[0]!.summary.model).toEqual({ issued: 512, issuedBytes: 65536, matchesProbe: true })
    expect(runs[0]!.summary.wire.efficiency).toBeCloseTo(128 / 148)
    expect(r.json.skipped).toEqual([])
  })

  it('lists a recording’s runs under NAME#ID, the same key before and after the recording closes', async () => {
    const dir = tempRoot()
    const { base } = await counting({ recordings: { dir, record: true } })
    await run(base, { pattern: 'strided', bytes: 65536 })
    const before = (await http(base, 'GET', '/api/runs', { token: TOKEN })).json.runs as RunEntry[]
    expect(before).toHaveLength(1)
    const name = before[0]!.recording!
    expect(before[0]!.key).toBe(`${name}#1`)
    const stop = await http(base, 'POST', '/api/recording', { token: TOKEN, body: { action: 'stop' } })
    expect(stop.status).toBe(200)
    const after = (await http(base, 'GET', '/api/runs', { token: TOKEN })).json.runs as RunEntry[]
    // listed once: the server's own entry, not a second time from the recording on disk
    expect(after.map((e) => e.key)).toEqual([`${name}#1`])
  })

  it("lists a recording's runs from disk when this server did not make them", async () => {
    const dir = tempRoot()
    const first = await counting({ recordings: { dir, record: true } })
    await run(first.base, { pattern: 'strided', bytes: 65536 })
    await run(first.base, { pattern: 'merged-aligned', bytes: 65536 })
    await closeServers()
    const { base } = await counting({ recordings: { dir, record: false } })
    const runs = (await http(base, 'GET', '/api/runs', { token: TOKEN })).json.runs as RunEntry[]
    expect(runs.map((e) => [e.id, e.workload.pattern])).toEqual([
      [2, 'merged-aligned'],
      [1, 'strided'],
    ])
    expect(runs.every((e) => e.key === `${e.recording}#${e.id}`)).toBe(true)
    expect(runs[1]!.summary.requests.count).toBe(2048)
  })
})

describe('POST /api/compare', () => {
  it('puts two runs side by side with the sentence on why', async () => {
    const { base } = await counting()
    await run(base, { pattern: 'strided', bytes: 65536 })
    // the fake's runs take a tick or two whatever they read: four times the bytes is the faster run
    await run(base, { pattern: 'merged-aligned', bytes: 262144 })
    const r = await http(base, 'POST', '/api/compare', { token: TOKEN, body: { runs: ['server:1', 'server:2'] } })
    expect(r.status).toBe(200)
    expect(r.json.runs.map((e: RunEntry) => e.key)).toEqual(['server:1', 'server:2'])
    expect(r.json.metrics.find((m: { key: string }) => m.key === 'meanRequestBytes').values).toEqual([32, 128])
    expect(r.json.sentences).toHaveLength(1)
    expect(r.json.sentences[0]).toMatch(
      /^server #2 \(merged-aligned 262144 B\) is [\d.]+× faster than server #1 \(strided 65536 B\) .*: each read carries 128 B against 32 B/,
    )
  })

  it('answers the self-contained report with format html', async () => {
    const { base } = await counting()
    await run(base, { pattern: 'strided', bytes: 65536 })
    await run(base, { pattern: 'merged-aligned', bytes: 65536 })
    const r = await http(base, 'POST', '/api/compare', { token: TOKEN, body: { runs: ['server:2', 'server:1'], format: 'html' } })
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toMatch(/^text\/html/)
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="?pcie-scope-comparison\.html"?$/)
    expect(r.text).toMatch(/^<!doctype html>/)
    expect(r.text.match(/<svg class="bench-bars"/g)).toHaveLength(5)
  })

  it('refuses a body the schema refuses (PS_REQUEST_INVALID) and an unknown run (PS_RUN_NOT_FOUND)', async () => {
    const { base } = await counting()
    await run(base, { pattern: 'strided', bytes: 65536 })
    for (const body of [
      { runs: ['server:1'] },
      { runs: 'server:1' },
      { runs: ['server:1', 'server:1'], extra: 1 },
      { runs: ['a', 'b'], format: 'pdf' },
    ]) {
      const r = await http(base, 'POST', '/api/compare', { token: TOKEN, body })
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.json.error.code).toBe('PS_REQUEST_INVALID')
    }
    const r = await http(base, 'POST', '/api/compare', { token: TOKEN, body: { runs: ['server:1', 'server:9'] } })
    expect(r.status).toBe(404)
    expect(r.json.error.code).toBe('PS_RUN_NOT_FOUND')
    expect((await http(base, 'GET', '/api/runs')).status).toBe(401)
  })
})
