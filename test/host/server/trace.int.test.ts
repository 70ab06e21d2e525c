/**
 * POST /api/trace on `serve --twin` (needs `npm run build:twin`): the trace armed around one run
 * in the run service's turn, read back and paired, the same report `pcie-scope trace --json`
 * prints; a bad trigger or body is 400 before anything runs.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TraceReport } from '../../../host/src/core/trace-report.js'
import { startServer, type RunningServer } from '../../../host/src/server/index.js'
import { packageRoot } from '../../../host/src/util/package-root.js'

const twin = process.env.PCIE_SCOPE_TWIN ?? join(packageRoot(), 'build/twin/pcie-scope-twin')

describe('POST /api/trace on the twin', () => {
  let server: RunningServer | undefined
  let base = ''
  let auth: Record<string, string> = {}
  beforeAll(async () => {
    expect(existsSync(twin), 'the twin is not built: run `npm run build:twin`').toBe(true)
    server = await startServer({ twin: true, http: { host: '127.0.0.1', port: 0 }, gpu: false })
    base = new URL(server.url).origin
    auth = { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' }
  }, 30_000)
  afterAll(async () => {
    await server?.close()
  })
  const post = (b: unknown) => fetch(`${base}/api/trace`, { method: 'POST', headers: auth, body: JSON.stringify(b) })

  it('forced: the whole run, every read paired and agreeing with the run’s tracker counters', { timeout: 30_000 }, async () => {
    expect((await fetch(`${base}/api/start`, { method: 'POST', headers: auth, body: '{"periodMs":100}' })).status).toBe(200)
    const r = await post({ pattern: 'merged-aligned', bytes: 4096 })
    expect(r.status).toBe(200)
    const rep = (await r.json()) as TraceReport
    expect(rep).toMatchObject({
      pattern: 'merged-aligned',
      bytes: 4096,
      trigger: 'force',
      tap: 0,
      records: 64,
      triggered: true,
      triggerIndex: 0,
      lost: 0,
    })
    expect(rep.reads).toHaveLength(32)
    // every record decoded beside the reads: each read's indices name its request and its completion
    expect(rep.tlps).toHaveLength(64)
    for (const x of rep.reads) expect(x.records.map((i) => rep.tlps[i]!.kind)).toEqual(['MRD', 'CPLD'])
    expect(rep.tlps[rep.reads[0]!.record]).toMatchObject({ address: rep.reads[0]!.address, tag: rep.reads[0]!.tag })
    expect(rep.reads.every((x) => x.end === 'done' && x.bytes === 128)).toBe(true)
    expect(rep.tracker).toMatchObject({ reads: 32, cpldBytes: 4096 })
    expect(rep.paired).toMatchObject({
      done: 32,
      bytes: 4096,
      firstLatencySumClocks: rep.tracker.firstLatencySumClocks,
      lastLatencySumClocks: rep.tracker.lastLatencySumClocks,
    })
  })

  it('an address trigger with records before it', { timeout: 30_000 }, async () => {
    const r = await post({ pattern: 'merged-aligned', bytes: 16384, trigger: 'addr=0x100001000:0x100001000', pre: 8 })
    expect(r.status).toBe(200)
    const rep = (await r.json()) as TraceReport
    expect(rep).toMatchObject({ triggered: true, triggerIndex: 8, triggerRecord: { kind: 'MRD', address: 0x100001000 } })
    expect(rep.records).toBe(2 * 128 - 24)
  })

  it('a bad trigger, pattern or key is 400 PS_REQUEST_INVALID naming the field', async () => {
    for (const bad of [
      { pattern: 'strided', bytes: 4096, trigger: 'sometimes' },
      { pattern: 'nope', bytes: 4096 },
      { pattern: 'strided', bytes: 4096, pre: -1 },
      { pattern: 'strided', bytes: 4096, tap: 1 },
    ]) {
      const r = await post(bad)
      expect(r.status, JSON.stringify(bad)).toBe(400)
      const b = (await r.json()) as { error: { code: string; details?: unknown } }
      expect(b.error.code).toBe('PS_REQUEST_INVALID')
    }
    const r = await post({ pattern: 'strided', bytes: 4096, trigger: 'latency>99999999ms' }) // beyond 2^32 clocks
    expect(r.status).toBe(400)
    expect(((await r.json()) as { error: { details: { properties: Record<string, unknown> } } }).error.details.properties).toHaveProperty(
      'trigger',
    )
  })
})
