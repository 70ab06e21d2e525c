import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../../host/src/server/index.js'
import { fakeSession, type FakeClient } from './fake-session.js'
import { http, openWs, wsUrl } from './helpers.js'

const TOKEN = 'test-token-0123456789'

let running: RunningServer[] = []
afterEach(async () => {
  await Promise.all(running.map((s) => s.close()))
  running = []
})

async function serve(o: { runner?: boolean; demo?: boolean; runDelayMs?: number; webRoot?: string } = {}) {
  const session = fakeSession({ runner: o.runner ?? true, runDelayMs: o.runDelayMs ?? 20 })
  const srv = await startServer({
    twin: true,
    http: { host: '127.0.0.1', port: 0 },
    token: TOKEN,
    session,
    demo: o.demo ?? false,
    ...(o.webRoot ? { webRoot: o.webRoot } : {}),
  })
  running.push(srv)
  return { srv, session, client: session.client as FakeClient, base: new URL(srv.url).origin }
}

describe('startServer', () => {
  it('listens on port 0 and returns a URL with the token', async () => {
    const { srv } = await serve()
    const u = new URL(srv.url)
    expect(u.hostname).toBe('127.0.0.1')
    expect(Number(u.port)).toBeGreaterThan(0)
    expect(u.searchParams.get('token')).toBe(TOKEN)
    expect(srv.token).toBe(TOKEN)
  })

  it('makes a random 32-byte token when none is given', async () => {
    const session = fakeSession()
    const srv = await startServer({ twin: true, http: { host: '127.0.0.1', port: 0 }, session })
    running.push(srv)
    expect(Buffer.from(srv.token, 'base64url')).toHaveLength(32)
  })

  it('reports an address in use as PS_HTTP_LISTEN with the way out', async () => {
    const { srv } = await serve()
    const port = Number(new URL(srv.url).port)
    const second = startServer({ twin: true, http: { host: '127.0.0.1', port }, session: fakeSession() })
    await expect(second).rejects.toMatchObject({ code: 'PS_HTTP_LISTEN', message: expect.stringMatching(/already in use.*--http/) })
  })

  it('does not close an injected session; close() is idempotent', async () => {
    const { srv, session } = await serve()
    await Promise.all([srv.close(), srv.close()])
    expect(session.closed).toBe(false)
  })
})

describe('REST auth and guards', () => {
  it('serves /api/health without a token', async () => {
    const { base } = await serve()
    const r = await http(base, 'GET', '/api/health')
    expect(r.status).toBe(200)
    expect(r.json).toEqual({ ok: true })
    expect(r.headers['x-powered-by']).toBeUndefined()
  })

  it('answers 401 without or with a wrong bearer token', async () => {
    const { base } = await serve()
    for (const token of [undefined, 'wrong', `${TOKEN}x`]) {
      const r = await http(base, 'GET', '/api/status', token ? { token } : {})
      expect(r.status).toBe(401)
      expect(r.json.error.code).toBe('PS_HTTP_UNAUTHORIZED')
    }
    const ok = await http(base, 'GET', '/api/status', { token: TOKEN })
    expect(ok.status).toBe(200)
  })

  it('answers 403 to a Host outside the allowlist (DNS rebinding), even for health', async () => {
    const { base } = await serve()
    for (const host of ['evil.example', 'evil.example:80', '127.0.0.1.nip.io']) {
      const r = await http(base, 'GET', '/api/health', { headers: { host } })
      expect(r.status).toBe(403)
      expect(r.json.error.code).toBe('PS_HTTP_FORBIDDEN')
    }
    for (const host of ['localhost:1234', '127.0.0.1', '[::1]:9']) {
      expect((await http(base, 'GET', '/api/health', { headers: { host } })).status).toBe(200)
    }
  })

  it('answers 404 JSON for unknown /api routes', async () => {
    const { base } = await serve()
    const r = await http(base, 'GET', '/api/nope', { token: TOKEN })
    expect(r.status).toBe(404)
    expect(r.json.error).toMatchObject({ code: 'PS_HTTP_NOT_FOUND' })
    expect((await http(base, 'DELETE', '/api/status', { token: TOKEN })).status).toBe(404)
  })

  it('validates bodies with zod: 400 with code, message and details', async () => {
    const { base } = await serve()
    const bad = [
      ['/api/run', { pattern: 'zigzag', bytes: 1024, offset: 0 }],
      ['/api/run', { pattern: 'strided', bytes: -1, offset: 0 }],
      ['/api/run', { pattern: 'strided', bytes: 1.5 }],
      ['/api/run', { pattern: 'strided', bytes: 4096, offset: 200 }],
      ['/api/run', { pattern: 'strided', bytes: 4002, offset: 0 }],
      ['/api/run', { pattern: 'strided', bytes: 4096, offset: 6 }],
      ['/api/run', { pattern: 'strided', bytes: 4096, extra: 1 }],
      ['/api/start', { periodMs: 0 }],
      ['/api/start', { periodMs: 9 }], // below the firmware's range (spec/protocol.json START)
      ['/api/start', { periodMs: 60_001 }],
      ['/api/start', { periodMs: 'fast' }],
      ['/api/clear', { now: true }],
    ] as const
    for (const [path, body] of bad) {
      const r = await http(base, 'POST', path, { token: TOKEN, body })
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(400)
      expect(r.json.error.code).toBe('PS_REQUEST_INVALID')
      expect(r.json.error.message).toBeTypeOf('string')
      expect(r.json.error.details).toBeTypeOf('object')
    }
    const run = await http(base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'zigzag', bytes: 1 } })
    expect(run.json.error.details.properties.pattern.errors[0]).toMatch(/strided/)
  })

  it('answers 400 to malformed JSON and 413 to a body over 64 kB', async () => {
    const { base } = await serve()
    const r = await http(base, 'POST', '/api/start', { token: TOKEN, rawBody: '{"periodMs":' })
    expect(r.status).toBe(400)
    expect(r.json.error.code).toBe('PS_REQUEST_INVALID')
    const big = await http(base, 'POST', '/api/start', { token: TOKEN, body: { pad: 'x'.repeat(70_000) } })
    expect(big.status).toBe(413)
    expect(big.json.error.code).toBe('PS_REQUEST_INVALID')
  })
})

