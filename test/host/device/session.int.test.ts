/** openSession against the real twin over its PTY (needs `npm run build:twin`). */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openSession, type DeviceSession } from '../../../host/src/device/session.js'
import type { PsError } from '../../../host/src/core/errors.js'
import type { Snapshot } from '../../../host/src/core/probe.js'
import { PROTOCOL_VERSION } from '../../../host/src/core/generated.js'

const twinBuilt = existsSync(fileURLToPath(new URL('../../../build/twin/pcie-scope-twin', import.meta.url)))
const sessions: DeviceSession[] = []
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()))
})
const open = async (latencyCycles?: number) => {
  const s = await openSession({ twin: true, ...(latencyCycles !== undefined ? { latencyCycles } : {}) })
  sessions.push(s)
  return s
}
const waitDisconnect = (s: DeviceSession) =>
  new Promise<PsError>((resolve, reject) => {
    s.client.once('disconnect', resolve)
    setTimeout(() => reject(new Error('no disconnect within 3 s')), 3000)
  })

describe('openSession({ twin: true })', () => {
  beforeAll(() => {
    if (!twinBuilt) throw new Error('the twin is not built: run `npm run build:twin`')
  })

  it('says hello and reports the probe', async () => {
    const s = await open(100)
    expect(s.source).toBe('twin')
    expect(s.path).toMatch(/^\/dev\/pts\//)
    expect(s.info).toMatchObject({ protocolVersion: PROTOCOL_VERSION, clockHz: 250_000_000, barLatencyCycles: 100 })
    expect(s.runner?.kind).toBe('twin')
    expect(await s.client.ping(0x5e55)).toMatchObject({ nonce: 0x5e55 })
  })

  it('streams periodic snapshots after START', async () => {
    const s = await open()
    const seen: Snapshot[] = []
    s.client.on('snapshot', (x) => seen.push(x))
    await s.client.clear()
    await s.client.start(20)
    await s.runner!.run({ pattern: 'merged-aligned', bytes: 64 * 1024, offset: 0 })
    await expect.poll(() => seen.filter((x) => !x.onDemand).length, { timeout: 5000 }).toBeGreaterThan(0)
    const snap = await s.client.snapshot()
    expect(snap.onDemand).toBe(true)
    expect(snap.counters.mrd128).toBe(512)
    await s.client.stop()
    expect(s.client.hostStats().badFrames).toBe(0)
  })

  it('the twin dying disconnects the client, even while the port is paused (bindings-cpp#162)', async () => {
    const s = await open()
    ;(s.client as unknown as { port: { pause(): void } }).port.pause()
    const d = waitDisconnect(s)
    s.twin!.kill('SIGKILL')
    const e = await d
    expect(e.code).toBe('PS_SERIAL_DISCONNECTED')
    await expect(s.client.ping()).rejects.toMatchObject({ code: 'PS_SERIAL_DISCONNECTED' })
    await expect(s.runner!.run({ pattern: 'strided', bytes: 128, offset: 0 })).rejects.toMatchObject({ code: 'PS_TWIN_EXITED' })
  })

  it('close() tears everything down and is idempotent', async () => {
    const s = await open()
    await s.close()
    await s.close()
    expect(s.twin!.isRunning).toBe(false)
    expect(s.client.isClosed).toBe(true)
  })
})
