/**
 * A serial port that vanishes and comes back: the twin plays a board whose UART is reached
 * through a stable symlink (like a udev name). Killing the twin unplugs it; a new twin behind the
 * same name plugs it back in. The session must report the loss, keep its client and listeners,
 * re-open with back-off, say hello again, and carry on.
 */
import { mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openSession, type DeviceSession } from '../../../host/src/device/session.js'
import type { PsError } from '../../../host/src/core/errors.js'
import { TwinProcess } from '../../../host/src/transport/twin.js'

const cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f()
})

/** Point `link` at `target` atomically (a temporary symlink renamed over the published name). */
const publish = (link: string, target: string) => {
  const tmp = `${link}.tmp`
  rmSync(tmp, { force: true })
  symlinkSync(target, tmp)
  renameSync(tmp, link)
}

const launch = async () => {
  const twin = await TwinProcess.launch()
  cleanup.push(() => twin.close())
  return twin
}

/** A twin published behind a stable link name, as a USB-UART's by-id path. */
const boardBehindLink = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ps-reconnect-'))
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
  const link = join(dir, 'ttyBOARD')
  const twin = await launch()
  publish(link, twin.pty)
  return { link, twin }
}

describe('serial session reconnect', () => {
  it('re-opens a vanished port behind a stable name and carries on with the same client', async () => {
    const { link, twin: first } = await boardBehindLink()

    const s: DeviceSession = await openSession({ port: link, reconnectMinMs: 50, reconnectMaxMs: 200 })
    cleanup.push(() => s.close())
    expect(s.source).toBe('serial')
    await s.client.start(20)
    const seen: number[] = []
    s.client.on('snapshot', (x) => seen.push(x.index))
    await expect.poll(() => seen.length, { timeout: 5000 }).toBeGreaterThan(1)

    const lost = new Promise<PsError>((resolve) => s.client.once('disconnect', resolve))
    const back = new Promise<void>((resolve) => s.client.once('reconnect', resolve))
    first.kill('SIGKILL') // unplugged
    expect((await lost).code).toBe('PS_SERIAL_DISCONNECTED')
    await expect(s.client.ping()).rejects.toMatchObject({ code: 'PS_SERIAL_DISCONNECTED' })
    await new Promise((r) => setTimeout(r, 300)) // a few failed re-open attempts

    const second = await launch() // plugged back in (a fresh device: its counters restart)
    publish(link, second.pty)
    await back
    await expect.poll(() => s.info.probeId, { timeout: 5000 }).toBe(0x50435343)
    expect(await s.client.ping(0xbac4)).toMatchObject({ nonce: 0xbac4 })
    // the new device needs its own START; the same listeners see its snapshots
    seen.length = 0
    await s.client.start(20)
    await expect.poll(() => seen.length, { timeout: 5000 }).toBeGreaterThan(1)
    expect(s.client.hostStats()).toMatchObject({ badFrames: 0, crcErrors: 0 })
  })

  it('stops trying once the session is closed', async () => {
    const { link, twin } = await boardBehindLink()
    const s = await openSession({ port: link, reconnectMinMs: 20, reconnectMaxMs: 40 })
    const lost = new Promise((resolve) => s.client.once('disconnect', resolve))
    twin.kill('SIGKILL')
    await lost
    await s.close()
    let reconnected = false
    s.client.once('reconnect', () => (reconnected = true))
    const again = await launch()
    publish(link, again.pty)
    await new Promise((r) => setTimeout(r, 300))
    expect(reconnected).toBe(false)
    expect(s.client.isClosed).toBe(true)
  })
})
