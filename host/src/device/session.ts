/**
 * openSession: one connected probe, from the twin or from a serial device.
 *
 *  twin: launch TwinProcess → open its PTY → hello (PING, INFO); runner = the twin's traffic model.
 *        When the twin exits the port is closed (workaround 1 for bindings-cpp#162) so the client
 *        sees 'disconnect' instead of a busy read loop.
 *  port: open the serial device → hello; runner = the one given (a board capture's GPU runner), or none.
 *
 * close() tears down in order: client (closes the port), then the twin.
 */
import type { SerialPort } from 'serialport'
import { PsError } from '../core/errors.js'
import { closeSerialPort, openSerialPort } from '../transport/serial.js'
import { TwinProcess, type TwinOptions } from '../transport/twin.js'
import { createLogger } from '../util/log.js'
import { sleep } from '../util/sleep.js'
import { TwinWorkloadRunner } from '../workload/twin-runner.js'
import { ProbeClient, type ProbeClientOptions } from './client.js'
import type { PcieLinkInfo } from '../core/link.js'
import type { TwinMode } from '../core/twin-mode.js'
import type { ProbeInfo } from '../core/probe.js'
import type { WorkloadRunner } from '../core/workload.js'

const log = createLogger('ps:device:session')

export interface DeviceSession {
  readonly source: 'twin' | 'serial'
  readonly path: string
  /** INFO of the last hello (a serial session says hello again after each reconnect) */
  readonly info: ProbeInfo
  readonly client: ProbeClient
  readonly runner: WorkloadRunner | undefined
  /** the PCIe link the counters were taken on, when known (the twin says; a board does not yet) */
  readonly pcieLink?: PcieLinkInfo
  /** reads the requester may have outstanding, when known (the twin's GPU model says) */
  readonly tagBudget?: number
  /** twin sessions: the design the twin runs (switch, its default, or the BAR endpoint) */
  readonly twinMode?: TwinMode
  /** twin sessions: the twin process (diagnostics, tests); not part of the cross-module contract */
  readonly twin?: TwinProcess
  close(): Promise<void>
}

export type OpenSessionOptions =
  ({ twin: true; latencyCycles?: number } & SessionTuning & { twinOptions?: Omit<TwinOptions, 'latencyCycles'> }) | SerialSessionOptions

export interface SerialSessionOptions extends SessionTuning {
  port: string
  baudRate?: number
  /** what runs workloads while the board's probe counts (the GPU behind it); none: watch only */
  runner?: WorkloadRunner
  /** re-open the port when it vanishes (default true); 'reconnect' is emitted by the client */
  reconnect?: boolean
  reconnectMinMs?: number
  reconnectMaxMs?: number
}

interface SessionTuning {
  client?: ProbeClientOptions
  /** hello attempts before giving up (default 3; the first frame after open can be lost) */
  helloAttempts?: number
}

const hello = async (client: ProbeClient, attempts: number): Promise<ProbeInfo> => {
  let last: unknown
  for (let i = 0; i < Math.max(1, attempts); i++) {
    try {
      return await client.hello()
    } catch (e) {
      last = e
      if (!(e instanceof PsError) || e.code !== 'PS_CMD_TIMEOUT') throw e
      log.debug(() => `hello attempt ${i + 1} timed out`)
    }
  }
  throw last
}

export const openSession = async (opts: OpenSessionOptions): Promise<DeviceSession> => {
  if ('twin' in opts && opts.twin) return openTwinSession(opts)
  if ('port' in opts && typeof opts.port === 'string') return openSerialSession(opts)
  throw new PsError('PS_USAGE', 'openSession needs { twin: true } or { port: PATH }')
}

/** Back-off between re-open attempts of a vanished serial port: 250 ms doubling to 5 s, ±25 %. */
const RECONNECT_MIN_MS = 250
const RECONNECT_MAX_MS = 5000

