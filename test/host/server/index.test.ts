import { once } from 'node:events'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startServer } from '../../../host/src/server/index.js'
import { fakeSession } from './fake-session.js'
import { closeServers, http, openWs, serve, TOKEN, track, wsUrl } from './helpers.js'

afterEach(closeServers)

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
    track(srv)
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

describe('WebSocket /ws', () => {
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

  it('with sampleUs, sets the sampler at start and forwards its INTERVAL records', async () => {
    const { base, client } = await serve({ sampleUs: 10 })
    expect(client.calls).toContain('sample:2500') // 10 µs at 250 MHz
    const c = await openWs(wsUrl(base, TOKEN))
    await expect.poll(() => c.messages.length).toBe(2)
    await client.start(60_000) // counting, with no timer tick of its own in the test's time
    client.tick(25_000)
    await expect.poll(() => c.of('intervals').length).toBe(1)
    const batch = c.of('intervals')[0]!.batch
    expect(batch.records).toHaveLength(10)
    expect(batch.records.every((r) => r.cycles === 2500)).toBe(true)
    await c.close()
  })

  it('refuses a sample period outside the sampler’s range before it serves', async () => {
    await expect(serve({ sampleUs: 0.5 })).rejects.toMatchObject({ code: 'PS_USAGE', message: expect.stringMatching(/--sample-us/) })
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

  it('broadcasts run-start with the baseline snapshot, then run with the probe window', async () => {
    const { base, client } = await serve()
    client.tick()
    const c = await openWs(wsUrl(base, TOKEN))
    await http(base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'merged-aligned', bytes: 1 << 16, offset: 0 } })
    await expect.poll(() => c.of('run').length).toBe(1)
    const start = c.of('run-start')[0]
    const run = c.of('run')[0]
    expect(start).toMatchObject({ id: 1, origin: 'manual', workload: { pattern: 'merged-aligned', bytes: 1 << 16, offset: 0 } })
    expect(start?.baseline.onDemand).toBe(true)
    expect(c.messages.findIndex((m) => m.type === 'run-start')).toBeLessThan(c.messages.findIndex((m) => m.type === 'run'))
    expect(run?.result.workload.pattern).toBe('merged-aligned')
    expect(run?.report.id).toBe(1)
    expect(run?.report.probeWindow.from).toBe(start?.baseline.counters.timestamp)
    expect(run?.report.probeWindow.to).toBeGreaterThanOrEqual(run?.report.probeWindow.from ?? Infinity)
    await c.close()
  })

  it('says whether it streams: status after START and STOP, broadcast to the page', async () => {
    const { base } = await serve()
    const c = await openWs(wsUrl(base, TOKEN))
    await expect.poll(() => c.of('status').length).toBe(1)
    expect(c.of('status')[0]?.streaming).toBeNull()
    await http(base, 'POST', '/api/start', { token: TOKEN, body: { periodMs: 250 } })
    await expect.poll(() => c.of('status').at(-1)?.streaming).toEqual({ periodMs: 250 })
    await http(base, 'POST', '/api/start', { token: TOKEN, body: {} })
    await expect.poll(() => c.of('status').at(-1)?.streaming).toEqual({ periodMs: 100 }) // the spec's default
    await http(base, 'POST', '/api/stop', { token: TOKEN, body: {} })
    await expect.poll(() => c.of('status').at(-1)?.streaming).toBeNull()
    const st = await http(base, 'GET', '/api/status', { token: TOKEN })
    expect((st.json as { streaming: unknown }).streaming).toBeNull()
    expect(st.json).toMatchObject({ twinMode: 'endpoint' }) // the fake session's default design
    await c.close()
  })
})

