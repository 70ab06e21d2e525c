import { describe, expect, it } from 'vitest'
import type { ServerStatus } from '../../host/src/core/wire.js'
import { liveState, staleAfterMs, type LiveInputs } from '../../web/live.js'

const status = (over: Partial<ServerStatus> = {}): ServerStatus =>
  ({ connected: true, error: null, streaming: { periodMs: 100 }, ...over }) as ServerStatus

const inputs = (over: Partial<LiveInputs> = {}): LiveInputs => ({
  auth: 'ok',
  feed: 'open',
  status: status(),
  paused: false,
  lastSnapshotAt: 10_000,
  now: 10_050,
  ...over,
})

describe('liveState', () => {
  it('is live only with a fresh snapshot from a connected, streaming device', () => {
    expect(liveState(inputs()).key).toBe('live')
  })

  it('tells a missing token from a wrong one, and says where the right URL is', () => {
    const missing = liveState(inputs({ auth: 'missing' }))
    expect(missing.key).toBe('token-missing')
    expect(missing.hint).toMatch(/URL .*printed/)
    const wrong = liveState(inputs({ auth: 'rejected' }))
    expect(wrong.key).toBe('token-wrong')
    expect(wrong.text).toBe('wrong token')
  })

  it('says unreachable, disconnected, paused, stopped and stale in words of their own', () => {
    expect(liveState(inputs({ feed: 'unreachable' })).key).toBe('unreachable')
    expect(liveState(inputs({ feed: 'connecting' })).key).toBe('connecting')
    const gone = liveState(inputs({ status: status({ connected: false, error: { code: 'PS_TWIN_EXITED', message: 'twin exited' } }) }))
    expect(gone.key).toBe('disconnected')
    expect(gone.text).toContain('PS_TWIN_EXITED')
    expect(liveState(inputs({ paused: true })).key).toBe('paused')
    expect(liveState(inputs({ status: status({ streaming: null }) })).key).toBe('stopped')
    const stale = liveState(inputs({ now: 10_000 + staleAfterMs(100) + 1 }))
    expect(stale.key).toBe('stale')
    expect(stale.text).toMatch(/no snapshot for 2 s/)
    expect(liveState(inputs({ lastSnapshotAt: undefined })).text).toBe('stale: no snapshot yet')
  })

  it('says a supervised twin is down and being restarted, with the story of its end', () => {
    const down = liveState(
      inputs({
        status: status({
          connected: false,
          error: { code: 'PS_TWIN_HUNG', message: 'the twin stopped answering: a PING got no reply within 5000 ms' },
          supervision: { state: 'restarting', restarts: 2 } as ServerStatus['supervision'],
        }),
      }),
    )
    expect(down).toMatchObject({ key: 'disconnected', text: 'twin down, restarting (PS_TWIN_HUNG)', tone: 'bad' })
    expect(down.hint).toBe(
      'the twin stopped answering: a PING got no reply within 5000 ms. The server is restarting the twin (2 restarts so far).',
    )
  })

  it('waits five periods, at least 2 s, before calling a stream stale', () => {
    expect(staleAfterMs(100)).toBe(2_000)
    expect(staleAfterMs(1_000)).toBe(5_000)
  })

  it('ranks a gone device above the pause, and the pause above stopped', () => {
    expect(liveState(inputs({ paused: true, status: status({ connected: false }) })).key).toBe('disconnected')
    expect(liveState(inputs({ paused: true, status: status({ streaming: null }) })).key).toBe('paused')
  })
})
