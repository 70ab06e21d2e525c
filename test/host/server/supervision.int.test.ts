/**
 * A server that outlives its twin, against the real twin: killed with SIGKILL mid-stream, and
 * hung with SIGSTOP; a run past its deadline is cancelled in the twin, which stays up. Each time the server must say what happened (status, WebSocket, terminal
 * line), restart the twin, restore streaming, and keep recording with the gap marked; nothing
 * recorded before the failure may be lost.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { startServer, type RunningServer, type ServerMessage, type ServerStatus } from '../../../host/src/server/index.js'
import { readRecords } from '../../../host/src/recording/reader.js'
import type { AnyRecord } from '../../../host/src/recording/format.js'
import type { SupervisedTwin } from '../../../host/src/device/supervisor.js'
import { openDeviceSession } from '../../../host/src/server/session.js'
import { http, TOKEN } from './helpers.js'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const built = existsSync(join(root, 'build/twin/pcie-scope-twin'))

const HANG_TIMEOUT_MS = 1500
const PERIOD_MS = 50

const cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f()
})

const until = async <T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> => {
  const t0 = Date.now()
  for (;;) {
    const v = await probe()
    if (v !== undefined) return v
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

const setup = async (runs?: { slackMs: number; floorBytesPerSecond: number }) => {
  expect(built, 'the twin is not built: run `npm run build:twin`').toBe(true)
  const recordings = mkdtempSync(join(tmpdir(), 'ps-supervision-'))
  cleanup.push(() => rmSync(recordings, { recursive: true, force: true }))
  const session = (await openDeviceSession({
    twin: true,
    supervision: { hangTimeoutMs: HANG_TIMEOUT_MS, checkEveryMs: 300, minBackoffMs: 200 },
  })) as unknown as SupervisedTwin
  cleanup.push(() => session.close())
  const notices: string[] = []
  const srv: RunningServer = await startServer({
    twin: true,
    http: { host: '127.0.0.1', port: 0 },
    token: TOKEN,
    session,
    recordings: { dir: recordings, record: true },
    notify: (l) => notices.push(l),
    ...(runs ? { runs } : {}),
  })
  cleanup.push(() => srv.close())
  const base = new URL(srv.url).origin
  const ws = new WebSocket(`${base.replace('http', 'ws')}/ws?token=${TOKEN}`)
  const messages: ServerMessage[] = []
  ws.on('message', (d) => messages.push(JSON.parse(String(d)) as ServerMessage))
  await new Promise((r, j) => ws.once('open', r).once('error', j))
  cleanup.push(() => ws.close())
  expect((await http(base, 'POST', '/api/start', { token: TOKEN, body: { periodMs: PERIOD_MS } })).status).toBe(200)
  const status = async () => (await http(base, 'GET', '/api/status', { token: TOKEN })).json as ServerStatus
  const snapshotCount = () =>
    messages.filter((m) => m.type === 'snapshot').reduce((n, m) => n + (m.type === 'snapshot' ? m.snapshots.length : 0), 0)
  // streaming for real before anything breaks
  await until('snapshots before the failure', () => (snapshotCount() >= 5 ? true : undefined))
  const records = async (): Promise<AnyRecord[]> => {
    await srv.close() // seals the recording; everything written is on disk
    const [name] = readdirSync(recordings)
    const out: AnyRecord[] = []
    for await (const r of readRecords(join(recordings, name!))) out.push(r)
    return out
  }
  return { session, srv, base, messages, notices, status, snapshotCount, records }
}

/** After a failure: status says so, the twin restarts, streaming resumes, the recording has the gap. */
const expectRecovery = async (t: Awaited<ReturnType<typeof setup>>, oldPid: number, reason: 'exit' | 'hang') => {
  const down = await until('status showing the failure', async () => {
    const st = await t.status()
    return st.supervision?.lastFailure ? st : undefined
  })
  expect(down.supervision!.lastFailure).toMatchObject({ reason, signal: 'SIGKILL' })
  expect(down.supervision!.lastFailure!.message).toContain('SIGKILL')
  const up = await until('the restarted twin', async () => {
    const st = await t.status()
    return st.connected && st.supervision!.restarts === 1 ? st : undefined
  })
  expect(up.supervision!.state).toBe('up')
  expect(t.session.twinPid).not.toBe(oldPid)
  const before = t.snapshotCount()
  await until('snapshots after the restart', () => (t.snapshotCount() >= before + 5 ? true : undefined))
  const st = await t.status()
  expect(st.streaming).toEqual({ periodMs: PERIOD_MS })
  expect(t.messages.some((m) => m.type === 'twin-failure' && m.failure.reason === reason)).toBe(true)
  expect(t.messages.some((m) => m.type === 'twin-restarted')).toBe(true)
  expect(t.messages.some((m) => m.type === 'status' && !m.connected && m.error?.message.includes('SIGKILL'))).toBe(true)
  expect(t.notices.some((l) => l.includes('SIGKILL') && l.includes('restarting it in'))).toBe(true)
  expect(t.notices.some((l) => l.includes('running again'))).toBe(true)

  const recs = await t.records()
  const gapAt = recs.findIndex((r) => r.t === 'gap')
  expect(gapAt).toBeGreaterThan(0)
  const gap = recs[gapAt]!
  if (gap.t !== 'gap') throw new Error('unreachable')
  expect(gap.to).toBeGreaterThan(gap.from)
  expect(gap.reason?.code).toBe(reason === 'hang' ? 'PS_TWIN_HUNG' : 'PS_TWIN_EXITED')
  // the snapshots from before the failure are all there, and streaming went on after the gap
  const snapsBefore = recs.slice(0, gapAt).filter((r) => r.t === 'snapshot').length
  expect(snapsBefore).toBeGreaterThanOrEqual(5)
  expect(recs.slice(gapAt).filter((r) => r.t === 'snapshot').length).toBeGreaterThanOrEqual(5)
  expect(recs.some((r) => r.t === 'device' && r.event === 'disconnect')).toBe(true)
  expect(recs.some((r) => r.t === 'device' && r.event === 'reconnect')).toBe(true)
}

