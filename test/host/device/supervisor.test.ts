/**
 * The supervisor's rules on fake twin sessions (the real twin is killed and hung in
 * test/host/server/supervision.int.test.ts): back-off doubling and its cap, a failure told in
 * words, restart(why) ending the twin on purpose, a cancel the twin leaves unanswered ending it,
 * host statistics summed over twins.
 */
import { EventEmitter } from 'node:events'
import { afterEach, describe, expect, it } from 'vitest'
import { PsError } from '../../../host/src/core/errors.js'
import type { DeviceSession } from '../../../host/src/device/session.js'
import { describeExit, SupervisedTwin } from '../../../host/src/device/supervisor.js'
import type { TwinFailure } from '../../../host/src/core/wire.js'

class FakeTwin extends EventEmitter {
  exitStatus: { code: number | null; signal: NodeJS.Signals | null } | undefined
  constructor(readonly pid: number) {
    super()
  }
  get isRunning() {
    return this.exitStatus === undefined
  }
  stderrLines() {
    return ['boom: assertion failed']
  }
  kill(signal: NodeJS.Signals = 'SIGKILL') {
    this.die(null, signal)
  }
  die(code: number | null, signal: NodeJS.Signals | null) {
    if (this.exitStatus) return
    this.exitStatus = { code, signal }
    // the PTY closes first: what waited on the link fails with the link's words
    this.emit('link-dies')
    setTimeout(() => this.emit('exit', code, signal), 5)
  }
}

class FakeClient extends EventEmitter {
  frames = 0
  answerPing = true
  hostStats() {
    return { frames: this.frames, badFrames: 0, crcErrors: 0, overflows: 0, seqGaps: 1, lostFrames: 3, unknownFrames: 0, bytes: 10 }
  }
  pingsSentAt: number[] = []
  command(name: string, _args?: unknown, opts?: { timeoutMs?: number }) {
    if (name !== 'PING' || this.answerPing) return Promise.resolve({})
    this.pingsSentAt.push(Date.now())
    // as the real client: the PING waits its timeout out, then fails
    return new Promise((_resolve, reject) =>
      setTimeout(() => reject(new PsError('PS_CMD_TIMEOUT', 'PING got no response')), opts?.timeoutMs ?? 0),
    )
  }
  /** a snapshot that waits until the link dies under it, as one queued behind a hung twin does */
  snapshot() {
    return new Promise((_resolve, reject) =>
      this.once('link-dies', () => reject(new PsError('PS_SERIAL_DISCONNECTED', 'bad file descriptor'))),
    )
  }
  start() {
    return Promise.resolve()
  }
}

const info = { probeId: 1 } as unknown as DeviceSession['info']

const fakeSessions = () => {
  let n = 0
  const made: { twin: FakeTwin; client: FakeClient; closed: boolean }[] = []
  let failNext = 0
  const open = async (): Promise<DeviceSession> => {
    if (failNext > 0) {
      failNext--
      throw new PsError('PS_TWIN_START', 'the twin exited before it was ready')
    }
    const twin = new FakeTwin(1000 + n++)
    const client = new FakeClient()
    twin.on('link-dies', () => client.emit('link-dies'))
    const rec = { twin, client, closed: false }
    made.push(rec)
    return {
      source: 'twin',
      path: `/dev/pts/${n}`,
      info,
      client: client as unknown as DeviceSession['client'],
      // a run in flight ends with the twin's exit, as the twin runner's does
      runner: {
        kind: 'twin',
        run: () =>
          new Promise((_resolve, reject) =>
            twin.once('exit', () => reject(new PsError('PS_TWIN_EXITED', 'the twin exited during the run'))),
          ),
      },
      twin: twin as unknown as DeviceSession['twin'],
      close: async () => {
        rec.closed = true
      },
    } as DeviceSession
  }
  return { open, made, failStarts: (k: number) => (failNext = k) }
}

const opened: SupervisedTwin[] = []
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close()
})

const supervise = async (f: ReturnType<typeof fakeSessions>, o: { hangTimeoutMs?: number; checkEveryMs?: number } = {}) => {
  const s = await SupervisedTwin.open({ open: f.open, minBackoffMs: 20, maxBackoffMs: 80, healthyMs: 60_000, ...o })
  opened.push(s)
  return s
}

const next = <T>(em: EventEmitter, event: string) => new Promise<T>((r) => em.once(event, (...a: unknown[]) => r(a[0] as T)))

