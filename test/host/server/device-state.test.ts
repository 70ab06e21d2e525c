import { describe, expect, it } from 'vitest'
import { PsError } from '../../../host/src/core/errors.js'
import type { Snapshot } from '../../../host/src/core/probe.js'
import { DeviceState, RECENT_SNAPSHOTS } from '../../../host/src/server/device-state.js'
import { fakeSession } from './fake-session.js'

const server = {
  wsDrops: 3,
  wsClients: 2,
  wsClientsDropped: 1,
  demo: { enabled: false, runs: 0, current: null },
  sources: { twin: { available: true, reason: null }, gpu: { available: false, reason: 'no GPU here', devices: [] } },
}

function setup(seed = false) {
  const session = fakeSession()
  if (seed) session.client.seed = session.client.makeSnapshot()
  const snapshots: Snapshot[] = []
  const connection: boolean[] = []
  const state = new DeviceState(session, { snapshot: (s) => snapshots.push(s), connection: (c) => connection.push(c) })
  return { session, client: session.client, state, snapshots, connection }
}

describe('DeviceState', () => {
  it('assembles the status from the session, the device and the server-side fields', () => {
    const { state, client } = setup()
    client.tick()
    const st = state.status(server)
    expect(st).toMatchObject({
      source: 'twin',
      path: '/dev/pts/fake',
      sources: server.sources,
      connected: true,
      error: null,
      runner: 'twin',
      pcieLink: null,
      wsDrops: 3,
      wsClients: 2,
      linkErrors: {},
    })
    expect(st.lastSnapshot?.index).toBe(0)
    expect(st.hostStats?.frames).toBe(1)
    expect(st.demo).not.toBe(server.demo) // a copy: later changes do not leak into a sent status
  })

  it('seeds the history with the client’s last snapshot and keeps at most RECENT_SNAPSHOTS', () => {
    const { state, client, snapshots } = setup(true)
    expect(state.status(server).lastSnapshot?.index).toBe(0)
    for (let i = 0; i < RECENT_SNAPSHOTS + 5; i++) client.tick()
    const hello = state.hello(null)
    if (hello.type !== 'hello') throw new Error('not a hello')
    expect(hello.recent).toHaveLength(RECENT_SNAPSHOTS)
    expect(hello.recent.at(-1)?.index).toBe(RECENT_SNAPSHOTS + 5)
    expect(hello.counters[0]).toMatchObject({ key: 'cycles', name: 'CYCLES', index: 0 })
    expect(snapshots).toHaveLength(RECENT_SNAPSHOTS + 5) // the seed is history, not news
  })

  it('on disconnect: reports the code once, and device commands fail fast with it', async () => {
    const { state, client, connection } = setup()
    client.disconnect('PS_TWIN_EXITED')
    client.disconnect('PS_TWIN_EXITED')
    expect(connection).toEqual([false])
    expect(state.connected).toBe(false)
    expect(state.status(server).error).toMatchObject({ code: 'PS_TWIN_EXITED', message: 'twin exited (test)' })
    await expect(state.command(() => client.snapshot())).rejects.toMatchObject({ code: 'PS_TWIN_EXITED' })
    await expect(state.start(50)).rejects.toMatchObject({ code: 'PS_TWIN_EXITED' })
    expect(client.calls).toEqual([])
  })

  it('a disconnect that is not a device code fails commands as PS_SERIAL_DISCONNECTED', async () => {
    const { state, client } = setup()
    client.emit('disconnect', new Error('EIO'))
    expect(state.status(server).error).toEqual({ code: 'PS_SERIAL_DISCONNECTED', message: 'EIO' })
    await expect(state.command(async () => 1)).rejects.toMatchObject({ code: 'PS_SERIAL_DISCONNECTED' })
  })

  it('on reconnect: connected again, and START re-issued only while the user wants streaming', async () => {
    const { state, client, connection } = setup()
    await state.start(50)
    client.disconnect('PS_SERIAL_DISCONNECTED')
    client.emit('reconnect')
    expect(state.connected).toBe(true)
    expect(state.status(server).error).toBeNull()
    expect(connection).toEqual([false, true])
    expect(client.calls).toEqual(['start:50', 'start:50'])
    await state.stop()
    client.disconnect('PS_SERIAL_DISCONNECTED')
    client.emit('reconnect')
    expect(client.calls).toEqual(['start:50', 'start:50', 'stop'])
  })

  it('streaming says what flows now: null while the device is down, wantStreaming what a reconnect restores', async () => {
    const { state, client } = setup()
    expect(state.status(server)).toMatchObject({ streaming: null, wantStreaming: null, supervision: { state: 'up', restarts: 0 } })
    await state.start(50)
    expect(state.status(server)).toMatchObject({ streaming: { periodMs: 50 }, wantStreaming: { periodMs: 50 } })
    client.disconnect('PS_TWIN_EXITED')
    expect(state.status(server)).toMatchObject({ streaming: null, wantStreaming: { periodMs: 50 } })
    client.emit('reconnect')
    expect(state.status(server)).toMatchObject({ streaming: { periodMs: 50 }, wantStreaming: { periodMs: 50 } })
  })

  it("info says what streams now, not what the hello's INFO said: after START, a stop, a restart and its restore", async () => {
    const { state, client, session } = setup()
    expect(session.info.streaming).toBe(false) // the hello's INFO, as the fake session gives it
    expect(state.status(server).info).toMatchObject({ streaming: false })
    await state.start(50)
    expect(state.status(server).info).toMatchObject({ streaming: true, periodMs: 50 })
    expect(state.hello(null)).toMatchObject({ info: { streaming: true, periodMs: 50 } })
    client.disconnect('PS_TWIN_EXITED')
    expect(state.status(server).info).toMatchObject({ streaming: false })
    client.emit('reconnect') // a restarted twin says hello with streaming off; the restore starts it again
    expect(state.status(server).info).toMatchObject({ streaming: true, periodMs: 50 })
    await state.stop()
    expect(state.status(server).info).toMatchObject({ streaming: false })
  })

  it('a probe that was already streaming when the server started reads as streaming at its period', () => {
    const session = fakeSession()
    const state = new DeviceState(
      { ...session, info: { ...session.info, streaming: true, periodMs: 200 } },
      { snapshot: () => {}, connection: () => {} },
    )
    expect(state.status(server)).toMatchObject({ streaming: { periodMs: 200 }, wantStreaming: { periodMs: 200 } })
  })

  it('a START that a reconnect re-issues and the device refuses leaves streaming null, counted as a link error', async () => {
    const { state, client } = setup()
    await state.start(50)
    client.disconnect('PS_TWIN_EXITED')
    client.start = () => Promise.reject(new PsError('PS_CMD_TIMEOUT', 'START got no response'))
    client.emit('reconnect')
    await new Promise((r) => setImmediate(r))
    expect(state.status(server)).toMatchObject({ connected: true, streaming: null, wantStreaming: { periodMs: 50 } })
    expect(state.status(server).linkErrors).toEqual({ PS_CMD_TIMEOUT: 1 })
  })

  it('counts link errors by code', () => {
    const { state, client } = setup()
    client.emit('link-error', new PsError('PS_FRAME_CRC', 'crc'))
    client.emit('link-error', new PsError('PS_FRAME_CRC', 'crc'))
    client.emit('link-error', new Error('odd'))
    expect(state.status(server).linkErrors).toEqual({ PS_FRAME_CRC: 2, PS_INTERNAL: 1 })
  })

  it('detach() stops listening to the client', () => {
    const { state, client, snapshots } = setup()
    state.detach()
    expect(['snapshot', 'disconnect', 'reconnect', 'link-error'].map((e) => client.listenerCount(e))).toEqual([0, 0, 0, 0])
    client.tick()
    expect(snapshots).toEqual([])
  })

  it('reports hostStats as null when the client cannot say', () => {
    const { state, client } = setup()
    client.hostStats = () => {
      throw new PsError('PS_DEVICE_CLOSED', 'closed')
    }
    expect(state.hostStats()).toBeNull()
  })

  it('keeps the host side’s newest tap snapshot and histograms for hello, and passes them on', () => {
    const session = fakeSession({ switchMode: true })
    const seen: string[] = []
    const state = new DeviceState(session, {
      snapshot: () => seen.push('snapshot'),
      connection: () => {},
      tapSnapshot: (t) => seen.push(`tap-snapshot ${t.snapshotIndex}`),
      tapHistogram: (h) => seen.push(`tap-histogram ${h.kind}`),
    })
    const empty = state.hello(null)
    expect(empty.type === 'hello' && empty.taps).toEqual({}) // nothing from a further tap yet: as in the BAR design
    session.client.enabled = true
    for (let i = 0; i < 10; i++) session.client.tick()
    expect(seen.slice(-4)).toEqual(['snapshot', 'tap-snapshot 9', 'tap-histogram last', 'tap-histogram first'])
    const hello = state.hello(null)
    if (hello.type !== 'hello') throw new Error('no hello')
    expect(hello.taps.hostSide?.snapshot).toMatchObject({ tap: 'hostSide', snapshotIndex: 9 })
    expect(hello.taps.hostSide?.histograms.last).toMatchObject({ tap: 'hostSide', kind: 'last', snapshotIndex: 9 })
    expect(hello.taps.hostSide?.histograms.first).toMatchObject({ kind: 'first' })
    state.detach()
    session.client.tick()
    expect(seen.at(-1)).toBe('tap-histogram first') // detached: no more
  })
})