describe('REST device routes', () => {
  it('start/stop/clear/snapshot drive the probe client', async () => {
    const { base, client } = await serve()
    expect((await http(base, 'POST', '/api/start', { token: TOKEN, body: { periodMs: 50 } })).json).toEqual({ ok: true, periodMs: 50 })
    expect((await http(base, 'POST', '/api/stop', { token: TOKEN })).status).toBe(200)
    expect((await http(base, 'POST', '/api/clear', { token: TOKEN, body: {} })).status).toBe(200)
    const snap = await http(base, 'POST', '/api/snapshot', { token: TOKEN })
    expect(snap.status).toBe(200)
    expect(snap.json.onDemand).toBe(true)
    expect(client.calls).toEqual(['start:50', 'stop', 'clear', 'snapshot'])
  })

  it('GET /api/status and /api/patterns describe the session', async () => {
    const { base, client } = await serve()
    client.tick()
    const st = (await http(base, 'GET', '/api/status', { token: TOKEN })).json
    expect(st).toMatchObject({ source: 'twin', path: '/dev/pts/fake', connected: true, error: null, runner: 'twin', wsDrops: 0 })
    expect(st.info.clockHz).toBe(250_000_000)
    expect(st.lastSnapshot.index).toBe(0)
    expect(st.hostStats.frames).toBe(1)
    const p = (await http(base, 'GET', '/api/patterns', { token: TOKEN })).json
    expect(p).toEqual({ patterns: ['strided', 'merged-aligned', 'merged-misaligned'], runner: 'twin' })
  })

  it('POST /api/run returns the WorkloadResult and the probe counter deltas', async () => {
    const { base, client } = await serve()
    await client.start(10_000)
    client.counters.mrd32 = 5 // earlier traffic must not appear in the deltas
    const r = await http(base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'strided', bytes: 4096 } })
    expect(r.status).toBe(200)
    expect(r.json.workload).toEqual({ pattern: 'strided', bytes: 4096, offset: 0 })
    expect(r.json.issued.count).toBe(128)
    expect(r.json.report.probe.mrd32).toBe(128)
    expect(r.json.report.probe.mrdBytes).toBe(4096)
    expect(r.json.report.countersEnabled).toBe(true)
    expect(r.json.report.origin).toBe('manual')
  })

  it('POST /api/run without a runner answers 409 PS_WORKLOAD_UNSUPPORTED', async () => {
    const { base } = await serve({ runner: false })
    const r = await http(base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'strided', bytes: 4096, offset: 0 } })
    expect(r.status).toBe(409)
    expect(r.json.error.code).toBe('PS_WORKLOAD_UNSUPPORTED')
    expect((await http(base, 'GET', '/api/patterns', { token: TOKEN })).json.runner).toBeNull()
  })

  it('serves an OpenAPI document built from the zod schemas', async () => {
    const { base } = await serve()
    const doc = (await http(base, 'GET', '/api/openapi.json', { token: TOKEN })).json
    expect(doc.openapi).toMatch(/^3\.0/)
    const run = doc.paths['/api/run'].post.requestBody.content['application/json'].schema
    expect(run.properties.pattern.enum).toEqual(['strided', 'merged-aligned', 'merged-misaligned'])
    expect(run.required).toEqual(expect.arrayContaining(['pattern', 'bytes']))
    expect(doc.paths['/api/run'].post.responses['409']).toBeDefined()
  })
})

