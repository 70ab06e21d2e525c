/**
 * The control server: one http server carrying the REST API (express 5), the WebSocket feed (ws,
 * noServer upgrade after auth) and the static web UI from dist/web.
 *
 * It prints nothing; the CLI prints the URL. A device that disconnects leaves the server up: it
 * reports `connected: false` with the error code, keeps the last snapshots, and device commands
 * answer 503 with that code.
 *
 * REST (Bearer token on /api except health; JSON errors {error:{code,message,details?}}):
 *   GET  /api/health        {ok:true}, no auth
 *   GET  /api/status        ServerStatus (source, path, connected, error, info, hostStats, lastSnapshot, wsDrops …)
 *   GET  /api/patterns      {patterns, runner}
 *   POST /api/start         {periodMs?}            POST /api/stop, /api/clear   {}
 *   POST /api/snapshot      → Snapshot (on demand)
 *   POST /api/run           {pattern, bytes, offset?} → WorkloadResult & {report: RunReport}; 409 without runner
 *   GET  /api/openapi.json  OpenAPI 3.0 from the zod schemas
 * WebSocket /ws?token=… (server → browser, JSON text; see wire.ts ServerMessage):
 *   hello, status (on connect and on device disconnect), snapshot (batched ≤ 20 Hz, skipped for
 *   clients with > 1 MiB buffered, counted in wsDrops), run (after every workload), run-error.
 */
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { join, resolve } from 'node:path'
import express, { type NextFunction, type Request, type Response } from 'express'
import { z } from 'zod'
import { PATTERNS } from '../core/workload.js'
import { type Snapshot } from '../core/probe.js'
import { isPsError, PsError, type PsErrorCode } from '../core/errors.js'
import { COUNTERS } from '../core/generated.js'
import { packageRoot, packageVersion } from '../util/package-root.js'
import { WsHub } from './hub.js'
import { DEMO_PERIOD_MS, RunService } from './runs.js'
import { EmptyBody, openApiDocument, RunBody, StartBody } from './schemas.js'
import {
  bearerToken,
  hostAllowed,
  hostAllowlist,
  newToken,
  originAllowed,
  tokenMatches,
} from './security.js'
import { openDeviceSession, type ServerSession } from './session.js'
import type { ApiErrorBody, CounterMeta, DeviceError, ServerMessage, ServerStatus } from '../core/wire.js'

export type { ServerSession, ServerProbeClient } from './session.js'
export type * from '../core/wire.js'

export interface StartServerOptions {
  twin: boolean
  /** twin only: the modelled PCIe link, e.g. "gen3x16" (the twin's default) or "ideal" */
  link?: string
  /** serial device when not on the twin */
  port?: string
  baudRate?: number
  http: { host: string; port: number }
  /** stream and loop the three patterns so the page moves on its own */
  demo?: boolean
  /** fixed token (tests); default: 32 random bytes per run */
  token?: string
  /** an already open session (tests); the caller keeps ownership and closes it */
  session?: ServerSession
  /** directory of the built web UI; default: <repo>/dist/web */
  webRoot?: string
}

export interface RunningServer {
  /** http://host:port/?token=… */
  url: string
  token: string
  close(): Promise<void>
}

/** snapshots kept in memory for /api/status and for clients that connect later */
const RECENT_SNAPSHOTS = 600

const STATUS_OF: Partial<Record<PsErrorCode, number>> = {
  PS_USAGE: 400,
  PS_REQUEST_INVALID: 400,
  PS_WORKLOAD_INVALID: 400,
  PS_HTTP_UNAUTHORIZED: 401,
  PS_HTTP_FORBIDDEN: 403,
  PS_HTTP_NOT_FOUND: 404,
  PS_WORKLOAD_UNSUPPORTED: 409,
  PS_CMD_REJECTED: 502,
  PS_CMD_BAD_REPLY: 502,
  PS_SERIAL_DISCONNECTED: 503,
  PS_DEVICE_CLOSED: 503,
  PS_TWIN_EXITED: 503,
  PS_CMD_TIMEOUT: 504,
}

const errorBody = (code: string, message: string, details?: unknown): ApiErrorBody => ({
  error: details === undefined ? { code, message } : { code, message, details },
})

