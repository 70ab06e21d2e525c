/**
 * POST /api/run with a graph kernel against the real twin: the BFS runs through the RTL probe,
 * the answer carries the graph facts and the probe's deltas equal what the model issued, and the
 * session's recording names the graph workload.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { readRecords } from '../../../host/src/recording/reader.js'
import type { AnyRecord } from '../../../host/src/recording/format.js'
import { SIZE_CLASSES } from '../../../host/src/core/size-classes.js'
import type { RunReport } from '../../../host/src/core/wire.js'
import type { WorkloadResult } from '../../../host/src/core/workload.js'
import { startServer } from '../../../host/src/server/index.js'
import { http, TOKEN } from './helpers.js'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'ps-graph-run-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('POST /api/run: a graph kernel on the twin', () => {
  it('runs the BFS through the probe, answers with the graph facts, and records the graph workload', async () => {
    expect(existsSync(join(root, 'build/twin/pcie-scope-twin')), 'the twin is not built: run `npm run build:twin`').toBe(true)
    process.env.PCIE_SCOPE_CACHE = join(work, 'cache')
    const recordings = join(work, 'recordings')
    const srv = await startServer({
      twin: true,
      http: { host: '127.0.0.1', port: 0 },
      token: TOKEN,
      recordings: { dir: recordings, record: true },
      gpu: false, // the twin alone: whether this machine has a GPU does not matter here
    })
    try {
      const base = new URL(srv.url).origin
      expect((await http(base, 'POST', '/api/start', { token: TOKEN, body: { periodMs: 100 } })).status).toBe(200)
      const body = { pattern: 'bfs-aligned', graph: 'kron:8', idBytes: 4, source: 'twin' }
      const r = await http(base, 'POST', '/api/run', { token: TOKEN, body })
      expect(r.status, JSON.stringify(r.json)).toBe(200)
      const res = r.json as WorkloadResult & { report: RunReport }
      expect(res.workload).toEqual({ pattern: 'bfs-aligned', graph: 'kron:8', idBytes: 4 })
      expect(res.graph).toMatchObject({ graph: 'kron:8', vertices: 256, idBytes: 4 })
      expect(res.graph!.launches).toBeGreaterThan(1)
      const probe = res.report.probe
      expect(res.report.countersEnabled).toBe(true)
      expect(SIZE_CLASSES.reduce((n, c) => n + probe[c.counter], 0)).toBe(res.issued.count)
      expect(probe.mrdBytes).toBe(res.issued.bytes)
      // a root the graph does not have: the twin refuses it, the client hears why
      const root = await http(base, 'POST', '/api/run', { token: TOKEN, body: { ...body, sourceVertex: 256 } })
      expect(root.status).toBe(400)
      expect(root.json.error).toMatchObject({ code: 'PS_WORKLOAD_INVALID' })
      expect(root.json.error.message).toMatch(/PS_GRAPH_BAD_SOURCE: source 256 is not a vertex \(the graph has 256\)/)
      // refused before the twin is touched: the scale limit, named
      const big = await http(base, 'POST', '/api/run', { token: TOKEN, body: { ...body, graph: 'kron:30' } })
      expect(big.status).toBe(400)
      expect(JSON.stringify(big.json.error.details)).toContain("the server's limit, spec graphs.scale.serverMax")
    } finally {
      await srv.close()
    }
    const [name] = readdirSync(recordings)
    const records: AnyRecord[] = []
    for await (const rec of readRecords(join(recordings, name!))) records.push(rec)
    const run = records.find((x) => x.t === 'run')
    expect(run).toMatchObject({ workload: { pattern: 'bfs-aligned', graph: 'kron:8', idBytes: 4 }, error: null })
    expect(records.some((x) => x.t === 'run-start' && 'graph' in x.workload)).toBe(true)
  })
})