describe('switch mode: the host side', () => {
  it('forwards tap snapshots in the snapshot batches and tap histograms after the GPU side’s', async () => {
    const { base, client } = await serve({ switchMode: true })
    const c = await openWs(wsUrl(base, TOKEN))
    await expect.poll(() => c.messages.length).toBe(2)
    expect(c.of('hello')[0]?.taps).toEqual({})
    // the design is named in hello, in the status message and at GET /api/status
    expect(c.of('hello')[0]?.twinMode).toBe('switch')
    expect(c.of('status')[0]?.twinMode).toBe('switch')
    expect((await http(base, 'GET', '/api/status', { token: TOKEN })).json).toMatchObject({ twinMode: 'switch' })
    await client.start(60_000) // counting, with no timer tick of its own in the test's time
    for (let i = 0; i < 10; i++) client.tick()
    await expect.poll(() => c.of('tap-histogram').length).toBe(2)
    const batches = c.of('snapshot')
    expect(batches.flatMap((m) => m.tapSnapshots ?? []).map((t) => t.snapshotIndex)).toEqual([...Array(10).keys()])
    // every tap snapshot reaches the page with or after the snapshot it names
    const seenAt = new Map<number, number>()
    batches.forEach((m, i) => m.snapshots.forEach((s) => seenAt.set(s.index, i)))
    batches.forEach((m, i) => m.tapSnapshots?.forEach((t) => expect(seenAt.get(t.snapshotIndex)).toBeLessThanOrEqual(i)))
    const types = c.messages.map((m) =>
      m.type === 'tap-histogram' || m.type === 'latency-histogram' ? `${m.type} ${m.histogram.kind}` : m.type,
    )
    expect(types.slice(-4)).toEqual(['latency-histogram last', 'latency-histogram first', 'tap-histogram last', 'tap-histogram first'])
    const tapHist = c.of('tap-histogram')[0]!.histogram
    expect(tapHist).toMatchObject({ tap: 'hostSide', snapshotIndex: 9 })
    // a page that connects later gets the newest host-side readings in hello
    const late = await openWs(wsUrl(base, TOKEN))
    await expect.poll(() => late.of('hello').length).toBe(1)
    const taps = late.of('hello')[0]!.taps
    expect(taps.hostSide?.snapshot?.snapshotIndex).toBe(9)
    expect(taps.hostSide?.histograms).toMatchObject({ last: { snapshotIndex: 9 }, first: { snapshotIndex: 9 } })
    await Promise.all([c.close(), late.close()])
  })

  it('in endpoint mode sends neither tapSnapshots nor tap-histogram', async () => {
    const { base, client } = await serve()
    const c = await openWs(wsUrl(base, TOKEN))
    await expect.poll(() => c.messages.length).toBe(2)
    for (let i = 0; i < 10; i++) client.tick()
    await expect.poll(() => c.of('snapshot').flatMap((m) => m.snapshots).length).toBe(10)
    expect(c.of('snapshot').every((m) => !('tapSnapshots' in m))).toBe(true)
    expect(c.of('tap-histogram')).toEqual([])
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
  it('starts streaming at 100 ms and loops the patterns until close', async () => {
    const { srv, base, client, session } = await serve({ demo: true, runDelayMs: 5 })
    expect(client.calls[0]).toBe('start:100')
    const runner = session.runner as unknown as { runs: { pattern: string }[] }
    await openWs(wsUrl(base, TOKEN)) // the loop runs while somebody watches
    await expect.poll(() => runner.runs.length, { timeout: 3000 }).toBeGreaterThanOrEqual(5)
    expect(runner.runs.slice(0, 5).map((r) => r.pattern)).toEqual([
      'strided',
      'merged-aligned',
      'merged-misaligned',
      'merged-chunked',
      'strided',
    ])
    expect(runner.runs[2]).toMatchObject({ offset: 32 })
    const st = (await http(base, 'GET', '/api/status', { token: TOKEN })).json
    expect(st.demo.enabled).toBe(true)
    await srv.close()
    const n = runner.runs.length
    await new Promise((r) => setTimeout(r, 50))
    expect(runner.runs.length).toBe(n)
  })

  it('the demo loop ends while the device is gone and resumes when it is back', async () => {
    const { base, client, session } = await serve({ demo: true, runDelayMs: 5 })
    const runner = session.runner as unknown as { runs: unknown[] }
    await openWs(wsUrl(base, TOKEN))
    await expect.poll(() => runner.runs.length, { timeout: 3000 }).toBeGreaterThanOrEqual(1)
    client.disconnect('PS_TWIN_EXITED')
    const status = async () => (await http(base, 'GET', '/api/status', { token: TOKEN })).json
    await expect.poll(async () => (await status()).demo.enabled, { timeout: 3000 }).toBe(false)
    const n = runner.runs.length
    client.emit('reconnect')
    await expect.poll(async () => (await status()).demo.enabled, { timeout: 3000 }).toBe(true)
    await expect.poll(() => runner.runs.length, { timeout: 3000 }).toBeGreaterThan(n)
  })

  it('POST /api/demo switches the loop off and on; off stays off across a reconnect', async () => {
    const { base, client, session } = await serve({ demo: true, runDelayMs: 5 })
    const runner = session.runner as unknown as { runs: unknown[] }
    await openWs(wsUrl(base, TOKEN))
    await expect.poll(() => runner.runs.length, { timeout: 3000 }).toBeGreaterThanOrEqual(1)
    const off = await http(base, 'POST', '/api/demo', { token: TOKEN, body: { enabled: false } })
    expect(off.status).toBe(200)
    expect(off.json.demo).toMatchObject({ enabled: false, current: null })
    const n = runner.runs.length // the run in flight has finished: no more start
    await new Promise((r) => setTimeout(r, 200))
    expect(runner.runs.length).toBe(n)
    client.disconnect('PS_TWIN_EXITED')
    client.emit('reconnect')
    await new Promise((r) => setTimeout(r, 200))
    expect(runner.runs.length).toBe(n)
    const on = await http(base, 'POST', '/api/demo', { token: TOKEN, body: { enabled: true } })
    expect(on.json.demo.enabled).toBe(true)
    await expect.poll(() => runner.runs.length, { timeout: 3000 }).toBeGreaterThan(n)
    expect((await http(base, 'POST', '/api/demo', { token: TOKEN, body: { enabled: 'yes' } })).status).toBe(400)
  })

  it('waits while nobody watches: no demo run without a WebSocket client', async () => {
    const { base, session } = await serve({ demo: true, runDelayMs: 5 })
    const runner = session.runner as unknown as { runs: unknown[] }
    await new Promise((r) => setTimeout(r, 300))
    expect(runner.runs).toHaveLength(0)
    const c = await openWs(wsUrl(base, TOKEN))
    await expect.poll(() => runner.runs.length, { timeout: 3000 }).toBeGreaterThanOrEqual(2)
    await c.close()
    await new Promise((r) => setTimeout(r, 200)) // the run in flight, if any, ends
    const n = runner.runs.length
    await new Promise((r) => setTimeout(r, 300))
    expect(runner.runs.length).toBe(n)
  })

  it('a manual run queues behind the demo run in flight, then holds the demo', async () => {
    const { base, session } = await serve({ demo: true, runDelayMs: 30 })
    const runner = session.runner as unknown as { runs: { pattern: string; bytes: number }[] }
    await openWs(wsUrl(base, TOKEN))
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

describe('binding beyond loopback', () => {
  it('refuses a token under 16 characters with PS_USAGE before starting anything', async () => {
    const session = fakeSession()
    const r = startServer({ twin: true, http: { host: '0.0.0.0', port: 0 }, token: 'short-token', session })
    await expect(r).rejects.toMatchObject({ code: 'PS_USAGE', message: expect.stringMatching(/at least 16 characters; --token has 11/) })
  })

  it('warns with the real address, and prints a URL that works (not 0.0.0.0, the real port)', async () => {
    const notices: string[] = []
    const srv = track(
      await startServer({
        twin: true,
        http: { host: '0.0.0.0', port: 0 },
        token: TOKEN,
        session: fakeSession(),
        notify: (l) => notices.push(l),
      }),
    )
    const u = new URL(srv.url)
    expect(u.hostname).not.toBe('0.0.0.0')
    expect(Number(u.port)).toBeGreaterThan(0)
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatch(
      new RegExp(`^warning: listening on every interface \\(.*${u.hostname.replace(/\./g, '\\.')}.*\\), port ${u.port}`),
    )
    // the printed URL's host passes the Host check: the page and the API answer on it
    const status = await http(srv.url, 'GET', '/api/status', { token: TOKEN })
    expect(status.status).toBe(200)
  })

  it('says nothing on loopback, and accepts a short token there', async () => {
    const notices: string[] = []
    track(
      await startServer({
        twin: true,
        http: { host: '127.0.0.1', port: 0 },
        token: 'abc',
        session: fakeSession(),
        notify: (l) => notices.push(l),
      }),
    )
    expect(notices).toEqual([])
  })
})

describe('idle sockets', () => {
  const connectRaw = async (base: string) => {
    const u = new URL(base)
    const sock = connect(Number(u.port), u.hostname)
    await once(sock, 'connect')
    return sock
  }

  it('closes a connection that never finishes its headers, and an idle keep-alive one', async () => {
    const session = fakeSession()
    const srv = track(
      await startServer({
        twin: true,
        http: { host: '127.0.0.1', port: 0 },
        token: TOKEN,
        session,
        timeouts: { headersMs: 300, requestMs: 600, keepAliveMs: 200, checkMs: 100 },
      }),
    )
    const base = new URL(srv.url).origin
    const slow = await connectRaw(base)
    slow.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n') // and never the blank line
    const t0 = Date.now()
    let reply = ''
    slow.on('data', (d: Buffer) => (reply += d.toString()))
    await once(slow, 'close')
    expect(Date.now() - t0).toBeLessThan(2_000)
    expect(reply).toMatch(/^HTTP\/1\.1 408/)

    const idle = await connectRaw(base)
    idle.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n')
    let got = ''
    idle.on('data', (d: Buffer) => (got += d.toString()))
    const t1 = Date.now()
    await once(idle, 'close')
    expect(got).toMatch(/^HTTP\/1\.1 200/)
    expect(Date.now() - t1).toBeLessThan(2_000)
  })
})

describe('a WebSocket client that never reads', () => {
  it('is dropped once its send buffer stays past the bound, counted in /api/status; other clients go on', async () => {
    const session = fakeSession()
    const srv = track(
      await startServer({
        twin: true,
        http: { host: '127.0.0.1', port: 0 },
        token: TOKEN,
        session,
        ws: { maxBufferedBytes: 64 * 1024, dropBufferedBytes: 256 * 1024, stuckMs: 500 },
      }),
    )
    const u = new URL(srv.url)
    // a real TCP peer that completes the upgrade and then never reads another byte
    const dead = connect(Number(u.port), u.hostname)
    await once(dead, 'connect')
    dead.write(
      `GET /ws?token=${TOKEN} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    )
    const [head] = (await once(dead, 'data')) as [Buffer]
    expect(head.toString()).toMatch(/^HTTP\/1\.1 101/)
    dead.pause()
    const reader = await openWs(wsUrl(u.origin, TOKEN))
    const status = async () => (await http(u.origin, 'GET', '/api/status', { token: TOKEN })).json
    expect((await status()).wsClients).toBe(2)
    // the device streams hard: 200 snapshots every 20 ms until the dead client is gone
    const pump = setInterval(() => {
      for (let i = 0; i < 200; i++) session.client.tick()
    }, 20)
    try {
      await expect.poll(async () => (await status()).wsClientsDropped, { timeout: 30_000, interval: 200 }).toBe(1)
    } finally {
      clearInterval(pump)
    }
    const st = await status()
    expect(st.wsClients).toBe(1)
    expect(reader.ws.readyState).toBe(reader.ws.OPEN)
    expect(reader.of('snapshot').length).toBeGreaterThan(0)
    dead.destroy()
    await reader.close()
  })
})