export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const token = opts.token ?? newToken()
  const ownsSession = opts.session === undefined
  const session: ServerSession =
    opts.session ??
    (await openDeviceSession(
      opts.twin ? { twin: true, ...(opts.link !== undefined ? { link: opts.link } : {}) } : { port: requirePort(opts.port), ...(opts.baudRate ? { baudRate: opts.baudRate } : {}) },
    ))

  const root = packageRoot()
  const webRoot = resolve(opts.webRoot ?? join(root, 'dist', 'web'))
  const allow = hostAllowlist(opts.http.host)
  const counters: CounterMeta[] = COUNTERS.map((c) => ({ key: c.key, name: c.name, index: c.index, doc: c.doc }))

  // ---- device state -------------------------------------------------------------------------
  let connected = true
  let deviceError: DeviceError | null = null
  /** the streaming period the user (or the demo) asked for; restored after a reconnect */
  let streamingPeriod: number | undefined
  const recent: Snapshot[] = []
  const linkErrors: Record<string, number> = {}

  const hostStats = () => {
    try {
      return session.client.hostStats()
    } catch {
      return null
    }
  }

  const status = (): ServerStatus => ({
    source: session.source,
    path: session.path,
    connected,
    error: deviceError,
    info: session.info,
    pcieLink: session.pcieLink ?? null,
    runner: session.runner?.kind ?? null,
    hostStats: hostStats(),
    lastSnapshot: recent.at(-1) ?? null,
    wsDrops: hub.drops,
    wsClients: hub.size,
    linkErrors: { ...linkErrors },
    demo: { ...runs.demo },
  })

  const hub = new WsHub({
    hostStats,
    greeting: (): ServerMessage[] => [
      {
        type: 'hello',
        source: session.source,
        path: session.path,
        info: session.info,
        pcieLink: session.pcieLink ?? null,
        counters,
        recent: recent.slice(-RECENT_SNAPSHOTS),
        lastRun: runs.lastReport,
      },
      { type: 'status', ...status() },
    ],
  })

  const runs = new RunService(session, {
    connected: () => connected,
    report: (report) => hub.broadcast({ type: 'run', report, result: report.result, demo: { ...runs.demo } }),
    error: (origin, e) =>
      hub.broadcast({
        type: 'run-error',
        origin,
        error: { code: isPsError(e) ? e.code : 'PS_INTERNAL', message: e instanceof Error ? e.message : String(e) },
      }),
  })

  const onSnapshot = (s: Snapshot) => {
    recent.push(s)
    if (recent.length > RECENT_SNAPSHOTS) recent.splice(0, recent.length - RECENT_SNAPSHOTS)
    hub.queueSnapshot(s)
  }
  const onDisconnect = (e: unknown) => {
    if (!connected) return
    connected = false
    deviceError = {
      code: isPsError(e) ? e.code : 'PS_SERIAL_DISCONNECTED',
      message: e instanceof Error ? e.message : 'device disconnected',
    }
    hub.flush()
    hub.broadcast({ type: 'status', ...status() })
  }
  const onReconnect = () => {
    connected = true
    deviceError = null
    hub.broadcast({ type: 'status', ...status() })
    // a board that reset forgot START: ask again, as the user last did
    if (streamingPeriod !== undefined) {
      session.client.start(streamingPeriod).catch((e: unknown) => onLinkError(e))
    }
  }
  const onLinkError = (e: unknown) => {
    const code = isPsError(e) ? e.code : 'PS_INTERNAL'
    linkErrors[code] = (linkErrors[code] ?? 0) + 1
  }
  session.client.on('snapshot', onSnapshot)
  session.client.on('disconnect', onDisconnect)
  session.client.on('reconnect', onReconnect)
  session.client.on('link-error', onLinkError)
  const seeded = session.client.lastSnapshot()
  if (seeded) recent.push(seeded)

  /** Device commands fail fast with the disconnect's code once the device is gone. */
  const device = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (!connected) throw new PsError(deviceErrorCode(deviceError), `device disconnected: ${deviceError?.message ?? ''}`)
    return fn()
  }

  // ---- express ------------------------------------------------------------------------------
  const app = express()
  app.disable('x-powered-by')
  app.set('etag', false)

  // DNS-rebinding guard on every request, static files included.
  app.use((req, res, next) => {
    if (!hostAllowed(allow, req.headers.host)) {
      res.status(403).json(errorBody('PS_HTTP_FORBIDDEN', 'Host header not allowed'))
      return
    }
    next()
  })

  const api = express.Router()
  api.get('/health', (_req, res) => {
    res.json({ ok: true })
  })
  api.use((req, res, next) => {
    if (!tokenMatches(token, bearerToken(req.headers.authorization))) {
      res.status(401).set('WWW-Authenticate', 'Bearer').json(errorBody('PS_HTTP_UNAUTHORIZED', 'missing or wrong bearer token'))
      return
    }
    next()
  })
  api.use(express.json({ limit: '64kb' }))

  const body = <S extends z.ZodType>(schema: S, req: Request): z.output<S> => {
    const r = schema.safeParse(req.body ?? {})
    if (!r.success) throw new HttpError(400, 'PS_REQUEST_INVALID', 'invalid request body', z.treeifyError(r.error))
    return r.data
  }

  api.get('/status', (_req, res) => {
    res.json(status())
  })
  api.get('/patterns', (_req, res) => {
    res.json({ patterns: PATTERNS, runner: session.runner?.kind ?? null })
  })
  api.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument(packageVersion()))
  })
  api.post('/start', async (req, res) => {
    const { periodMs } = body(StartBody, req)
    await device(() => session.client.start(periodMs))
    streamingPeriod = periodMs ?? 0
    res.json({ ok: true, periodMs: periodMs ?? null })
  })
  api.post('/stop', async (req, res) => {
    body(EmptyBody, req)
    await device(() => session.client.stop())
    streamingPeriod = undefined
    res.json({ ok: true })
  })
  api.post('/clear', async (req, res) => {
    body(EmptyBody, req)
    await device(() => session.client.clear())
    res.json({ ok: true })
  })
  api.post('/snapshot', async (req, res) => {
    body(EmptyBody, req)
    res.json(await device(() => session.client.snapshot()))
  })
  api.post('/run', async (req, res) => {
    const w = body(RunBody, req)
    if (!session.runner) throw new PsError('PS_WORKLOAD_UNSUPPORTED', `a ${session.source} session has no workload runner`)
    const report = await device(() => runs.run(w, 'manual'))
    res.json({ ...report.result, report })
  })
  api.use((req, _res, next) => {
    next(new HttpError(404, 'PS_HTTP_NOT_FOUND', `no route ${req.method} /api${req.path}`))
  })
  api.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof HttpError) {
      res.status(err.status).json(errorBody(err.code, err.message, err.details))
    } else if (isPsError(err)) {
      res.status(STATUS_OF[err.code] ?? 500).json(errorBody(err.code, err.message))
    } else if (isBodyParserError(err)) {
      // malformed JSON, too large, wrong charset …
      res.status(err.status).json(errorBody('PS_REQUEST_INVALID', err.message, err.type ? { type: err.type } : undefined))
    } else {
      res.status(500).json(errorBody('PS_INTERNAL', err instanceof Error ? err.message : String(err)))
    }
  })
  app.use('/api', api)

  if (existsSync(join(webRoot, 'index.html'))) {
    app.use(express.static(webRoot, { index: 'index.html', etag: false }))
  } else {
    app.get('/', (_req, res) => {
      res.status(503).type('text/plain').send(`web UI not built (${webRoot}): run npm run build:web\n`)
    })
  }

  // ---- http + ws ----------------------------------------------------------------------------
  const server: Server = createServer(app)
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    const reject = (code: 400 | 401 | 403 | 404, text: string) => {
      socket.end(`HTTP/1.1 ${code} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
      socket.destroy()
    }
    socket.on('error', () => socket.destroy())
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://localhost')
    } catch {
      return reject(400, 'Bad Request')
    }
    if (!hostAllowed(allow, req.headers.host) || !originAllowed(allow, req)) return reject(403, 'Forbidden')
    if (url.pathname !== '/ws') return reject(404, 'Not Found')
    if (!tokenMatches(token, url.searchParams.get('token'))) return reject(401, 'Unauthorized')
    hub.upgrade(req, socket, head)
  })

  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen)
    server.listen(opts.http.port, opts.http.host, () => {
      server.off('error', rejectListen)
      resolveListen()
    })
  }).catch(async (e: unknown) => {
    await cleanupSession()
    const code = (e as NodeJS.ErrnoException).code
    const where = `${opts.http.host}:${opts.http.port}`
    if (code === 'EADDRINUSE') throw new PsError('PS_HTTP_LISTEN', `${where} is already in use: choose another address with --http HOST:PORT`, { cause: e })
    if (code === 'EADDRNOTAVAIL' || code === 'EACCES') throw new PsError('PS_HTTP_LISTEN', `cannot listen on ${where} (${code})`, { cause: e })
    throw e
  })

  async function cleanupSession(): Promise<void> {
    session.client.off('snapshot', onSnapshot)
    session.client.off('disconnect', onDisconnect)
    session.client.off('reconnect', onReconnect)
    session.client.off('link-error', onLinkError)
    if (ownsSession) await session.close().catch(() => {})
  }

  if (opts.demo) {
    try {
      await session.client.start(DEMO_PERIOD_MS)
      streamingPeriod = DEMO_PERIOD_MS
    } catch (e) {
      await closeAll()
      throw e
    }
    runs.startDemo()
  }

  const addr = server.address() as AddressInfo
  const urlHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address
  const shownHost = urlHost === '0.0.0.0' || urlHost === '[::]' ? 'localhost' : urlHost
  const url = `http://${shownHost}:${addr.port}/?token=${encodeURIComponent(token)}`

  let closing: Promise<void> | undefined
  async function closeAll(): Promise<void> {
    await runs.close()
    await hub.close()
    await new Promise<void>((r) => {
      server.close(() => r())
      server.closeAllConnections()
    })
    await cleanupSession()
  }

  return {
    url,
    token,
    close: () => (closing ??= closeAll()),
  }
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message)
  }
}

function isBodyParserError(e: unknown): e is { status: number; message: string; type?: string } {
  return typeof e === 'object' && e !== null && typeof (e as { status?: unknown }).status === 'number' && 'type' in e
}

function deviceErrorCode(e: DeviceError | null): PsErrorCode {
  const c = e?.code
  return c === 'PS_TWIN_EXITED' || c === 'PS_SERIAL_DISCONNECTED' || c === 'PS_DEVICE_CLOSED' ? c : 'PS_SERIAL_DISCONNECTED'
}

function requirePort(port: string | undefined): string {
  if (!port) throw new PsError('PS_USAGE', 'no serial port given (use the twin or name a port)')
  return port
}