describe('static UI', () => {
  it('serves the built UI from webRoot without a token, and 503 text when not built', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ps-web-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>pcie-scope</title>')
    const { base } = await serve({ webRoot: dir })
    const r = await http(base, 'GET', '/?token=abc')
    expect(r.status).toBe(200)
    expect(r.text).toContain('pcie-scope')
    const { base: base2 } = await serve({ webRoot: join(dir, 'missing') })
    const r2 = await http(base2, 'GET', '/')
    expect(r2.status).toBe(503)
    expect(r2.text).toMatch(/build:web/)
  })
})

describe('WebSocket /ws', () => {
  it('refuses a bad token (401), a foreign Origin or Host (403) before the upgrade', async () => {
    const { base } = await serve()
    await expect(openWs(wsUrl(base, undefined))).rejects.toMatchObject({ status: 401 })
    await expect(openWs(wsUrl(base, 'nope'))).rejects.toMatchObject({ status: 401 })
    await expect(openWs(wsUrl(base, TOKEN), { origin: 'http://evil.example' })).rejects.toMatchObject({ status: 403 })
    await expect(openWs(wsUrl(base, TOKEN), { origin: 'http://localhost:1' })).rejects.toMatchObject({ status: 403 })
    await expect(openWs(wsUrl(base, TOKEN), { headers: { host: 'evil.example' } })).rejects.toMatchObject({ status: 403 })
    const ok = await openWs(wsUrl(base, TOKEN), { origin: base })
    await ok.close()
  })

  it('greets with hello (info, source, COUNTERS meta) and status', async () => {
    const { base } = await serve()
    const c = await openWs(wsUrl(base, TOKEN))
    await expect.poll(() => c.messages.length).toBeGreaterThanOrEqual(2)
    const [hello, status] = c.messages
    expect(hello).toMatchObject({ type: 'hello', source: 'twin', path: '/dev/pts/fake' })
    if (hello?.type !== 'hello') throw new Error('no hello')
    expect(hello.info.clockHz).toBe(250_000_000)
    expect(hello.counters.map((m) => m.key)).toContain('mrd128')
    expect(hello.counters[0]).toMatchObject({ key: 'cycles', name: 'CYCLES', index: 0 })
    expect(status).toMatchObject({ type: 'status', connected: true, wsClients: 1 })
    await c.close()
  })

  it('forwards snapshots in batches of at most 20 per second', async () => {
    const { base, client } = await serve()
    const c = await openWs(wsUrl(base, TOKEN))
    await expect.poll(() => c.messages.length).toBe(2)
    for (let i = 0; i < 30; i++) client.tick()
    await expect.poll(() => c.of('snapshot').flatMap((m) => m.snapshots).length).toBe(30)
    const batches = c.of('snapshot')
    expect(batches.length).toBeLessThanOrEqual(2)
    expect(batches.flatMap((m) => m.snapshots.map((s) => s.index))).toEqual([...Array(30).keys()])
    expect(batches[0]?.hostStats?.frames).toBeGreaterThan(0)
    await c.close()
  })

  it('sends the recent snapshots in hello to a client that connects later', async () => {
    const { base, client } = await serve()
    for (let i = 0; i < 5; i++) client.tick()
    const c = await openWs(wsUrl(base, TOKEN))
    await expect.poll(() => c.messages.length).toBeGreaterThanOrEqual(1)
    const hello = c.of('hello')[0]
    expect(hello?.recent.map((s) => s.index)).toEqual([0, 1, 2, 3, 4])
    await c.close()
  })

  it('broadcasts a run message after each workload', async () => {
    const { base } = await serve()
    const c = await openWs(wsUrl(base, TOKEN))
    await http(base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'merged-aligned', bytes: 1 << 16, offset: 0 } })
    await expect.poll(() => c.of('run').length).toBe(1)
    const run = c.of('run')[0]
    expect(run?.result.workload.pattern).toBe('merged-aligned')
    expect(run?.report.id).toBe(1)
    await c.close()
  })
})