describe('SupervisedTwin', () => {
  it('tells an exit in words, disconnects, restarts, reconnects, and sums host stats over twins', async () => {
    const f = fakeSessions()
    const s = await supervise(f)
    f.made[0]!.client.frames = 5
    const disconnected = next<PsError>(s.client, 'disconnect')
    const failed = next<TwinFailure>(s, 'failure')
    const reconnected = next(s.client, 'reconnect')
    f.made[0]!.twin.die(134, null)
    const failure = await failed
    expect(failure).toMatchObject({ reason: 'exit', code: 134, signal: null, stderr: ['boom: assertion failed'] })
    expect(failure.message).toBe('the twin exited with code 134; its last stderr lines: boom: assertion failed')
    expect((await disconnected).code).toBe('PS_TWIN_EXITED')
    // commands fail fast with the story while no twin runs
    await expect(s.client.start(100)).rejects.toMatchObject({ code: 'PS_TWIN_EXITED', message: failure.message })
    await reconnected
    expect(s.supervision()).toMatchObject({ state: 'up', restarts: 1, backoffMs: 20 })
    expect(s.path).toBe('/dev/pts/2')
    expect(f.made[0]!.closed).toBe(true)
    f.made[1]!.client.frames = 7
    expect(s.client.hostStats()).toMatchObject({ frames: 12, seqGaps: 2, lostFrames: 6, bytes: 20 })
  })

  it('doubles the back-off over failed starts up to its cap, each failure reported', async () => {
    const f = fakeSessions()
    const s = await supervise(f)
    const failures: TwinFailure[] = []
    s.on('failure', (x) => failures.push(x))
    f.failStarts(3)
    const back = next(s, 'restarted')
    f.made[0]!.twin.die(null, 'SIGSEGV')
    await back
    expect(failures.map((x) => x.reason)).toEqual(['exit', 'start', 'start', 'start'])
    expect(failures[0]!.message).toContain('was killed by SIGSEGV')
    expect(failures[1]!.message).toContain('restarting the twin failed')
    // 20 → 40 → 80 → 80 (capped)
    expect(s.supervision().backoffMs).toBe(80)
    // another failure soon after keeps the back-off high: the twin was not up for healthyMs
    const again = next<TwinFailure>(s, 'failure')
    f.made[1]!.twin.die(1, null)
    await again
    expect(s.supervision().backoffMs).toBe(80)
  })

  it('restart(why) kills the twin on purpose and says why', async () => {
    const f = fakeSessions()
    const s = await supervise(f)
    const failed = next<TwinFailure>(s, 'failure')
    s.restart('run 3 passed its deadline of 100 ms')
    const x = await failed
    expect(x).toMatchObject({ reason: 'killed', signal: 'SIGKILL' })
    expect(x.message).toMatch(
      /^the server ended the twin: run 3 passed its deadline of 100 ms; the twin was killed by SIGKILL; its last stderr/,
    )
  })

  it("a twin that does not answer a run's cancel is ended and restarted, saying why", async () => {
    const f = fakeSessions()
    const s = await supervise(f)
    const failed = next<TwinFailure>(s, 'failure')
    f.made[0]!.twin.emit('cancel-unanswered', 'run 4 did not stop within 2000 ms of its cancel')
    const x = await failed
    expect(x).toMatchObject({ reason: 'killed', signal: 'SIGKILL' })
    expect(x.message).toMatch(
      /^the twin did not stop a cancelled run: run 4 did not stop within 2000 ms of its cancel; the twin was killed/,
    )
    await next(s, 'restarted')
    expect(s.twinPid).toBe(1001)
  })

  it('an unanswered PING is a hang: the twin is killed and restarted', async () => {
    const f = fakeSessions()
    const s = await supervise(f, { hangTimeoutMs: 50, checkEveryMs: 20 })
    const failed = next<TwinFailure>(s, 'failure')
    const disconnected = next<PsError>(s.client, 'disconnect')
    f.made[0]!.client.answerPing = false
    const x = await failed
    expect(x.reason).toBe('hang')
    expect(x.message).toContain('stopped answering')
    expect((await disconnected).code).toBe('PS_TWIN_HUNG')
    await next(s, 'restarted')
    expect(s.twinPid).toBe(1001)
  })

  it('a twin silent for hangTimeoutMs since it last spoke is hung: the PING waits only the rest of it', async () => {
    const f = fakeSessions()
    const s = await supervise(f, { hangTimeoutMs: 400, checkEveryMs: 100 })
    const quietFrom = Date.now()
    f.made[0]!.client.answerPing = false
    const x = await next<TwinFailure>(s, 'failure')
    const foundAfter = x.at - quietFrom
    // the PING goes out 100..150 ms into the silence; the verdict comes 400 ms after the last word
    expect(f.made[0]!.client.pingsSentAt[0]! - quietFrom).toBeGreaterThanOrEqual(100)
    expect(foundAfter).toBeGreaterThanOrEqual(395)
    expect(foundAfter).toBeLessThan(480)
    expect(x.message).toContain('for 400 ms')
  })

  it('a snapshot and a run waiting on a hung twin fail with its one cause, PS_TWIN_HUNG, as the status says', async () => {
    const f = fakeSessions()
    const s = await supervise(f, { hangTimeoutMs: 100, checkEveryMs: 20 })
    const snapshot = s.client.snapshot()
    const run = s.runner.run({ kind: 'micro', pattern: 'strided', bytes: 4096 } as never)
    f.made[0]!.client.answerPing = false
    const failure = await next<TwinFailure>(s, 'failure')
    await expect(snapshot).rejects.toMatchObject({ code: 'PS_TWIN_HUNG', message: failure.message })
    await expect(run).rejects.toMatchObject({ code: 'PS_TWIN_HUNG', message: failure.message })
    expect(s.supervision().lastFailure?.reason).toBe('hang')
  })

  it('a snapshot and a run cut off by a crash fail with PS_TWIN_EXITED and its story, not the closed port', async () => {
    const f = fakeSessions()
    const s = await supervise(f)
    const snapshot = s.client.snapshot()
    const run = s.runner.run({ kind: 'micro', pattern: 'strided', bytes: 4096 } as never)
    f.made[0]!.twin.die(134, null)
    const failure = await next<TwinFailure>(s, 'failure')
    await expect(snapshot).rejects.toMatchObject({ code: 'PS_TWIN_EXITED', message: failure.message })
    await expect(run).rejects.toMatchObject({ code: 'PS_TWIN_EXITED', message: failure.message })
  })

  it('a PTY that closes before the twin exits: the exit tells the story, not the closed link', async () => {
    const f = fakeSessions()
    const s = await supervise(f)
    const failed = next<TwinFailure>(s, 'failure')
    f.made[0]!.client.emit('disconnect', new PsError('PS_SERIAL_DISCONNECTED', 'serial port closed'))
    f.made[0]!.twin.die(null, 'SIGKILL') // the twin's own exit arrives just after its PTY closed
    expect(await failed).toMatchObject({ reason: 'exit', signal: 'SIGKILL' })
  })

  it('a PTY closed while the twin runs on past the grace: the supervisor ends that twin', async () => {
    const f = fakeSessions()
    const s = await supervise(f)
    const failed = next<TwinFailure>(s, 'failure')
    f.made[0]!.client.emit('disconnect', new PsError('PS_SERIAL_DISCONNECTED', 'serial port closed'))
    const x = await failed
    expect(x.reason).toBe('killed')
    expect(x.message).toMatch(/^the twin's serial link closed \(serial port closed\)/)
  })

  it('passes on every event of the twin of the moment, the host side’s tap frames too, and none of a retired twin', async () => {
    const f = fakeSessions()
    const s = await supervise(f)
    const seen: string[] = []
    for (const e of ['snapshot', 'histogram', 'interval', 'tap-snapshot', 'tap-histogram'] as const)
      s.client.on(e, (x: { tap?: string }) => seen.push(`${e}${x.tap ? ` ${x.tap}` : ''}`))
    const first = f.made[0]!.client
    first.emit('snapshot', { index: 1 })
    first.emit('tap-snapshot', { tap: 'hostSide', snapshotIndex: 1 })
    first.emit('histogram', { kind: 'last' })
    first.emit('tap-histogram', { tap: 'hostSide', kind: 'last' })
    first.emit('interval', { records: [] })
    expect(seen).toEqual(['snapshot', 'tap-snapshot hostSide', 'histogram', 'tap-histogram hostSide', 'interval'])
    const reconnected = next(s.client, 'reconnect')
    f.made[0]!.twin.die(1, null)
    await reconnected
    first.emit('tap-snapshot', { tap: 'hostSide', snapshotIndex: 2 })
    expect(seen).toHaveLength(5)
    f.made[1]!.client.emit('tap-snapshot', { tap: 'hostSide', snapshotIndex: 0 })
    expect(seen.at(-1)).toBe('tap-snapshot hostSide')
    expect(seen).toHaveLength(6)
  })

  it('describes exits by code or signal', () => {
    expect(describeExit(0, null, [])).toBe('exited with code 0')
    expect(describeExit(null, 'SIGKILL', ['a', 'b'])).toBe('was killed by SIGKILL; its last stderr lines: a | b')
  })
})