const openSerialSession = async (opts: SerialSessionOptions): Promise<DeviceSession> => {
  const serialOpts = opts.baudRate !== undefined ? { baudRate: opts.baudRate } : {}
  const port = await openSerialPort(opts.port, serialOpts)
  const client = new ProbeClient(port, opts.client)
  let info: ProbeInfo
  try {
    info = await hello(client, opts.helloAttempts ?? 3)
  } catch (e) {
    await client.close()
    throw e
  }
  let closing: Promise<void> | undefined
  /** aborted by close(): ends the back-off sleep of a reconnect loop */
  const closed = new AbortController()

  // A USB-UART that is unplugged (or a board that resets) comes back at the same path: re-open
  // it with back-off, say hello again, and carry on with the same client and its listeners.
  let reconnecting = false
  const reconnect = async () => {
    if (reconnecting) return // one loop at a time; a port that fails hello disconnects again
    reconnecting = true
    try {
      await reconnectLoop()
    } finally {
      reconnecting = false
    }
  }
  const reconnectLoop = async () => {
    let delay = opts.reconnectMinMs ?? RECONNECT_MIN_MS
    const max = opts.reconnectMaxMs ?? RECONNECT_MAX_MS
    while (!closing) {
      try {
        await sleep(delay * (0.75 + Math.random() * 0.5), closed.signal)
      } catch {
        return // closed while waiting
      }
      let next: SerialPort | undefined
      try {
        next = await openSerialPort(opts.port, serialOpts)
        if (closing) return void (await closeSerialPort(next))
        client.attach(next)
        session.info = await hello(client, opts.helloAttempts ?? 3)
        log.info(() => `${opts.port}: reconnected`)
        return
      } catch (e) {
        log.debug(() => `${opts.port}: reconnect failed: ${e instanceof Error ? e.message : String(e)}`)
        // opened but silent (or attach refused): release it; the client sees it go and the
        // next attempt starts from a disconnected client
        if (next?.isOpen) await closeSerialPort(next)
        delay = Math.min(delay * 2, max)
      }
    }
  }
  if (opts.reconnect !== false) client.on('disconnect', () => void reconnect())

  const session: DeviceSession & { info: ProbeInfo } = {
    source: 'serial',
    path: opts.port,
    info,
    client,
    runner: opts.runner,
    close: () =>
      (closing ??= (async () => {
        closed.abort()
        await client.close()
      })()),
  }
  return session
}

const openTwinSession = async (
  opts: { twin: true; latencyCycles?: number; twinOptions?: Omit<TwinOptions, 'latencyCycles'> } & SessionTuning,
): Promise<DeviceSession> => {
  const twin = await TwinProcess.launch({
    ...opts.twinOptions,
    ...(opts.latencyCycles !== undefined ? { latencyCycles: opts.latencyCycles } : {}),
  })
  let port: SerialPort | undefined
  let client: ProbeClient | undefined
  const onExit = () => {
    // workaround 1 (bindings-cpp#162): the owner of the twin closes the port when it exits
    log.debug(() => 'twin exited: closing its PTY')
    if (port) void closeSerialPort(port)
  }
  twin.on('exit', onExit)
  try {
    port = await openSerialPort(twin.pty)
    if (!twin.isRunning) onExit()
    client = new ProbeClient(port, opts.client)
    const info = await hello(client, opts.helloAttempts ?? 3)
    const runner = new TwinWorkloadRunner(twin)
    let closing: Promise<void> | undefined
    const c = client
    return {
      source: 'twin',
      path: twin.pty,
      info,
      client: c,
      runner,
      ...(twin.link ? { pcieLink: twin.link } : {}),
      ...(twin.tags !== undefined ? { tagBudget: twin.tags } : {}),
      ...(twin.mode !== undefined ? { twinMode: twin.mode } : {}),
      twin,
      close: () =>
        (closing ??= (async () => {
          await c.close()
          twin.off('exit', onExit)
          await twin.close()
        })()),
    }
  } catch (e) {
    if (client) await client.close()
    else if (port) await closeSerialPort(port)
    await twin.close()
    throw e
  }
}
