/**
 * Serial transport against a real pseudo-terminal (a tiny Python helper holds the master side
 * and echoes bytes back). Real timers; python3 is a test prerequisite that `npm test` installs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { SerialPort } from 'serialport'
import { closeSerialPort, mapOpenError, openSerialPort, setModemLines } from '../../../host/src/transport/serial.js'

const hasPython = spawnSync('python3', ['-c', 'import pty'], { stdio: 'ignore' }).status === 0

const PTY_ECHO = `
import os, pty, sys, tty, select
m, s = pty.openpty()
tty.setraw(s)
print(os.ttyname(s), flush=True)
os.close(s) if sys.argv[1:] == ['close-slave'] else None
while True:
    r, _, _ = select.select([m, sys.stdin], [], [])
    if sys.stdin in r:
        if not sys.stdin.readline(): break
    if m in r:
        try: d = os.read(m, 4096)
        except OSError: continue
        os.write(m, d)
`

const children: ChildProcess[] = []
const ports: SerialPort[] = []
afterEach(async () => {
  await Promise.all(ports.splice(0).map((p) => closeSerialPort(p)))
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL')
})

const startPty = async (): Promise<{ child: ChildProcess; path: string }> => {
  const child = spawn('python3', ['-c', PTY_ECHO], { stdio: ['pipe', 'pipe', 'inherit'] })
  children.push(child)
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string]
  return { child, path: line.trim() }
}

describe('mapOpenError', () => {
  it('maps lock failures and other open errors to stable codes', () => {
    expect(mapOpenError('/dev/x', new Error('Error Resource temporarily unavailable Cannot lock port')).code).toBe('PS_SERIAL_LOCKED')
    expect(mapOpenError('/dev/x', new Error('Error: No such file or directory, cannot open /dev/x')).code).toBe('PS_SERIAL_OPEN')
  })
})

describe('serial transport over a PTY', () => {
  beforeAll(() => {
    if (!hasPython) throw new Error('python3 (with its pty module) is needed to make the PTY peer; `npm test` installs it')
  })

  it('opens a PTY and moves every byte value unchanged', async () => {
    const { path } = await startPty()
    const port = await openSerialPort(path)
    ports.push(port)
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i))
    const got: Buffer[] = []
    port.on('data', (d: Buffer) => got.push(Buffer.from(d)))
    port.write(all)
    await expect.poll(() => Buffer.concat(got).length, { timeout: 3000 }).toBe(256)
    expect(Buffer.concat(got).equals(all)).toBe(true)
  })

  it('reports a second opener as PS_SERIAL_LOCKED and a missing path as PS_SERIAL_OPEN', async () => {
    const { path } = await startPty()
    ports.push(await openSerialPort(path))
    await expect(openSerialPort(path)).rejects.toMatchObject({ code: 'PS_SERIAL_LOCKED' })
    await expect(openSerialPort('/dev/does-not-exist-ps')).rejects.toMatchObject({ code: 'PS_SERIAL_OPEN' })
  })

  it('treats modem-line calls as optional on a PTY', async () => {
    const { path } = await startPty()
    const port = await openSerialPort(path)
    ports.push(port)
    expect(await setModemLines(port, { dtr: true })).toBe(false)
  })

  it.each([
    ['while the stream is paused', true],
    ['while a read is parked', false],
  ])('closes with disconnected when the peer dies %s (bindings-cpp#162)', async (_name, paused) => {
    const { child, path } = await startPty()
    const port = await openSerialPort(path, { eofSafe: process.env['PS_TEST_STOCK_BINDING'] !== '1' })
    ports.push(port)
    if (paused) port.pause()
    else port.on('data', () => {})
    const closed = once(port, 'close') as Promise<[Error & { disconnected?: boolean }]>
    child.kill('SIGKILL')
    if (paused) {
      await once(child, 'exit')
      await new Promise((r) => setTimeout(r, 100))
      port.on('data', () => {})
      port.resume() // the first read after the hang-up sees EOF
    }
    const [err] = await Promise.race([
      closed,
      new Promise<never>((_, rej) => setTimeout(() => rej(new Error('no close within 3 s: busy loop?')), 3000)),
    ])
    expect(err?.disconnected).toBe(true)
    expect(port.isOpen).toBe(false)
  })
})
