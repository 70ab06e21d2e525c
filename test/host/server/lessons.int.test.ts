// The lesson REST over a real HTTP server: list, get, 404 with its code, a broken lessons folder
// stopping the start, and the completer latency a latency step sets (POST /api/latency).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { startServer } from '../../../host/src/server/index.js'
import { fakeSession } from './fake-session.js'
import { closeServers, http, serve, TOKEN } from './helpers.js'

const dirs: string[] = []
afterEach(closeServers)
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

describe('GET /api/lessons', () => {
  it('lists the shipped lessons and serves one with its steps', async () => {
    const { base } = await serve()
    const list = await http(base, 'GET', '/api/lessons', { token: TOKEN })
    expect(list.status).toBe(200)
    expect(list.json.lessons).toContainEqual({
      id: 'coalescing',
      title: 'Why coalesced, aligned zero-copy reads are faster',
      minutes: 30,
      summary: expect.any(String),
      steps: 7,
    })
    const one = await http(base, 'GET', '/api/lessons/coalescing', { token: TOKEN })
    expect(one.status).toBe(200)
    expect(one.json.lesson.steps[0]).toMatchObject({ run: { pattern: 'strided', bytes: 1048576, offset: 0 }, latencyCycles: 250 })
    expect(one.json.lesson.steps[0].question).toMatch(/\?$/)
  })

  it('answers 404 PS_LESSON_NOT_FOUND for a name no lesson has, 401 without the token', async () => {
    const { base } = await serve()
    const r = await http(base, 'GET', '/api/lessons/nope', { token: TOKEN })
    expect(r.status).toBe(404)
    expect(r.json.error.code).toBe('PS_LESSON_NOT_FOUND')
    expect((await http(base, 'GET', '/api/lessons')).status).toBe(401)
  })

  it('serves a teacher’s folder; a broken lesson there stops the start with PS_LESSON_INVALID', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ps-lessons-'))
    dirs.push(dir)
    const lesson = {
      id: 'mine',
      title: 'Mine',
      minutes: 5,
      summary: 'one step',
      steps: [
        { title: 't', question: 'q?', run: { pattern: 'merged-aligned', bytes: 4096 }, watch: ['histogram'], answer: 'a', text: 'x' },
      ],
    }
    writeFileSync(join(dir, 'mine.json'), JSON.stringify(lesson))
    const { base } = await serve({ lessonsDir: dir })
    const list = await http(base, 'GET', '/api/lessons', { token: TOKEN })
    expect(list.json.lessons.map((l: { id: string }) => l.id)).toEqual(['mine'])
    expect((await http(base, 'GET', '/api/lessons/mine', { token: TOKEN })).json.lesson.steps[0].run).toEqual({
      pattern: 'merged-aligned',
      bytes: 4096,
      offset: 0,
    })
    writeFileSync(join(dir, 'broken.json'), JSON.stringify({ ...lesson, id: 'broken', steps: [{ ...lesson.steps[0], watch: [] }] }))
    const session = fakeSession({ runner: true })
    await expect(
      startServer({ twin: true, http: { host: '127.0.0.1', port: 0 }, token: TOKEN, session, demo: false, gpu: false, lessonsDir: dir }),
    ).rejects.toMatchObject({ code: 'PS_LESSON_INVALID', message: expect.stringMatching(/lesson broken is invalid: steps\.0\.watch/) })
    await session.close()
  })
})

describe('POST /api/latency', () => {
  it('sets the completer latency on the device; the status’ info says so', async () => {
    const { base, client } = await serve()
    const r = await http(base, 'POST', '/api/latency', { token: TOKEN, body: { cycles: 1000 } })
    expect(r.status).toBe(200)
    expect(r.json).toEqual({ barLatencyCycles: 1000 })
    expect(client.calls).toContain('latency:1000')
    expect((await http(base, 'GET', '/api/status', { token: TOKEN })).json.info.barLatencyCycles).toBe(1000)
    const bad = await http(base, 'POST', '/api/latency', { token: TOKEN, body: { cycles: 70000 } })
    expect(bad.status).toBe(400)
    expect(bad.json.error.code).toBe('PS_REQUEST_INVALID')
  })
})
