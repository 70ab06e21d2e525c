import { writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { describeCapture } from '../../../host/src/capture/catalog.js'
import type { CaptureRecord } from '../../../host/src/capture/format.js'
import { readRecords } from '../../../host/src/capture/reader.js'
import { PsError } from '../../../host/src/core/errors.js'
import { startServer } from '../../../host/src/server/index.js'
import { openServerRecording } from '../../../host/src/server/recording.js'
import { removeRoots, tempRoot } from '../capture/fixtures.js'
import { fakeSession } from './fake-session.js'
import { closeServers, http, serve, TOKEN } from './helpers.js'

afterEach(async () => {
  await closeServers()
  removeRoots()
})

const records = async (dir: string): Promise<CaptureRecord[]> => {
  const out: CaptureRecord[] = []
  for await (const r of readRecords(dir)) out.push(r)
  return out
}

describe('serve records its session', () => {
  it('one capture with every snapshot, each run, START/STOP/CLEAR and device events, complete at close', async () => {
    const root = tempRoot()
    const { srv, base, client, session } = await serve({ captures: { root, record: true } })
    expect(srv.recording).toMatch(/\/serve-\d{8}-\d{6}$/)
    const name = basename(srv.recording!)
    expect((await http(base, 'GET', '/api/captures', { token: TOKEN })).json).toMatchObject({
      recording: name,
      captures: [{ name, status: 'recording' }],
    })

    expect((await http(base, 'POST', '/api/start', { token: TOKEN, body: { periodMs: 50 } })).status).toBe(200)
    client.tick()
    client.tick()
    expect((await http(base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'strided', bytes: 4096 } })).status).toBe(200)
    // a run that fails after it started is recorded with its error
    session.runner!.run = async () => {
      throw new PsError('PS_TWIN_EXITED', 'twin gone (test)')
    }
    expect((await http(base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'merged-aligned', bytes: 4096 } })).status).toBe(503)
    expect((await http(base, 'POST', '/api/clear', { token: TOKEN, body: {} })).status).toBe(200)
    expect((await http(base, 'POST', '/api/stop', { token: TOKEN, body: {} })).status).toBe(200)
    client.disconnect('PS_SERIAL_DISCONNECTED')
    client.emit('reconnect')
    await srv.close()

    const got = await records(srv.recording!)
    const kinds = got.map((r) => (r.t === 'mark' ? `mark:${r.label}` : r.t === 'device' ? `device:${r.event}` : r.t))
    expect(kinds.filter((k) => k !== 'snapshot')).toEqual([
      'device:connect',
      'mark:start',
      'run-start',
      'run',
      'run-start',
      'run',
      'mark:clear',
      'mark:stop',
      'device:disconnect',
      'gap',
      'device:reconnect',
    ])
    // the gap spans the time the device was away, with the disconnect's reason
    const gap = got.find((r) => r.t === 'gap')
    const disc = got.find((r) => r.t === 'device' && r.event === 'disconnect')
    if (gap?.t !== 'gap' || disc?.t !== 'device') throw new Error('gap or disconnect missing')
    expect(gap.from).toBeGreaterThanOrEqual(disc.at)
    expect(gap.to).toBeGreaterThanOrEqual(gap.from)
    expect(gap.reason).toEqual(disc.error)
    // every snapshot the client emitted (the fake emits streamed ones only), in order
    const indices = got.flatMap((r) => (r.t === 'snapshot' ? [r.snapshot.index] : []))
    expect(indices.length).toBeGreaterThanOrEqual(2)
    expect(indices).toEqual([...indices].sort((a, b) => a - b))
    const runs = got.filter((r) => r.t === 'run')
    expect(runs[0]).toMatchObject({ id: 1, origin: 'manual', workload: { pattern: 'strided', bytes: 4096 }, error: null })
    // the window the run record names is the one of the report it recorded
    expect(runs[0]!.probeWindow).toEqual((runs[0]!.result as { probeWindow: unknown }).probeWindow)
    expect(runs[0]!.probeWindow).toMatchObject({ from: expect.any(Number), to: expect.any(Number) })
    expect(runs[0]!.result).toMatchObject({ id: 1, probe: { mrd32: 128 } })
    expect(runs[1]).toMatchObject({ id: 2, error: { code: 'PS_TWIN_EXITED' }, result: null, probeWindow: null })
    expect(got.find((r) => r.t === 'mark' && r.label === 'start')).toMatchObject({ note: '50 ms' })
    expect(got.find((r) => r.t === 'device' && r.event === 'disconnect')).toMatchObject({ error: { code: 'PS_SERIAL_DISCONNECTED' } })

    const d = await describeCapture(srv.recording!)
    expect(d).toMatchObject({ status: 'complete', runs: 2, records: got.length, read: { torn: 0 } })
    expect(d.manifest).toMatchObject({ source: 'twin', path: '/dev/pts/fake', probe: { probeId: 0x50435343 } })
  })

  it('records nothing without record: true', async () => {
    const root = tempRoot()
    const { srv } = await serve({ captures: { root, record: false } })
    expect(srv.recording).toBeNull()
  })

  it('refuses to start when the root cannot hold a capture, and closes the session it opened', async () => {
    const root = tempRoot()
    writeFileSync(join(root, 'file'), '')
    const session = fakeSession()
    await expect(
      startServer({
        twin: true,
        http: { host: '127.0.0.1', port: 0 },
        token: TOKEN,
        session,
        captures: { root: join(root, 'file'), record: true },
      }),
    ).rejects.toMatchObject({ code: 'PS_CAPTURE_IO', message: /cannot record under/ })
    expect(session.closed).toBe(false) // injected: the caller keeps it
  })

  it('takes the next suffix when a server started in the same second has the name', () => {
    const root = tempRoot()
    const when = new Date('2025-03-04T05:06:07Z')
    const a = openServerRecording(root, fakeSession(), when)
    const b = openServerRecording(root, fakeSession(), when)
    expect([a.name, b.name]).toEqual(['serve-20250304-050607', 'serve-20250304-050607-2'])
    a.close()
    b.close()
  })
})
