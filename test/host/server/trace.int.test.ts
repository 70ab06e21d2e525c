/**
 * POST /api/trace on `serve --twin` (needs `npm run build:twin`): the trace armed around one run
 * in the run service's turn, read back and paired, the same report `pcie-scope trace --json`
 * prints; trigger conditions and their conjunctions, the filter, the host side's tap; a bad
 * trigger, filter, body or tap is 400 before anything runs.
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
      firstLatencySumClocks: rep.tracker?.firstLatencySumClocks,
      lastLatencySumClocks: rep.tracker?.lastLatencySumClocks,
    })
  })

  it('an address trigger with records before it', { timeout: 30_000 }, async () => {
    const r = await post({ pattern: 'merged-aligned', bytes: 16384, trigger: 'addr=0x100001000:0x100001000', pre: 8 })
    expect(r.status).toBe(200)
    const rep = (await r.json()) as TraceReport
    expect(rep).toMatchObject({ triggered: true, triggerIndex: 8, triggerRecord: { kind: 'MRD', address: 0x100001000 } })
    expect(rep.records).toBe(2 * 128 - 24)
  })

  it('type=cpld & tag=N fires on the first completion of tag N', { timeout: 30_000 }, async () => {
    // 256 reads go through every tag whichever the GPU model starts from; pre beyond the run's
    // records: the trace holds every record since ARM
    const r = await post({ pattern: 'merged-aligned', bytes: 32768, trigger: 'type=cpld & tag=5', pre: 1000 })
    expect(r.status).toBe(200)
    const rep = (await r.json()) as TraceReport
    expect(rep).toMatchObject({ triggered: true, triggerRecord: { kind: 'CPLD', tag: 5 }, records: 512, unexpected: [] })
    const firstOfTag = rep.reads.find((x) => x.tag === 5)!
    expect(rep.triggerIndex).toBe(firstOfTag.records[1])
    // no completion of another read of tag 5 came before it
    expect(rep.reads.filter((x) => x.tag === 5 && x.records.slice(1).some((i) => i < rep.triggerIndex!))).toEqual([])
  })

  it('outstanding>N fires where the reads in flight first pass N', { timeout: 30_000 }, async () => {
    const r = await post({ pattern: 'merged-aligned', bytes: 65536, trigger: 'outstanding>100', pre: 3000 })
    expect(r.status).toBe(200)
    const rep = (await r.json()) as TraceReport
    expect(rep).toMatchObject({ triggered: true, trigger: 'outstanding>100' })
    const at = rep.triggerIndex!
    // the reads the trace shows in flight at a record: requested before it, not yet ended by then
    const inFlight = (i: number) => rep.reads.filter((x) => x.record < i && (x.end === 'open' || x.records.at(-1)! >= i)).length
    expect(rep.reads[0]!.record).toBe(0) // the trace starts with the run: every read is counted
    // with the trigger record more than 100 are in flight; a few records before, not yet
    expect(inFlight(at + 1)).toBeGreaterThan(100)
    expect(inFlight(at - 4)).toBeLessThanOrEqual(100)
  })

  it('tap 1: the host side’s records, with the host side’s tracker', { timeout: 30_000 }, async () => {
    const body = { pattern: 'merged-aligned', bytes: 4096 }
    const host = (await (await post({ ...body, tap: 1 })).json()) as TraceReport
    const gpu = (await (await post(body)).json()) as TraceReport
    expect(host).toMatchObject({ tap: 1, records: 64, triggered: true, lost: 0, tracker: { reads: 32, cpldBytes: 4096 } })
    expect(host.paired).toMatchObject({
      done: 32,
      firstLatencySumClocks: host.tracker!.firstLatencySumClocks,
      lastLatencySumClocks: host.tracker!.lastLatencySumClocks,
    })
    // the host side's latency is the host's alone: below the GPU side's, which adds the switch
    expect(host.paired.firstLatencySumClocks).toBeLessThan(gpu.paired.firstLatencySumClocks)
    expect(gpu.paired.firstLatencySumClocks).toBe(gpu.tracker!.firstLatencySumClocks)
  })

  it('a filter keeps only what it names', { timeout: 30_000 }, async () => {
    const r = await post({ pattern: 'merged-aligned', bytes: 16384, filter: 'type=mrd|cpld & addr=0x100001000:0x100001fff' })
    expect(r.status).toBe(200)
    const rep = (await r.json()) as TraceReport
    expect(rep).toMatchObject({ filter: 'type=mrd|cpld & addr=0x100001000:0x100001fff', records: 64, lost: 0, unexpected: [] })
    expect(rep.reads).toHaveLength(32)
    expect(rep.reads.every((x) => x.address >= 0x100001000 && x.address <= 0x100001fff && x.end === 'done')).toBe(true)
    expect(rep.tracker?.reads).toBe(128) // the tracker counts every read; the trace keeps the window's
  })

  it('a bad trigger, pattern or key is 400 PS_REQUEST_INVALID naming the field', async () => {
    for (const bad of [
      { pattern: 'strided', bytes: 4096, trigger: 'sometimes' },
      { pattern: 'nope', bytes: 4096 },
      { pattern: 'strided', bytes: 4096, pre: -1 },
      { pattern: 'strided', bytes: 4096, tap: 2 },
      { pattern: 'strided', bytes: 4096, key: 1 },
    ]) {
      const r = await post(bad)
      expect(r.status, JSON.stringify(bad)).toBe(400)
      const b = (await r.json()) as { error: { code: string; details?: unknown } }
      expect(b.error.code).toBe('PS_REQUEST_INVALID')
    }
    for (const [field, bad] of [
      ['filter', { filter: 'tag=3' }],
      ['trigger', { trigger: 'type=cpld & tag=1024' }],
      ['tap', { tap: 2 }],
    ] as const) {
      const f = await post({ pattern: 'strided', bytes: 4096, ...bad })
      expect(f.status).toBe(400)
      expect(((await f.json()) as { error: { details: { properties: Record<string, unknown> } } }).error.details.properties).toHaveProperty(
        field,
      )
    }
    const r = await post({ pattern: 'strided', bytes: 4096, trigger: 'latency>99999999ms' }) // beyond 2^32 clocks
    expect(r.status).toBe(400)
    expect(((await r.json()) as { error: { details: { properties: Record<string, unknown> } } }).error.details.properties).toHaveProperty(
      'trigger',
    )
  })
})

describe('POST /api/trace on the BAR design', () => {
  let server: RunningServer | undefined
  afterAll(async () => {
    await server?.close()
  })

  it('tap 1 is 400 PS_REQUEST_INVALID naming its one tap; tap 0 traces', { timeout: 30_000 }, async () => {
    server = await startServer({ twin: true, mode: 'endpoint', http: { host: '127.0.0.1', port: 0 }, gpu: false })
    const post = (b: unknown) =>
      fetch(`${new URL(server!.url).origin}/api/trace`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${server!.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(b),
      })
    const r = await post({ pattern: 'merged-aligned', bytes: 4096, tap: 1 })
    expect(r.status).toBe(400)
    expect(((await r.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: 'PS_REQUEST_INVALID',
      message: 'tap 1: this design has one tap: 0 (gpuSide)',
    })
    const body = { pattern: 'merged-aligned', bytes: 4096, trigger: 'type=cpld & status=sc & len=32' }
    // the counters stopped: the trace still comes, without tracker figures
    const stopped = await post(body)
    expect(stopped.status).toBe(200)
    expect(await stopped.json()).toMatchObject({ tap: 0, triggered: true, triggerRecord: { kind: 'CPLD' }, tracker: null })
    const start = await fetch(`${new URL(server.url).origin}/api/start`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
      body: '{}',
    })
    expect(start.status).toBe(200)
    expect(await (await post(body)).json()).toMatchObject({ triggered: true, tracker: { reads: 32, cpldBytes: 4096 } })
  })
})
