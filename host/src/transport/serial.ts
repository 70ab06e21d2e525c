/**
 * Serial transport: open a SerialPort (board UART or the twin's PTY) with promise wrappers.
 *
 * - lock errors become PS_SERIAL_LOCKED, other open failures PS_SERIAL_OPEN;
 * - modem-line calls (set/get) fail on PTYs with ENOTTY: setModemLines() reports false instead;
 * - a vanished port surfaces as serialport's 'close' event with `disconnected: true` (the
 *   ProbeClient turns it into PS_SERIAL_DISCONNECTED); an 'error' listener is always attached so
 *   nothing crashes the process;
 * - on Linux the binding is made EOF-safe (workaround 2 for serialport/bindings-cpp#162): a read
 *   that returns 0 bytes (peer hung up) is a disconnect instead of an endless retry loop.
 */
import { read as fsReadCb } from 'node:fs'
import { promisify } from 'node:util'
import { SerialPort } from 'serialport'
import { PsError } from '../core/errors.js'
import { createLogger } from '../util/log.js'

const log = createLogger('ps:transport:serial')
const fsRead = promisify(fsReadCb)

const DEFAULT_BAUD_RATE = 115_200

export interface SerialOpenOptions {
  baudRate?: number
  /** flock the device (default true): a second opener gets PS_SERIAL_LOCKED */
  lock?: boolean
  /** install the EOF-safe read (default true; Linux only) */
  eofSafe?: boolean
}

type Binding = typeof SerialPort.binding
type AnyPortBinding = Awaited<ReturnType<Binding['open']>>

interface UnixPortLike {
  fd: number | null
  isOpen: boolean
  poller?: { once(ev: 'readable', cb: (err: Error | null) => void): unknown }
  read(buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }>
}

const canceled = (): Error => Object.assign(new Error('Port is not open'), { canceled: true })
const RETRY = new Set(['EAGAIN', 'EWOULDBLOCK', 'EINTR'])

/**
 * Replace the binding instance's read with one that treats EOF (0 bytes) as a disconnect.
 * Keeps the EAGAIN → wait for the poller's 'readable' path of bindings-cpp's unixRead.
 */
const makeEofSafe = (binding: AnyPortBinding): boolean => {
  const port = binding as unknown as UnixPortLike
  if (typeof port.fd !== 'number' || !port.poller) return false
  const poller = port.poller
  const waitReadable = () => new Promise<void>((resolve, reject) => poller.once('readable', (err) => (err ? reject(err) : resolve())))
  port.read = async (buffer: Buffer, offset: number, length: number) => {
    if (!Buffer.isBuffer(buffer) || buffer.length < offset + length) throw new TypeError('buffer is too small')
    for (;;) {
      if (!port.isOpen || port.fd === null) throw canceled()
      let bytesRead: number
      try {
        ;({ bytesRead } = await fsRead(port.fd, buffer, offset, length, null))
      } catch (e) {
        const err = e as NodeJS.ErrnoException & { disconnect?: boolean }
        if (!port.isOpen) throw canceled()
        if (err.code !== undefined && RETRY.has(err.code)) {
          await waitReadable()
          continue
        }
        err.disconnect = true // EIO, ENXIO, EBADF…: the device or the PTY master is gone
        log.debug(() => `read error ${err.code ?? ''}: ${err.message}`)
        throw err
      }
      if (bytesRead === 0) {
        if (!port.isOpen) throw canceled()
        log.debug(() => 'read returned EOF: peer hung up')
        throw Object.assign(new Error('EOF: peer hung up'), { disconnect: true })
      }
      return { bytesRead, buffer }
    }
  }
  return true
}

/** The platform binding, with EOF-safe reads on Linux. */
const eofSafeBinding = (): Binding => {
  const base = SerialPort.binding
  if (process.platform !== 'linux') return base
  return {
    ...base,
    list: () => base.list(),
    async open(options: Parameters<Binding['open']>[0]) {
      const port = await base.open(options as never)
      makeEofSafe(port)
      return port
    },
  } as Binding
}

export const mapOpenError = (path: string, err: unknown): PsError => {
  const msg = err instanceof Error ? err.message : String(err)
  if (/lock/i.test(msg)) {
    return new PsError(
      'PS_SERIAL_LOCKED',
      `${path} is in use by another process (${msg}); the CLI never opens a port behind a running server`,
      { cause: err },
    )
  }
  return new PsError('PS_SERIAL_OPEN', `cannot open ${path}: ${msg}`, { cause: err })
}

/** Open a serial device or PTY; resolves with the open port. */
export const openSerialPort = async (path: string, opts: SerialOpenOptions = {}): Promise<SerialPort> => {
  const options = {
    path,
    baudRate: opts.baudRate ?? DEFAULT_BAUD_RATE,
    autoOpen: false,
    lock: opts.lock ?? true,
    ...(opts.eofSafe === false ? {} : { binding: eofSafeBinding() }),
  }
  let port: SerialPort
  try {
    port = new SerialPort(options)
  } catch (e) {
    throw mapOpenError(path, e)
  }
  port.on('error', (err: Error) => log.debug(() => `${path}: ${err.message}`))
  port.on('close', (err?: Error & { disconnected?: boolean }) => {
    log.debug(() => `${path}: closed${err?.disconnected ? ` (disconnected: ${err.message})` : ''}`)
  })
  await new Promise<void>((resolve, reject) => {
    port.open((err) => (err ? reject(mapOpenError(path, err)) : resolve()))
  })
  log.debug(() => `${path}: open at ${options.baudRate} baud`)
  return port
}

/** Close a port; resolves (never rejects) once closed or if it was not open. */
export const closeSerialPort = async (port: SerialPort): Promise<void> => {
  if (!port.isOpen) return
  await new Promise<void>((resolve) =>
    port.close((err) => {
      if (err) log.debug(() => `close: ${err.message}`)
      resolve()
    }),
  )
}

/** Set modem lines; returns false where the device has none (PTYs: ENOTTY). */
export const setModemLines = async (port: SerialPort, lines: { dtr?: boolean; rts?: boolean }): Promise<boolean> => {
  try {
    await new Promise<void>((resolve, reject) => port.set(lines, (err) => (err ? reject(err) : resolve())))
    return true
  } catch (e) {
    log.debug(() => `set(${JSON.stringify(lines)}) unsupported: ${String(e)}`)
    return false
  }
}
