/** Recording on demand: GET/POST /api/recording start and stop recordings of the live stream. */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { removeRoots, tempRoot } from '../recording/fixtures.js'
import { closeServers, http, serve, TOKEN } from './helpers.js'
import { fakeSession } from './fake-session.js'
import { SessionRecording } from '../../../host/src/server/serve-recording.js'
import type { RawFrame } from '../../../host/src/device/client.js'
import type { FrameRecord } from '../../../host/src/recording/format.js'
import { readRecords } from '../../../host/src/recording/reader.js'
import { buildRawFrame } from '../../../host/src/protocol/frame.js'
import { FRAME_TYPE } from '../../../host/src/core/generated.js'

afterEach(async () => {
  await closeServers()
  removeRoots()
})

const post = (base: string, body: unknown) => http(base, 'POST', '/api/recording', { token: TOKEN, body })

describe('POST /api/recording', () => {
  it('starts a recording on a server that was not recording, keeps it on a second start, and stops it', async () => {
    const root = tempRoot()
    const { base } = await serve({ recordings: { dir: root, record: false } })
    expect((await http(base, 'GET', '/api/recording', { token: TOKEN })).json).toEqual({ recording: null })
    const started = await post(base, { action: 'start' })
    expect(started.status).toBe(200)
    const name = started.json.recording as string
    expect(name).toMatch(/^serve-\d{8}-\d{6}(-\d+)?$/)
    expect(started.json.stopped).toBeNull()
    expect((await post(base, { action: 'start' })).json).toEqual({ recording: name, stopped: null })
    expect((await http(base, 'GET', '/api/recordings', { token: TOKEN })).json.recording).toBe(name)
    expect((await http(base, 'POST', '/api/clear', { token: TOKEN, body: {} })).status).toBe(200) // something to record
    const stopped = await post(base, { action: 'stop' })
    expect(stopped.json).toEqual({ recording: null, stopped: name })
    const d = await http(base, 'GET', `/api/recordings/${name}`, { token: TOKEN })
    expect(d.json).toMatchObject({ status: 'complete' })
    expect(d.json.byType.device).toBe(1)
    expect(d.json.byType.mark).toBe(1) // the clear
    expect((await post(base, { action: 'stop' })).json).toEqual({ recording: null, stopped: null })
  })

  it('records the host side’s tap snapshots and histograms in switch mode', async () => {
    const root = tempRoot()
    const { base, client } = await serve({ recordings: { dir: root, record: true }, switchMode: true })
    const name = (await http(base, 'GET', '/api/recording', { token: TOKEN })).json.recording as string
    await client.start(60_000)
    for (let i = 0; i < 10; i++) client.tick()
    await post(base, { action: 'stop' })
    const d = await http(base, 'GET', `/api/recordings/${name}`, { token: TOKEN })
    expect(d.json.byType).toMatchObject({ snapshot: 10, 'tap-snapshot': 10, histogram: 2, 'tap-histogram': 2 })
  })

  it('a new start after a stop records into a new recording', async () => {
    const root = tempRoot()
    const { base } = await serve({ recordings: { dir: root, record: true } })
    const first = (await http(base, 'GET', '/api/recording', { token: TOKEN })).json.recording as string
    expect(first).not.toBeNull()
    expect((await post(base, { action: 'stop' })).json.stopped).toBe(first)
    const second = (await post(base, { action: 'start' })).json.recording as string
    expect(second).not.toBe(first)
    expect(readdirSync(root).sort()).toEqual([first, second].sort())
    expect(readdirSync(join(root, second))).toContain('manifest.json')
  })

  it('refuses a bad body (400) and a server without a recordings folder (409), token required', async () => {
    const { base } = await serve({ recordings: { dir: tempRoot(), record: false } })
    expect((await post(base, { action: 'pause' })).json.error.code).toBe('PS_REQUEST_INVALID')
    expect((await post(base, {})).status).toBe(400)
    expect((await http(base, 'POST', '/api/recording', { body: { action: 'start' } })).status).toBe(401)
    const bare = await serve()
    const r = await post(bare.base, { action: 'start' })
    expect(r.status).toBe(409)
    expect(r.json.error.code).toBe('PS_RECORDING_UNAVAILABLE')
  })

  it('is in the OpenAPI document', async () => {
    const { base } = await serve()
    const doc = (await http(base, 'GET', '/api/openapi.json', { token: TOKEN })).json
    expect(Object.keys(doc.paths['/api/recording'])).toEqual(['get', 'post'])
    expect(doc.paths['/api/recording'].post.requestBody.content['application/json'].schema.properties.action.enum).toEqual([
      'start',
      'stop',
    ])
  })
})

describe('SessionRecording with frames (serve --record-frames)', () => {
  it('records every raw frame the client shows while a recording is open, and stops watching when it closes', async () => {
    const session = fakeSession()
    const watchers = new Set<(f: RawFrame) => void>()
    const client = Object.assign(session.client, {
      watchRawFrames: (w: (f: RawFrame) => void) => {
        watchers.add(w)
        return () => void watchers.delete(w)
      },
    })
    const root = tempRoot()
    const rec = new SessionRecording(root, { ...session, client }, { frames: true })
    const name = rec.start()
    const frame = buildRawFrame(FRAME_TYPE.COMMAND, 3, Buffer.from([1, 0, 0, 0, 0]))
    for (const w of watchers) w({ dir: 'tx', at: 1_700_000_000_000, bytes: frame })
    expect(rec.stop()).toBe(name)
    expect(watchers.size).toBe(0)
    const frames: FrameRecord[] = []
    for await (const r of readRecords(join(root, name))) if (r.t === 'frame') frames.push(r)
    expect(frames).toEqual([{ t: 'frame', at: 1_700_000_000_000, dir: 'tx', data: frame.toString('base64') }])
  })

  it('refuses to start when the client cannot show its frames', () => {
    const rec = new SessionRecording(tempRoot(), fakeSession(), { frames: true })
    expect(() => rec.start()).toThrow(expect.objectContaining({ code: 'PS_RECORDING_UNAVAILABLE' }))
  })
})
