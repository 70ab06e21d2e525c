import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { Request } from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { body } from '../../../host/src/server/routes.js'
import { EmptyBody, StartBody } from '../../../host/src/server/schemas.js'
import { CONTENT_SECURITY_POLICY } from '../../../host/src/server/security.js'
import { closeServers, http, serve, TOKEN } from './helpers.js'
import { makeFakeAddon, nativeError } from '../workload/fake-addon.js'
import { GRAPH_KERNELS, GRAPH_SCALE } from '../../../host/src/core/workload.js'

afterEach(closeServers)

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
      ['/api/run', { pattern: 'strided', bytes: 4096, elementBytes: 12 }],
      ['/api/run', { pattern: 'strided', bytes: 4096, offset: 8, elementBytes: 16 }], // a misaligned 16-B load
      ['/api/run', { pattern: 'strided', bytes: 4096, l1: 'cg' }],
      ['/api/run', { pattern: 'strided', bytes: 4096, graph: 'kron:8' }], // a graph belongs to a graph kernel
      ['/api/run', { pattern: 'bfs-aligned' }], // a graph kernel needs its graph
      ['/api/run', { pattern: 'bfs-aligned', graph: 'kron:8', bytes: 4096 }],
      ['/api/run', { pattern: 'bfs-aligned', graph: 'kron:8', idBytes: 2 }],
      ['/api/run', { pattern: 'bfs-aligned', graph: 'kron:8', sourceVertex: -1 }],
      ['/api/run', { pattern: 'bfs-aligned', graph: 'kron' }],
      ['/api/run', { pattern: 'bfs-aligned', graph: 'grid:8' }],
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
    expect(run.json.error.details.properties.pattern.errors[0]).toBe(
      `pattern must be one of strided, merged-aligned, merged-misaligned, merged-chunked, ${GRAPH_KERNELS.join(', ')}`,
    )
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
    expect(p).toEqual({ patterns: ['strided', 'merged-aligned', 'merged-misaligned', 'merged-chunked'], runner: 'twin' })
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

  it("POST /api/run refuses a graph over the server's scale limit, or a file, naming the limit", async () => {
    const { base } = await serve()
    const tooBig = `kron:${GRAPH_SCALE.serverMax + 1}`
    const big = await http(base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'bfs-aligned', graph: tooBig } })
    expect(big.status).toBe(400)
    expect(big.json.error.code).toBe('PS_REQUEST_INVALID')
    expect(big.json.error.details.properties.graph.errors[0]).toBe(
      `graph ${tooBig}: scale ${GRAPH_SCALE.serverMax + 1} is outside 1..${GRAPH_SCALE.serverMax} (the server's limit, spec graphs.scale.serverMax)`,
    )
    const file = await http(base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'bfs-naive', graph: 'file:/etc/passwd' } })
    expect(file.status).toBe(400)
    expect(file.json.error.details.properties.graph.errors[0]).toMatch(/reads no files for a client.*at most 18/)
  })

  it('POST /api/run runs a graph kernel and answers with its graph facts', async () => {
    const { base, session } = await serve()
    const body = { pattern: 'bfs-merged', graph: `urand:${GRAPH_SCALE.serverMax}`, idBytes: 4, sourceVertex: 3 }
    const r = await http(base, 'POST', '/api/run', { token: TOKEN, body })
    expect(r.status).toBe(200)
    expect(r.json.workload).toEqual(body)
    expect(r.json.graph).toEqual({
      graph: body.graph,
      vertices: 2 ** GRAPH_SCALE.serverMax,
      edges: 1000,
      idBytes: 4,
      sourceVertex: 3,
      launches: 3,
    })
    expect(r.json.report.result.graph.launches).toBe(3)
    expect((session.runner as unknown as { runs: unknown[] }).runs).toEqual([body])
  })

  it('POST /api/run passes a lane width and L1 use on to the runner', async () => {
    const { base } = await serve()
    const body = { pattern: 'merged-misaligned', bytes: 8192, elementBytes: 16, l1: 'bypass' }
    const r = await http(base, 'POST', '/api/run', { token: TOKEN, body })
    expect(r.status).toBe(200)
    expect(r.json.workload).toEqual({ ...body, offset: 32 })
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
    // a micro pattern or a graph kernel, each with its own fields
    const [micro, graph] = doc.paths['/api/run'].post.requestBody.content['application/json'].schema.oneOf
    expect(micro.properties.pattern.enum).toEqual(['strided', 'merged-aligned', 'merged-misaligned', 'merged-chunked'])
    expect(micro.required).toEqual(expect.arrayContaining(['pattern', 'bytes']))
    expect(graph.properties.pattern.enum).toEqual([...GRAPH_KERNELS])
    expect(graph.required).toEqual(expect.arrayContaining(['pattern', 'graph']))
    expect(graph.properties.graph.description).toContain(`S in 1..${GRAPH_SCALE.serverMax}`)
    const runErrors = doc.paths['/api/run'].post.responses
    expect(Object.keys(runErrors).sort()).toEqual(['200', '400', '401', '409', '413', '415', '502', '503', '504'])
    expect(runErrors['504'].description).toContain('PS_WORKLOAD_TIMEOUT')
    expect(runErrors['503'].description).toContain('PS_RUN_QUEUE_FULL')
    expect(doc['x-websocket'].messages).toEqual(expect.arrayContaining(['twin-failure', 'twin-restarted']))
    expect(doc.paths['/api/run'].post.responses['409'].description).toBe('the source asked for is not available (PS_WORKLOAD_UNSUPPORTED)')
    expect(micro.properties.source.enum).toEqual(['twin', 'gpu'])
    expect(graph.properties.source.enum).toEqual(['twin', 'gpu'])
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

describe('request bodies', () => {
  const gzipJson = { 'content-type': 'application/json', 'content-encoding': 'gzip' }

  it('reads a gzip JSON body', async () => {
    const { base, client } = await serve()
    const r = await http(base, 'POST', '/api/start', { token: TOKEN, rawBody: gzipSync('{"periodMs":50}'), headers: gzipJson })
    expect(r.status).toBe(200)
    expect(client.calls).toEqual(['start:50'])
  })

  it('answers 400 PS_REQUEST_INVALID to a corrupt or truncated gzip body, and runs nothing', async () => {
    const { base, client } = await serve()
    for (const rawBody of [Buffer.from('not gzip at all'), gzipSync('{"periodMs":50}').subarray(0, 12)]) {
      const r = await http(base, 'POST', '/api/start', { token: TOKEN, rawBody, headers: gzipJson })
      expect(r.status).toBe(400)
      expect(r.json.error.code).toBe('PS_REQUEST_INVALID')
      expect(r.json.error.message).toBeTypeOf('string')
    }
    expect(client.calls).toEqual([])
  })

  it('answers 413 to a gzip body that inflates past the limit, 400 to gzip or deflate of something not JSON', async () => {
    const { base, client } = await serve()
    const bomb = await http(base, 'POST', '/api/start', {
      token: TOKEN,
      rawBody: gzipSync(Buffer.alloc(10_000_000, 32)),
      headers: gzipJson,
    })
    expect(bomb.status).toBe(413)
    expect(bomb.json.error).toMatchObject({ code: 'PS_REQUEST_INVALID', details: { type: 'entity.too.large' } })
    const notJson = await http(base, 'POST', '/api/start', { token: TOKEN, rawBody: gzipSync('periodMs=50'), headers: gzipJson })
    expect(notJson.status).toBe(400)
    expect(notJson.json.error).toMatchObject({ code: 'PS_REQUEST_INVALID', details: { type: 'entity.parse.failed' } })
    const deflate = await http(base, 'POST', '/api/start', {
      token: TOKEN,
      rawBody: Buffer.from('not deflate'),
      headers: { 'content-type': 'application/json', 'content-encoding': 'deflate' },
    })
    expect(deflate.status).toBe(400)
    expect(deflate.json.error.code).toBe('PS_REQUEST_INVALID')
    expect(client.calls).toEqual([])
  })

  it('answers 415 to a JSON body in a charset it does not read, 400 to JSON that is not an object', async () => {
    const { base } = await serve()
    const latin1 = await http(base, 'POST', '/api/start', {
      token: TOKEN,
      rawBody: '{}',
      headers: { 'content-type': 'application/json; charset=latin1' },
    })
    expect(latin1.status).toBe(415)
    expect(latin1.json.error).toMatchObject({ code: 'PS_REQUEST_INVALID', details: { type: 'charset.unsupported' } })
    for (const rawBody of ['null', '"x"', '[1]']) {
      const r = await http(base, 'POST', '/api/run', { token: TOKEN, rawBody })
      expect(r.status, rawBody).toBe(400)
      expect(r.json.error.code).toBe('PS_REQUEST_INVALID')
    }
  })

  it('answers in JSON outside /api too: a page that does not exist, a malformed path', async () => {
    const { base } = await serve()
    for (const path of ['/nope', '/%E0%A4%A']) {
      const r = await http(base, 'GET', path)
      expect(r.status, path).toBe(404)
      expect(r.headers['content-type']).toMatch(/^application\/json/)
      expect(r.json.error.code).toBe('PS_HTTP_NOT_FOUND')
    }
    const post = await http(base, 'POST', '/index.html', { rawBody: 'x', headers: { 'content-type': 'text/plain' } })
    expect(post.status).toBe(404)
    expect(post.json.error.code).toBe('PS_HTTP_NOT_FOUND')
  })

  it('answers 415 PS_REQUEST_INVALID to an unknown content encoding', async () => {
    const { base } = await serve()
    const r = await http(base, 'POST', '/api/stop', {
      token: TOKEN,
      rawBody: '{}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'zz' },
    })
    expect(r.status).toBe(415)
    expect(r.json.error).toMatchObject({ code: 'PS_REQUEST_INVALID', details: { type: 'encoding.unsupported' } })
  })

  it('refuses a body that is not JSON (415) instead of reading it as {}', async () => {
    const { base, client } = await serve()
    for (const headers of [{ 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }]) {
      const r = await http(base, 'POST', '/api/stop', { token: TOKEN, rawBody: 'periodMs=50', headers })
      expect(r.status, JSON.stringify(headers)).toBe(415)
      expect(r.json.error.code).toBe('PS_REQUEST_INVALID')
      expect(r.json.error.message).toMatch(/application\/json/)
    }
    expect(client.calls).toEqual([])
  })

  it('takes no body, or an empty chunked one, as {}', async () => {
    const { base, client } = await serve()
    expect((await http(base, 'POST', '/api/stop', { token: TOKEN })).status).toBe(200)
    expect((await http(base, 'POST', '/api/clear', { token: TOKEN, headers: { 'transfer-encoding': 'chunked' } })).status).toBe(200)
    expect(client.calls).toEqual(['stop', 'clear'])
  })

  it('body(): schema-checked data, {} for no body, ApiError with status and details otherwise', () => {
    const req = (b: unknown, contentType?: string) => ({ body: b, headers: contentType ? { 'content-type': contentType } : {} }) as Request
    expect(body(StartBody, req({ periodMs: 50 }))).toEqual({ periodMs: 50 })
    expect(body(EmptyBody, req(undefined))).toEqual({})
    expect(body(EmptyBody, req(Buffer.alloc(0)))).toEqual({})
    expect(() => body(EmptyBody, req(Buffer.from('x'), 'text/plain'))).toThrowError(
      expect.objectContaining({ code: 'PS_REQUEST_INVALID', status: 415, message: expect.stringContaining('text/plain') }),
    )
    expect(() => body(EmptyBody, req(Buffer.from('{}')))).toThrowError(
      expect.objectContaining({ status: 415, message: expect.stringContaining('untyped') }),
    )
    expect(() => body(StartBody, req({ periodMs: 'fast' }))).toThrowError(
      expect.objectContaining({
        code: 'PS_REQUEST_INVALID',
        status: undefined,
        details: expect.objectContaining({ properties: expect.anything() }),
      }),
    )
  })
})

describe('security headers and the source map', () => {
  const webRoot = () => {
    const dir = mkdtempSync(join(tmpdir(), 'ps-web-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>')
    writeFileSync(join(dir, 'main.js'), 'console.log(1)\n//# sourceMappingURL=main.js.map\n')
    writeFileSync(join(dir, 'main.js.map'), '{"version":3,"sources":["web/main.ts"],"mappings":""}')
    return dir
  }

  it('sends nosniff, the CSP with frame-ancestors, no-referrer on every response: page, API, errors, 404s', async () => {
    const { base } = await serve({ webRoot: webRoot() })
    const replies = [
      await http(base, 'GET', '/'),
      await http(base, 'GET', '/main.js'),
      await http(base, 'GET', '/api/health'),
      await http(base, 'GET', '/api/status', { token: TOKEN }),
      await http(base, 'GET', '/api/status'),
      await http(base, 'GET', '/nope'),
      await http(base, 'POST', '/api/start', { token: TOKEN, rawBody: '{' }),
      await http(base, 'GET', '/', { headers: { host: 'attacker.test' } }),
    ]
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 401, 404, 400, 403])
    for (const r of replies) {
      expect(r.headers['x-content-type-options']).toBe('nosniff')
      expect(r.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
      expect(r.headers['referrer-policy']).toBe('no-referrer')
      expect(r.headers['x-frame-options']).toBe('DENY')
    }
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'")
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'")
  })

  it('serves the source map only with the token (Bearer or ?token=)', async () => {
    const { base } = await serve({ webRoot: webRoot() })
    const none = await http(base, 'GET', '/main.js.map')
    expect(none.status).toBe(401)
    expect(none.json.error.code).toBe('PS_HTTP_UNAUTHORIZED')
    expect(none.text).not.toContain('web/main.ts')
    expect((await http(base, 'GET', '/main.js.map?token=wrong')).status).toBe(401)
    const bearer = await http(base, 'GET', '/main.js.map', { token: TOKEN })
    expect(bearer.status).toBe(200)
    expect(bearer.text).toContain('web/main.ts')
    expect((await http(base, 'GET', `/main.js.map?token=${TOKEN}`)).status).toBe(200)
  })
})

describe('run sources: the twin and the GPU', () => {
  it('GET /api/status says which sources are available, and why not', async () => {
    const { base } = await serve()
    const st = (await http(base, 'GET', '/api/status', { token: TOKEN })).json
    expect(st.sources).toEqual({
      twin: { available: true, reason: null },
      gpu: { available: false, reason: 'GPU runs are turned off for this server', devices: [] },
    })
    const noDevice = makeFakeAddon({ devices: { reject: nativeError('PS_GPU_NO_DEVICE', 'no CUDA device is usable on this machine.') } })
    const b = await serve({ gpu: { load: () => noDevice } })
    expect((await http(b.base, 'GET', '/api/status', { token: TOKEN })).json.sources.gpu).toEqual({
      available: false,
      reason: 'no CUDA device is usable on this machine. (PS_GPU_NO_DEVICE)',
      devices: [],
    })
    const withGpu = await serve({ gpu: { load: () => makeFakeAddon() } })
    expect((await http(withGpu.base, 'GET', '/api/status', { token: TOKEN })).json.sources.gpu).toEqual({
      available: true,
      reason: null,
      devices: ['Fake H200 (0000:65:00.0)'],
    })
  })

  it('POST /api/run with source gpu runs the kernel and reports it beside the prediction', async () => {
    const addon = makeFakeAddon()
    const { base } = await serve({ gpu: { load: () => addon } })
    const r = await http(base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'merged-aligned', bytes: 4096, source: 'gpu' } })
    expect(r.status).toBe(200)
    expect(addon.runs).toEqual([{ pattern: 'merged-aligned', bytes: 4096, offset: 0 }])
    expect(r.json.gpu).toMatchObject({ kernelGbps: 50, predicted: { count: 32 }, device: { name: 'Fake H200' } })
    expect(r.json.issued.count).toBe(32)
    // source twin (and none) still run on the twin
    const t = await http(base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'strided', bytes: 4096, source: 'twin' } })
    expect(t.status).toBe(200)
    expect(t.json.gpu).toBeUndefined()
    expect(addon.runs).toHaveLength(1)
  })

  it('a session without a twin runs on the GPU by default; asking for the twin is 409', async () => {
    const addon = makeFakeAddon()
    const { base } = await serve({ runner: false, gpu: { load: () => addon } })
    const r = await http(base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'strided', bytes: 4096 } })
    expect(r.status).toBe(200)
    expect(r.json.gpu.predicted.count).toBe(128)
    const t = await http(base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'strided', bytes: 4096, source: 'twin' } })
    expect(t.status).toBe(409)
    expect(t.json.error.code).toBe('PS_WORKLOAD_UNSUPPORTED')
  })

  it('source gpu without a GPU is 409 with the reason; an unknown source is 400; a failed kernel is 502', async () => {
    const { base, client } = await serve()
    const r = await http(base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'strided', bytes: 4096, source: 'gpu' } })
    expect(r.status).toBe(409)
    expect(r.json.error).toEqual({
      code: 'PS_WORKLOAD_UNSUPPORTED',
      message: 'no GPU runs on this server: GPU runs are turned off for this server',
    })
    expect(client.calls).not.toContain('snapshot') // refused before the device was touched
    const bad = await http(base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'strided', bytes: 4096, source: 'cuda' } })
    expect(bad.status).toBe(400)
    expect(bad.json.error.code).toBe('PS_REQUEST_INVALID')
    const failing = makeFakeAddon({ gpu: { reject: nativeError('PS_GPU_CUDA', 'an illegal address was encountered.') } })
    const f = await serve({ gpu: { load: () => failing } })
    const e = await http(f.base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'strided', bytes: 4096, source: 'gpu' } })
    expect(e.status).toBe(502)
    expect(e.json.error).toEqual({ code: 'PS_GPU_FAILED', message: 'an illegal address was encountered. (PS_GPU_CUDA)' })
  })
})