describe('twin supervision (real twin)', () => {
  it('a twin killed with SIGKILL mid-stream is reported, restarted, streams again, and the gap is recorded', async () => {
    const t = await setup()
    const pid = t.session.twinPid!
    process.kill(pid, 'SIGKILL')
    await expectRecovery(t, pid, 'exit')
  })

  it('a run past its deadline is cancelled in the real twin: 504, the same twin stays up, the next run counts exactly', async () => {
    const t = await setup({ slackMs: 300, floorBytesPerSecond: 1e12 })
    const pid = t.session.twinPid!
    const t0 = Date.now()
    const r = await http(t.base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'strided', bytes: 1 << 30, offset: 0 } })
    expect(r.status).toBe(504)
    expect(r.json.error.code).toBe('PS_WORKLOAD_TIMEOUT')
    // answered once the twin stopped the run (its done line), well before a restart would have been needed
    expect(Date.now() - t0).toBeLessThan(300 + 2_000)
    expect(t.session.twinPid).toBe(pid)
    const next = await http(t.base, 'POST', '/api/run', { token: TOKEN, body: { pattern: 'strided', bytes: 4096, offset: 0 } })
    expect(next.status).toBe(200)
    expect(next.json.issued.count).toBe(128)
    expect(next.json.completions).toBe(128)
    // the probe saw this run's reads and nothing of the cancelled one's
    expect(next.json.report.probe).toMatchObject({ mrd32: 128, mrdBytes: 4096, cpldCount: 128 })
    const st = await t.status()
    expect(st.supervision).toMatchObject({ state: 'up', restarts: 0, lastFailure: null })
    expect(t.session.twinPid).toBe(pid)
  })

  it('a hung twin (SIGSTOP) is detected within the hang timeout, killed, restarted and streams again', async () => {
    const t = await setup()
    const pid = t.session.twinPid!
    const stoppedAt = Date.now()
    process.kill(pid, 'SIGSTOP')
    cleanup.push(() => {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        /* already gone: what the supervisor should have done */
      }
    })
    const st = await until('the hang to be detected', async () => {
      const s = await t.status()
      return s.supervision?.lastFailure ? s : undefined
    })
    // the hang timeout counts from the twin's last word, which came at most a watchdog round
    // before the stop: found within the timeout and the kill's own moment
    expect(st.supervision!.lastFailure!.at - stoppedAt).toBeLessThan(HANG_TIMEOUT_MS + 700)
    expect(st.supervision!.lastFailure!.message).toContain('stopped answering')
    await expectRecovery(t, pid, 'hang')
  })
})
