/**
 * The control server: one http server carrying the REST API (express 5), the WebSocket feed (ws,
 * noServer upgrade after auth) and the static web UI from dist/web. This module composes the
 * parts: device-state.ts (session, connection, status), routes.ts (the express app),
 * http-errors.ts (PsError code → HTTP status and body), upgrade.ts (WebSocket admission),
 * hub.ts (WebSocket fan-out) and runs.ts (workload runs and the demo loop).
 *
 * With `recordings.record` the session is recorded into a new recording in the recordings folder
 * (serve-recording.ts): every snapshot, every run's start and result, START/STOP/CLEAR, device events.
 *
 * It prints nothing itself: the CLI prints the URL, and `notify` lines (the twin failed, is
 * restarting, is back; the warning of a binding beyond loopback). A device that disconnects
 * leaves the server up: it reports `connected: false` with the error code, keeps the last
 * snapshots, and device commands answer 503 with that code. A twin is supervised
 * (device/supervisor.ts): restarted after it exits or hangs, with the gap recorded.
 * Runs have deadlines and a bounded queue (runs.ts); docs/contracts.md §6 has the error codes.
 *
 * REST (Bearer token on /api except health; JSON bodies only, anything else 4xx PS_REQUEST_INVALID;
 * JSON errors {error:{code,message,details?}}):
 *   GET  /api/health        {ok:true}, no auth
 *   GET  /api/status        ServerStatus (source, path, connected, error, info, sources (twin/gpu available or why not), hostStats, lastSnapshot, wsDrops …)
 *   GET  /api/patterns      {patterns, runner}
 *   POST /api/start         {periodMs?}            POST /api/stop, /api/clear   {}
 *   POST /api/snapshot      → Snapshot (on demand)
 *   POST /api/run           {pattern, bytes, offset?, source?: twin|gpu} or a graph kernel's {pattern, graph, idBytes?, sourceVertex?, source?}
 *                           → WorkloadResult & {report: RunReport}; 409 when the source is not available
 *   GET  /api/recording     {recording: name | null}; POST {action: 'start'|'stop'}: record on demand
 *   GET  /api/recordings    {root, recording, recordings: RecordingSummary[], skipped} (recordings.ts)
 *   GET  /api/recordings/:name RecordingDescription; 400 PS_RECORDING_NAME_INVALID, 404 PS_RECORDING_NOT_FOUND
 *   GET  /api/recordings/:name/export?format=csv|jsonl|perfetto|vcd|parquet|pcapng  the export, as a download
 *   POST /api/latency       {cycles}: the completer's latency (SET_BAR_LATENCY), kept in status.info and restored on reconnect
 *   GET  /api/lessons       {lessons: LessonSummary[]}; GET /api/lessons/:id {lesson}, 404 PS_LESSON_NOT_FOUND (lessons.ts)
 *   GET  /api/openapi.json  OpenAPI 3.0 from the zod schemas
 * WebSocket /ws?token=… (server → browser, JSON text; see wire.ts ServerMessage):
 *   hello, status (on connect, on device disconnect or reconnect, on START/STOP), snapshot (batched
 *   ≤ 40 Hz with the further taps' snapshots as tapSnapshots, skipped for clients with > 1 MiB
 *   buffered, counted in wsDrops), latency-histogram and tap-histogram, intervals, run-start (before a
 *   workload, with its baseline snapshot), run (after every workload), run-error, twin-failure
 *   and twin-restarted (the supervisor's news), gpu-counters (`serve --gpu-counters`: an interval
 *   of the GPU's own PCIe counters, gpu-counters.ts).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { isPsError, PsError } from '../core/errors.js'
import { packageRoot } from '../util/package-root.js'
import { DeviceState } from './device-state.js'
import { WsHub, type HubOptions } from './hub.js'
import { createApp } from './routes.js'
import { DEMO_PERIOD_MS, RunService } from './runs.js'
import type { RunLimits } from '../workload/deadline.js'
import { checkBinding, hostAllowlist, interfaceAddresses, isLoopback, isWildcard, newToken } from './security.js'
import { openDeviceSession, type ServerSession, type SupervisionOptions } from './session.js'
import { upgradeHandler } from './upgrade.js'
import type { DeviceError, ServerStatus, TwinFailure } from '../core/wire.js'
import { loadAddon, type NativeAddon } from '../native/addon.js'
import { gpuAvailability, GpuWorkloadRunner } from '../workload/gpu-runner.js'
import { SessionRecording } from './serve-recording.js'
import { defaultLessonsDir, loadLessons } from './lessons.js'
import { ServerGpuCounters, type ServerGpuCountersOptions } from './gpu-counters.js'
import { sampleCycles } from '../core/sample-period.js'
import type { TwinSegments } from '../transport/twin.js'
import type { TwinMode } from '../core/twin-mode.js'

export type { ServerSession, ServerProbeClient } from './session.js'
export type * from '../core/wire.js'

export interface StartServerOptions {
  twin: boolean
  /** twin only: the modelled PCIe link, e.g. "gen3x16" (the twin's default) or "ideal" */
  link?: string
  /** twin only: the design, the switch with a host model above it (the twin's default) or the BAR endpoint */
  mode?: TwinMode
  /** twin only, either mode: TLP segments per beat (1, 2 or 4; the twin's default 1) */
  segments?: TwinSegments
  /** serial device when not on the twin */
  port?: string
  baudRate?: number
  http: { host: string; port: number }
  /** stream and loop the three patterns so the page moves on its own */
  demo?: boolean
  /**
   * interval sampler period in µs of probe clock (SET_SAMPLE_PERIOD), set at start and after every
   * reconnect: the INTERVAL records reach the page's in-flight chart; unset: off
   */
  sampleUs?: number
  /** fixed token (tests); default: 32 random bytes per run */
  token?: string
  /** an already open session (tests); the caller keeps ownership and closes it */
  session?: ServerSession
  /** directory of the built web UI; default: <repo>/dist/web */
  webRoot?: string
  /**
   * the recordings folder listed at GET /api/recordings and, with `record`, the folder this
   * server records its session into (one recording: snapshots, runs, marks, device events)
   */
  recordings?: { dir: string; record: boolean; frames?: boolean }
  /** the lessons folder (docs/lessons.md); default: <repo>/lessons. Every file is checked at start */
  lessonsDir?: string
  /** twin only: restart back-off and hang detection (device/supervisor.ts has the defaults) */
  supervision?: SupervisionOptions
  /** WebSocket back-pressure bounds (hub.ts has the defaults) */
  ws?: Pick<HubOptions, 'maxBufferedBytes' | 'dropBufferedBytes' | 'stuckMs' | 'batchMs'>
  /** http socket timeouts (defaults: HTTP_TIMEOUTS) */
  timeouts?: Partial<HttpTimeouts>
  /** run deadlines (slack + bytes at a floor rate) and the queue bound (runs.ts has the defaults) */
  runs?: Partial<RunLimits>
  /** one line for the user's terminal: the twin failed, is restarting, is back (the CLI prints them) */
  notify?: (line: string) => void
  /**
   * GPU runs (POST /api/run with source 'gpu'): the native addon's loader (default: the built
   * addon), or false for none. Probed once at start; GET /api/status says the outcome.
   */
  gpu?: { load: () => NativeAddon } | false
  /**
   * the GPU's own PCIe counters beside the probe (gpu-counters.ts): streamed as {type:'gpu-counters'},
   * recorded, named in GET /api/status; the server does not start without a source
   * (PS_GPU_COUNTERS_UNAVAILABLE). `load` defaults to the built addon.
   */
  gpuCounters?: Partial<ServerGpuCountersOptions>
}

