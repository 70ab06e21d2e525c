import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { nextDemoBytes } from '../../../host/src/server/runs.js'
import { deadlineBytes, DEFAULT_RUN_LIMITS, runDeadlineMs } from '../../../host/src/workload/deadline.js'
import { closeServers, http, serve, TOKEN } from './helpers.js'

describe('demo sizing', () => {
  it('keeps a 1–3 s run, else scales towards 2 s (×¼ … ×8 per step) within bounds', () => {
    expect(nextDemoBytes(1 << 20, 1.2)).toBe(1 << 20)
    expect(nextDemoBytes(1 << 20, 2.9)).toBe(1 << 20)
    expect(nextDemoBytes(1 << 20, 0.5)).toBe(4 << 20)
    expect(nextDemoBytes(1 << 20, 0.001)).toBe(8 << 20)
    expect(nextDemoBytes(1 << 20, 8)).toBe(256 << 10)
    expect(nextDemoBytes(4096, 100)).toBe(4096)
    expect(nextDemoBytes(256 << 20, 0.1)).toBe(256 << 20)
    expect(nextDemoBytes(1 << 20, 0.7) % 4096).toBe(0)
  })
})

describe('run deadlines, the bounded queue, cancellation and shutdown', () => {
  afterEach(closeServers)
  const w = { pattern: 'strided', bytes: 4096, offset: 0 }

  it('derives the deadline from the size: slack plus the bytes at the floor rate', () => {
    expect(runDeadlineMs(0, DEFAULT_RUN_LIMITS)).toBe(10_000)
    expect(runDeadlineMs(1024 * 1024 * 1024, DEFAULT_RUN_LIMITS)).toBe(10_000 + 64_000)
    expect(runDeadlineMs(1000, { floorBytesPerSecond: 1000, slackMs: 5 })).toBe(1005)
  })

  it('counts a graph kernel by its edge list: 2 x 16 ids per vertex of 2^S, four times over', () => {
    expect(deadlineBytes({ pattern: 'strided', bytes: 4096, offset: 0 })).toBe(4096)
    expect(deadlineBytes({ pattern: 'bfs-naive', graph: 'kron:16' })).toBe(4 * 2 * 16 * 2 ** 16 * 8)
    expect(deadlineBytes({ pattern: 'bfs-naive', graph: 'urand:10:7', idBytes: 4 })).toBe(4 * 2 * 16 * 2 ** 10 * 4)
  })

  it('a run past its deadline answers 504 PS_WORKLOAD_TIMEOUT saying why, and the runner is told to stop it', async () => {
    const { base, session } = await serve({ runDelayMs: 2_000, runs: { slackMs: 100, floorBytesPerSecond: 1e12 } })
    const t0 = Date.now()
    const r = await http(base, 'POST', '/api/run', { token: TOKEN, body: w })
    expect(Date.now() - t0).toBeLessThan(1_500)
    expect(r.status).toBe(504)
    expect(r.json.error.code).toBe('PS_WORKLOAD_TIMEOUT')
    expect(r.json.error.message).toMatch(/passed its deadline of 101 ms \(100 ms \+ its bytes at/)
    const runner = session.runner as unknown as { cancelled: Error[] }
    expect(runner.cancelled).toHaveLength(1)
    expect(runner.cancelled[0]!.message).toMatch(/deadline/)
  })

  it('bounds the queue: beyond maxQueued waiting runs, 503 PS_RUN_QUEUE_FULL with Retry-After', async () => {
    const { base, session } = await serve({ runDelayMs: 300, runs: { maxQueued: 2 } })
    const first = http(base, 'POST', '/api/run', { token: TOKEN, body: w })
    await expect.poll(() => (session.runner as unknown as { runs: unknown[] }).runs.length).toBe(1)
    const waiting = [http(base, 'POST', '/api/run', { token: TOKEN, body: w }), http(base, 'POST', '/api/run', { token: TOKEN, body: w })]
    await new Promise((r) => setTimeout(r, 50))
    const refused = await http(base, 'POST', '/api/run', { token: TOKEN, body: w })
    expect(refused.status).toBe(503)
    expect(refused.json.error.code).toBe('PS_RUN_QUEUE_FULL')
    expect(refused.headers['retry-after']).toBe('5')
    expect((await first).status).toBe(200)
    expect((await Promise.all(waiting)).map((r) => r.status)).toEqual([200, 200])
  })

  it('cancels the run of a client that went away, and serves the next', async () => {
    const { base, session } = await serve({ runDelayMs: 1_000 })
    const runner = session.runner as unknown as { runs: unknown[]; cancelled: Error[] }
    const req = request(new URL('/api/run', base), {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    })
    req.on('error', () => undefined)
    req.end(JSON.stringify(w))
    await expect.poll(() => runner.runs.length).toBe(1)
    req.destroy()
    await expect.poll(() => runner.cancelled.length).toBe(1)
    expect(runner.cancelled[0]!.message).toMatch(/client went away/)
    const next = await http(base, 'POST', '/api/run', { token: TOKEN, body: { ...w, bytes: 8192 } })
    expect(next.status).toBe(200)
  })

  it('a run cut off by shutdown answers 503 PS_SERVER_CLOSING, as does one still queued', async () => {
    const { srv, base, session } = await serve({ runDelayMs: 5_000 })
    const runner = session.runner as unknown as { runs: unknown[] }
    const inFlight = http(base, 'POST', '/api/run', { token: TOKEN, body: w })
    await expect.poll(() => runner.runs.length).toBe(1)
    const queued = http(base, 'POST', '/api/run', { token: TOKEN, body: w })
    await new Promise((r) => setTimeout(r, 50))
    await srv.close()
    for (const r of await Promise.all([inFlight, queued])) {
      expect(r.status).toBe(503)
      expect(r.json.error.code).toBe('PS_SERVER_CLOSING')
    }
    expect((await inFlight).json.error.message).toMatch(/run 1 was cut off/)
    expect((session.runner as unknown as { cancelled: unknown[] }).cancelled).toHaveLength(1) // the one in flight
  })
})
