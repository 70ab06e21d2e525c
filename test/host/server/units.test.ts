import type { IncomingMessage } from 'node:http'
import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { WsHub, type HubSocket } from '../../../host/src/server/hub.js'
import { nextDemoBytes } from '../../../host/src/server/runs.js'
import { bearerToken, hostAllowed, hostAllowlist, hostnameOf, originAllowed, tokenMatches } from '../../../host/src/server/security.js'
import { fakeSession } from './fake-session.js'

class FakeSocket extends EventEmitter implements HubSocket {
  readyState = 1
  bufferedAmount = 0
  sent: string[] = []
  pings = 0
  terminated = false
  autoPong = false
  send(d: string) {
    this.sent.push(d)
  }
  ping() {
    this.pings++
    if (this.autoPong) this.emit('pong')
  }
  terminate() {
    this.terminated = true
  }
}

describe('security helpers', () => {
  it('compares tokens in constant time and rejects empty ones', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true)
    expect(tokenMatches('abc', 'abd')).toBe(false)
    expect(tokenMatches('abc', 'abcd')).toBe(false)
    expect(tokenMatches('abc', '')).toBe(false)
    expect(tokenMatches('abc', null)).toBe(false)
  })
  it('parses bearer headers', () => {
    expect(bearerToken('Bearer xyz')).toBe('xyz')
    expect(bearerToken('bearer xyz')).toBe('xyz')
    expect(bearerToken('Basic xyz')).toBeUndefined()
    expect(bearerToken(undefined)).toBeUndefined()
  })
  it('checks Host against localhost names and the bound host', () => {
    expect(hostnameOf('[::1]:8080')).toBe('[::1]')
    expect(hostnameOf('LocalHost:80')).toBe('localhost')
    const allow = hostAllowlist('192.168.1.5')
    expect(hostAllowed(allow, '192.168.1.5:8080')).toBe(true)
    expect(hostAllowed(allow, 'localhost')).toBe(true)
    expect(hostAllowed(allow, 'attacker.test')).toBe(false)
    expect(hostAllowed(allow, undefined)).toBe(false)
    expect(hostAllowlist('0.0.0.0').has('0.0.0.0')).toBe(false)
    expect(hostAllowlist('::1').has('[::1]')).toBe(true)
  })
  it('accepts only a same-origin Origin on upgrade', () => {
    const allow = hostAllowlist('127.0.0.1')
    const req = (origin: string | undefined, host = '127.0.0.1:9000') => ({ headers: { origin, host } }) as unknown as IncomingMessage
    expect(originAllowed(allow, req(undefined))).toBe(true)
    expect(originAllowed(allow, req('http://127.0.0.1:9000'))).toBe(true)
    expect(originAllowed(allow, req('http://127.0.0.1:9001'))).toBe(false)
    expect(originAllowed(allow, req('http://evil.test:9000', 'evil.test:9000'))).toBe(false)
    expect(originAllowed(allow, req('null'))).toBe(false)
    expect(originAllowed(allow, req('file://x'))).toBe(false)
  })
})

describe('WsHub', () => {
  const snap = (i: number) => ({ ...fakeSession().client.makeSnapshot(), index: i })

  it('skips a batch for a client with more than maxBufferedBytes queued and counts the drop', () => {
    const hub = new WsHub({ greeting: () => [], hostStats: () => null, maxBufferedBytes: 1024 })
    const fast = new FakeSocket()
    const slow = new FakeSocket()
    hub.attach(fast)
    hub.attach(slow)
    slow.bufferedAmount = 4096
    hub.queueSnapshot(snap(1))
    hub.flush()
    hub.queueSnapshot(snap(2))
    hub.flush()
    expect(fast.sent).toHaveLength(2)
    expect(slow.sent).toHaveLength(0)
    expect(hub.drops).toBe(2)
    slow.bufferedAmount = 0
    hub.queueSnapshot(snap(3))
    hub.flush()
    expect(JSON.parse(slow.sent[0]!)).toMatchObject({ type: 'snapshot', wsDrops: 2, snapshots: [{ index: 3 }] })
    void hub.close()
  })

  it('terminates a client that missed a heartbeat', async () => {
    const hub = new WsHub({ greeting: () => [], hostStats: () => null, heartbeatMs: 10 })
    const a = new FakeSocket()
    const b = new FakeSocket()
    hub.attach(a)
    hub.attach(b)
    a.autoPong = true
    await expect.poll(() => b.terminated).toBe(true)
    expect(a.pings).toBeGreaterThanOrEqual(2)
    expect(a.terminated).toBe(false)
    expect(hub.size).toBe(1)
    await hub.close()
  })

  it('does not buffer snapshots while nobody listens', () => {
    const hub = new WsHub({ greeting: () => [], hostStats: () => null })
    hub.queueSnapshot(snap(1))
    const a = new FakeSocket()
    hub.attach(a)
    hub.flush()
    expect(a.sent).toHaveLength(0)
    void hub.close()
  })
})

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