export interface RunningServer {
  /** http://host:port/?token=… */
  url: string
  token: string
  /** the recording this server records into, or null */
  recording: string | null
  /** the GPU counter source in words (`serve --gpu-counters`), or null */
  gpuCounters: string | null
  close(): Promise<void>
}

/**
 * Socket timeouts, set on purpose: a client gets HEADERS ms to send its headers and REQUEST ms
 * for the whole request (a body included; a long run's answer is not bounded by this, its
 * deadline is), an idle keep-alive socket is closed after KEEP_ALIVE ms, and the server checks
 * for expired requests every CHECK ms.
 */
export interface HttpTimeouts {
  headersMs: number
  requestMs: number
  keepAliveMs: number
  checkMs: number
}
export const HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000, checkMs: 1_000 }

/** how long shutdown waits for responses still being written before it drops their sockets */
const CLOSE_GRACE_MS = 500

/** The GPU source: its runner when a GPU is usable, and what GET /api/status says about it. */
async function gpuSource(
  opts: { load: () => NativeAddon } | false,
): Promise<{ runner: { runner: GpuWorkloadRunner } | { reason: string }; status: ServerStatus['sources']['gpu'] }> {
  if (opts === false) {
    const reason = 'GPU runs are turned off for this server'
    return { runner: { reason }, status: { available: false, reason, devices: [] } }
  }
  const a = await gpuAvailability(opts.load)
  if (!a.available) return { runner: { reason: a.reason }, status: { available: false, reason: a.reason, devices: [] } }
  return {
    runner: { runner: new GpuWorkloadRunner(opts.load()) },
    status: { available: true, reason: null, devices: a.devices.map((d) => `${d.name} (${d.pciBusId})`) },
  }
}