describe('device disconnect', () => {
  it('keeps serving, reports connected:false with the code, keeps the last snapshot, 503s device commands', async () => {
    const { base, client } = await serve()
    const c = await openWs(wsUrl(base, TOKEN))
    await expect.poll(() => c.messages.length).toBe(2)
    client.tick()
    client.tick()
    client.disconnect('PS_TWIN_EXITED')
    await expect.poll(() => c.of('status').some((s) => !s.connected)).toBe(true)
    const down = c.of('status').find((s) => !s.connected)
    expect(down?.error?.code).toBe('PS_TWIN_EXITED')
    // the two snapshots were flushed before the status message
    expect(c.of('snapshot').flatMap((m) => m.snapshots)).toHaveLength(2)

    const st = (await http(base, 'GET', '/api/status', { token: TOKEN })).json
    expect(st.connected).toBe(false)
    expect(st.error.code).toBe('PS_TWIN_EXITED')
    expect(st.lastSnapshot.index).toBe(1)
    for (const path of ['/api/start', '/api/snapshot', '/api/run']) {
      const body = path === '/api/run' ? { pattern: 'strided', bytes: 128 } : {}
      const r = await http(base, 'POST', path, { token: TOKEN, body })
      expect(r.status, path).toBe(503)
      expect(r.json.error.code).toBe('PS_TWIN_EXITED')
    }
    expect((await http(base, 'GET', '/api/health')).status).toBe(200)
    // a client that connects now still gets hello with the history and a disconnected status
    const late = await openWs(wsUrl(base, TOKEN))
    await expect.poll(() => late.messages.length).toBe(2)
    expect(late.of('hello')[0]?.recent).toHaveLength(2)
    expect(late.of('status')[0]?.connected).toBe(false)
    await late.close()
    await c.close()
  })

  it('comes back on reconnect: connected again, and the last START is re-issued', async () => {
    const { base, client } = await serve()
    expect((await http(base, 'POST', '/api/start', { token: TOKEN, body: { periodMs: 50 } })).status).toBe(200)
    const c = await openWs(wsUrl(base, TOKEN))
    await expect.poll(() => c.messages.length).toBe(2)
    client.disconnect('PS_SERIAL_DISCONNECTED')
    await expect.poll(() => c.of('status').some((s) => !s.connected)).toBe(true)
    client.emit('reconnect')
    await expect.poll(() => c.of('status').at(-1)?.connected).toBe(true)
    expect(c.of('status').at(-1)?.error).toBeNull()
    await expect.poll(() => client.calls).toEqual(['start:50', 'start:50'])
    expect((await http(base, 'POST', '/api/snapshot', { token: TOKEN, body: {} })).status).toBe(200)
    // after a STOP, a reconnect leaves streaming off
    await http(base, 'POST', '/api/stop', { token: TOKEN, body: {} })
    client.disconnect('PS_SERIAL_DISCONNECTED')
    client.emit('reconnect')
    await expect.poll(() => c.of('status').at(-1)?.connected).toBe(true)
    expect(client.calls.filter((x) => x.startsWith('start'))).toHaveLength(2)
    await c.close()
  })
})

describe('demo mode', () => {
  it('starts streaming at 100 ms and loops the three patterns until close', async () => {
    const { srv, base, client, session } = await serve({ demo: true, runDelayMs: 5 })
    expect(client.calls[0]).toBe('start:100')
    const runner = session.runner as unknown as { runs: { pattern: string }[] }
    await expect.poll(() => runner.runs.length, { timeout: 3000 }).toBeGreaterThanOrEqual(4)
    expect(runner.runs.slice(0, 4).map((r) => r.pattern)).toEqual(['strided', 'merged-aligned', 'merged-misaligned', 'strided'])
    expect(runner.runs[2]).toMatchObject({ offset: 32 })
    const st = (await http(base, 'GET', '/api/status', { token: TOKEN })).json
    expect(st.demo.enabled).toBe(true)
    await srv.close()
    const n = runner.runs.length
    await new Promise((r) => setTimeout(r, 50))
    expect(runner.runs.length).toBe(n)
  })

  it('a manual run queues behind the demo run in flight, then holds the demo', async () => {
    const { base, session } = await serve({ demo: true, runDelayMs: 30 })
    const runner = session.runner as unknown as { runs: { pattern: string; bytes: number }[] }
    await expect.poll(() => runner.runs.length).toBeGreaterThanOrEqual(1)
    const r = await http(base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'merged-misaligned', bytes: 12288, offset: 8 } })
    expect(r.status).toBe(200)
    expect(r.json.report.origin).toBe('manual')
    const i = runner.runs.findIndex((w) => w.bytes === 12288)
    // held for DEMO_HOLD_MS after the manual run: nothing else ran right after it
    await new Promise((res) => setTimeout(res, 300))
    expect(runner.runs.length).toBe(i + 1)
  })
})
