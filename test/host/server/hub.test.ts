import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { WsHub, type HubSocket } from '../../../host/src/server/hub.js'
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

  it('drops a client that stopped reading: its buffer past dropBufferedBytes, counted, the others served', () => {
    const hub = new WsHub({ greeting: () => [], hostStats: () => null, maxBufferedBytes: 1024, dropBufferedBytes: 8192 })
    const reader = new FakeSocket()
    const dead = new FakeSocket()
    hub.attach(reader)
    hub.attach(dead)
    dead.bufferedAmount = 8192 // at the bound: still a client (it only skips batches)
    hub.queueSnapshot(snap(1))
    hub.flush()
    expect([dead.terminated, hub.size, hub.clientsDropped]).toEqual([false, 2, 0])
    dead.bufferedAmount = 8193
    hub.broadcast({ type: 'run-error', origin: 'manual', error: { code: 'PS_INTERNAL', message: 'x' } })
    expect([dead.terminated, hub.size, hub.clientsDropped]).toEqual([true, 1, 1])
    expect(dead.sent).toHaveLength(0)
    expect(reader.sent).toHaveLength(2)
    void hub.close()
  })

  it('drops a client that stays behind for stuckMs without catching up', async () => {
    const hub = new WsHub({ greeting: () => [], hostStats: () => null, maxBufferedBytes: 1024, stuckMs: 50 })
    const slow = new FakeSocket()
    hub.attach(slow)
    slow.bufferedAmount = 2048
    hub.queueSnapshot(snap(1))
    hub.flush()
    expect(slow.terminated).toBe(false)
    slow.bufferedAmount = 0 // caught up: the clock starts again
    hub.queueSnapshot(snap(2))
    hub.flush()
    slow.bufferedAmount = 2048
    await new Promise((r) => setTimeout(r, 30))
    hub.queueSnapshot(snap(3))
    hub.flush()
    expect(slow.terminated).toBe(false)
    await new Promise((r) => setTimeout(r, 60))
    hub.queueSnapshot(snap(4))
    hub.flush()
    expect(slow.terminated).toBe(true)
    expect(hub.clientsDropped).toBe(1)
    await hub.close()
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

  it('sends the host side’s tap snapshots in the same batch as the snapshots, after them', () => {
    const hub = new WsHub({ greeting: () => [], hostStats: () => null })
    const a = new FakeSocket()
    hub.attach(a)
    const client = fakeSession({ switchMode: true }).client
    const s = snap(7)
    hub.queueSnapshot(s)
    hub.queueTapSnapshot(client.tapSnapshotOf(s))
    hub.flush()
    // a tap snapshot whose SNAPSHOT went out in an earlier batch travels alone
    hub.queueTapSnapshot(client.tapSnapshotOf(snap(8)))
    hub.flush()
    const [first, second] = a.sent.map((t) => JSON.parse(t) as Record<string, unknown>)
    expect(a.sent).toHaveLength(2)
    expect(first).toMatchObject({ type: 'snapshot', snapshots: [{ index: 7 }], tapSnapshots: [{ tap: 'hostSide', snapshotIndex: 7 }] })
    expect(second).toMatchObject({ type: 'snapshot', snapshots: [], tapSnapshots: [{ snapshotIndex: 8 }] })
    void hub.close()
  })

  it('leaves tapSnapshots out where no further tap streams (the BAR design)', () => {
    const hub = new WsHub({ greeting: () => [], hostStats: () => null })
    const a = new FakeSocket()
    hub.attach(a)
    hub.queueSnapshot(snap(1))
    hub.flush()
    expect(Object.keys(JSON.parse(a.sent[0]!) as object)).toEqual(['type', 'snapshots', 'hostStats', 'wsDrops'])
    void hub.close()
  })

  it('does not buffer snapshots while nobody listens', () => {
    const hub = new WsHub({ greeting: () => [], hostStats: () => null })
    hub.queueSnapshot(snap(1))
    hub.queueTapSnapshot(fakeSession({ switchMode: true }).client.tapSnapshotOf(snap(1)))
    const a = new FakeSocket()
    hub.attach(a)
    hub.flush()
    expect(a.sent).toHaveLength(0)
    void hub.close()
  })
})