export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const token = opts.token ?? newToken()
  // refused before anything starts: no twin is launched for a server that may not run
  checkBinding(opts.http.host, token)
  // a broken lesson file stops the start before a twin is launched: PS_LESSON_INVALID names it
  const lessons = loadLessons(opts.lessonsDir ?? defaultLessonsDir())
  // the GPU counters first: no twin is launched for a server whose counters have no source
  const gpuCounters = opts.gpuCounters ? await ServerGpuCounters.start({ load: () => loadAddon(), ...opts.gpuCounters }) : undefined
  const ownsSession = opts.session === undefined
  const session: ServerSession =
    opts.session ??
    (await openDeviceSession(
      opts.twin
        ? {
            twin: true,
            ...(opts.link !== undefined ? { link: opts.link } : {}),
            ...(opts.mode !== undefined ? { mode: opts.mode } : {}),
            ...(opts.segments !== undefined ? { segments: opts.segments } : {}),
            ...(opts.supervision ? { supervision: opts.supervision } : {}),
          }
        : { port: requirePort(opts.port), ...(opts.baudRate ? { baudRate: opts.baudRate } : {}) },
    ).catch(async (e: unknown) => {
      await gpuCounters?.close()
      throw e
    }))
  /** since when the device has been away, and why: the gap a reconnect records */
  let away: { since: number; error: DeviceError | null } | undefined
  const notify = opts.notify ?? (() => {})
  const allow = hostAllowlist(opts.http.host, isWildcard(opts.http.host) ? interfaceAddresses('any') : [])
  const gpu = await gpuSource(opts.gpu ?? { load: () => loadAddon() })
  const sources: ServerStatus['sources'] = {
    twin:
      session.runner?.kind === 'twin'
        ? { available: true, reason: null }
        : { available: false, reason: `a ${session.source} session has no twin to run workloads on` },
    gpu: gpu.status,
  }
  const recorder = new SessionRecording(opts.recordings?.dir ?? null, session, { frames: opts.recordings?.frames ?? false })
  try {
    if (opts.recordings?.record) recorder.start()
  } catch (e) {
    await gpuCounters?.close()
    if (ownsSession) await session.close().catch(() => {})
    throw e
  }

  const state = new DeviceState(session, {
    snapshot: (s) => {
      hub.queueSnapshot(s)
      recorder.current?.snapshot(s)
    },
    connection: (connected) => {
      // on a disconnect the snapshots already queued go out before the status that ends them
      if (!connected) hub.flush()
      const st = status()
      if (connected && away) {
        // the recording goes on: the time the device was away is marked, so no rate spans it
        recorder.current?.gap(away.since, Date.now(), away.error)
        away = undefined
      } else if (!connected) away = { since: Date.now(), error: st.error }
      recorder.current?.device(connected ? 'reconnect' : 'disconnect', connected ? session.info : null, st.error)
      hub.broadcast({ type: 'status', ...st })
      if (connected && runs.demoWanted) runs.startDemo() // the loop ended when the device went away
    },
    streaming: (periodMs) => {
      recorder.current?.mark(periodMs === null ? 'stop' : 'start', periodMs === null ? null : `${periodMs} ms`)
      hub.broadcast({ type: 'status', ...status() })
    },
    cleared: () => recorder.current?.mark('clear'),
    intervals: (b) => {
      hub.broadcast({ type: 'intervals', batch: b })
      recorder.current?.interval(b)
    },
    histogram: (h) => {
      hub.flush() // the snapshot it names reaches the page first
      hub.broadcast({ type: 'latency-histogram', histogram: h })
      recorder.current?.histogram(h)
    },
    tapSnapshot: (t) => {
      hub.queueTapSnapshot(t)
      recorder.current?.tapSnapshot(t)
    },
    tapHistogram: (h) => {
      hub.flush() // the tap snapshot it names reaches the page first
      hub.broadcast({ type: 'tap-histogram', histogram: h })
      recorder.current?.tapHistogram(h)
    },
  })
  const status = (): ServerStatus => ({
    ...state.status({ wsDrops: hub.drops, wsClients: hub.size, wsClientsDropped: hub.clientsDropped, demo: runs.demo, sources }),
    gpuCounters: gpuCounters?.status() ?? null,
  })
  const hub = new WsHub({
    ...opts.ws,
    hostStats: () => state.hostStats(),
    greeting: () => [state.hello(runs.lastReport), { type: 'status', ...status() }],
  })
  const runs = new RunService(
    session,
    {
      connected: () => state.connected,
      watched: (): boolean => hub.size > 0,
      demoChanged: () => hub.broadcast({ type: 'status', ...status() }),
      start: (r) => {
        recorder.current?.runStart(r.id, r.origin, r.workload, r.baseline)
        hub.flush() // the snapshots before the baseline reach the page first
        hub.broadcast({ type: 'run-start', ...r })
      },
      report: (report) => {
        recorder.current?.run(report.id, report.origin, report.result.workload, { probeWindow: report.probeWindow, result: report })
        if (recorder.current) runs.recordedIn.set(report.id, recorder.current.name)
        hub.broadcast({ type: 'run', report, result: report.result, demo: { ...runs.demo } })
      },
      failed: (r, e) => recorder.current?.run(r.id, r.origin, r.workload, { error: e }),
      error: (origin, e) =>
        hub.broadcast({
          type: 'run-error',
          origin,
          error: { code: isPsError(e) ? e.code : 'PS_INTERNAL', message: e instanceof Error ? e.message : String(e) },
        }),
    },
    opts.runs,
    gpu.runner,
  )

  gpuCounters?.attach(
    (interval) => {
      hub.broadcast({ type: 'gpu-counters', interval })
      recorder.current?.gpuCounters(interval)
    },
    () => hub.broadcast({ type: 'status', ...status() }), // the page's card says why they stopped
  )

  // the supervisor's news, in words, on the terminal and the page
  const onFailure = (f: TwinFailure): void => {
    const sup = session.supervisor?.supervision()
    const next = sup && sup.state === 'restarting' ? `; restarting it in ${sup.backoffMs} ms` : ''
    notify(`${f.message}${next}`)
    hub.broadcast({ type: 'twin-failure', failure: f, supervision: sup ?? null })
  }
  const onRestarted = (): void => {
    const sup = session.supervisor?.supervision() ?? null
    notify(`the twin is running again (restart ${sup?.restarts ?? '?'}, ${session.path})`)
    hub.broadcast({ type: 'twin-restarted', supervision: sup })
  }
  session.supervisor?.on('failure', onFailure)
  session.supervisor?.on('restarted', onRestarted)

  const app = createApp({
    token,
    allow,
    state,
    runs,
    status,
    webRoot: resolve(opts.webRoot ?? join(packageRoot(), 'dist', 'web')),
    recordings: { dir: opts.recordings?.dir ?? null, recording: () => recorder.current?.name ?? null },
    recording: recorder,
    lessons,
  })
  const t = { ...HTTP_TIMEOUTS, ...opts.timeouts }
  const server: Server = createServer(
    { headersTimeout: t.headersMs, requestTimeout: t.requestMs, keepAliveTimeout: t.keepAliveMs, connectionsCheckingInterval: t.checkMs },
    app,
  )
  server.on('upgrade', upgradeHandler({ token, allow, accept: (req, socket, head) => hub.upgrade(req, socket, head) }))

  const cleanupSession = async (): Promise<void> => {
    state.detach()
    session.supervisor?.off('failure', onFailure)
    session.supervisor?.off('restarted', onRestarted)
    await gpuCounters?.close() // its last interval goes into the recording
    recorder.stop() // after the last run and snapshot; failures were logged
    if (ownsSession) await session.close().catch(() => {})
  }
  let closing: Promise<void> | undefined
  const closeAll = async (): Promise<void> => {
    // no new connections; the runs cut off below still answer theirs (503 PS_SERVER_CLOSING)
    const stopped = new Promise<void>((r) => server.close(() => r()))
    await runs.close()
    await hub.close()
    // idle keep-alive sockets go now; a response still being written gets a moment to finish
    server.closeIdleConnections()
    const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS)
    await stopped
    clearTimeout(force)
    await cleanupSession()
  }

  try {
    await listen(server, opts.http)
  } catch (e) {
    await runs.close()
    await hub.close()
    await cleanupSession()
    throw e
  }

  if (opts.sampleUs !== undefined) {
    try {
      await state.setSamplePeriod(sampleCycles(opts.sampleUs, session.info.clockHz))
    } catch (e) {
      await closeAll()
      throw e
    }
  }
  if (opts.demo) {
    try {
      await state.start(DEMO_PERIOD_MS)
    } catch (e) {
      await closeAll()
      throw e
    }
    runs.startDemo()
  }

  const addr = server.address() as AddressInfo
  const shownHost = urlHostOf(addr)
  if (!isLoopback(addr.address)) {
    const reach = isWildcard(addr.address)
      ? `every interface (${interfaceAddresses(addr.family === 'IPv6' ? 'any' : 'IPv4').join(', ')})`
      : addr.address
    notify(
      `warning: listening on ${reach}, port ${addr.port}: anyone on the network who has the token controls the probe (serve on 127.0.0.1 to keep it to this machine)`,
    )
  }
  return {
    url: `http://${shownHost}:${addr.port}/?token=${encodeURIComponent(token)}`,
    token,
    recording: recorder.current?.writer.dir ?? null,
    gpuCounters: gpuCounters?.describe() ?? null,
    close: () => (closing ??= closeAll()),
  }
}

/** server.listen, with the usual failures as PS_HTTP_LISTEN saying what to do. */
async function listen(server: Server, at: { host: string; port: number }): Promise<void> {
  try {
    await new Promise<void>((resolveListen, rejectListen) => {
      server.once('error', rejectListen)
      server.listen(at.port, at.host, () => {
        server.off('error', rejectListen)
        resolveListen()
      })
    })
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    const where = `${at.host}:${at.port}`
    if (code === 'EADDRINUSE')
      throw new PsError('PS_HTTP_LISTEN', `${where} is already in use: choose another address with --http HOST:PORT`, { cause: e })
    if (code === 'EADDRNOTAVAIL' || code === 'EACCES')
      throw new PsError('PS_HTTP_LISTEN', `cannot listen on ${where} (${code})`, { cause: e })
    throw e
  }
}

/**
 * The host of the URL to print: the bound address itself, or for a wildcard binding the first
 * address of this machine that others can reach (loopback when it has none).
 */
function urlHostOf(addr: AddressInfo): string {
  let host = addr.address
  if (isWildcard(host)) host = interfaceAddresses(addr.family === 'IPv6' ? 'any' : 'IPv4')[0] ?? '127.0.0.1'
  return host.includes(':') ? `[${host}]` : host
}

function requirePort(port: string | undefined): string {
  if (!port) throw new PsError('PS_USAGE', 'no serial port given (use the twin or name a port)')
  return port
}
