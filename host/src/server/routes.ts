/**
 * The express app: the Host guard on every request, the REST API under /api (Bearer token except
 * /api/health; JSON bodies only, validated with the zod schemas of schemas.ts) and the static web
 * UI. Errors go through http-errors.ts, so every failure is a JSON {error:{code,message,details?}}.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import express, { type Express, type NextFunction, type Request, type Response } from 'express'
import { z } from 'zod'
import { PsError } from '../core/errors.js'
import { PATTERNS } from '../core/workload.js'
import type { ServerStatus } from '../core/wire.js'
import type { Counters } from '../core/probe.js'
import { packageVersion } from '../util/package-root.js'
import type { DeviceState } from './device-state.js'
import { ApiError, apiErrorHandler, bodyReadError, clientHttpError, sendError } from './http-errors.js'
import type { RunService } from './runs.js'
import { recordingsRouter, type RecordingsDeps } from './recordings.js'
import { RunHistory } from './run-history.js'
import { lessonsRouter } from './lessons.js'
import type { Lesson } from '../core/lesson.js'
import { CompareBody, DemoBody, EmptyBody, LatencyBody, openApiDocument, RecordingBody, RunBody, StartBody, TraceBody } from './schemas.js'
import { counterDeltas } from '../core/rates.js'
import { tapCounters } from '../core/tap-counters.js'
import { pairReads, type Trace } from '../core/trace.js'
import { buildReport } from '../core/trace-report.js'
import { parseFilter, parseTrigger } from '../core/trace-trigger.js'
import { requireTraceTap } from '../device/trace-tap.js'
import type { SessionRecording } from './serve-recording.js'
import { bearerToken, hostAllowed, setSecurityHeaders, tokenMatches } from './security.js'

/** the largest request body the API reads */
const BODY_LIMIT = '64kb'

export interface AppDeps {
  token: string
  /** Host header names accepted (security.ts hostAllowlist) */
  allow: Set<string>
  state: DeviceState
  runs: RunService
  status(): ServerStatus
  /** directory of the built web UI */
  webRoot: string
  /** the recordings in the recordings folder (GET /api/recordings…); none when absent */
  recordings?: RecordingsDeps
  /** recording on demand (GET/POST /api/recording); absent: 409 PS_RECORDING_UNAVAILABLE */
  recording?: Pick<SessionRecording, 'current' | 'start' | 'stop'>
  /** the lessons at GET /api/lessons (lessons.ts); none when absent */
  lessons?: readonly Lesson[]
}

export function createApp(deps: AppDeps): Express {
  const app = express()
  app.disable('x-powered-by')
  app.set('etag', false)

  // security headers on every response; then the DNS-rebinding guard, static files included
  app.use((_req, res, next) => {
    setSecurityHeaders(res)
    next()
  })
  app.use((req, res, next) => {
    if (!hostAllowed(deps.allow, req.headers.host)) return sendError(res, new PsError('PS_HTTP_FORBIDDEN', 'Host header not allowed'))
    next()
  })

  app.use('/api', apiRouter(deps))

  // the page's source map shows its source: only to a caller with the token (header or ?token=)
  app.use((req, res, next) => {
    if (!req.path.endsWith('.map')) return next()
    const given = bearerToken(req.headers.authorization) ?? (typeof req.query['token'] === 'string' ? req.query['token'] : undefined)
    if (tokenMatches(deps.token, given)) return next()
    res.set('WWW-Authenticate', 'Bearer')
    sendError(res, new PsError('PS_HTTP_UNAUTHORIZED', 'the source map needs the token'))
  })
  if (existsSync(join(deps.webRoot, 'index.html'))) {
    app.use(express.static(deps.webRoot, { index: 'index.html', etag: false }))
  } else {
    app.get('/', (_req, res) => {
      res.status(503).type('text/plain').send(`web UI not built (${deps.webRoot}): run npm run build:web\n`)
    })
  }
  // outside /api too, a miss or a refused request answers in JSON, never express's HTML page
  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(new PsError('PS_HTTP_NOT_FOUND', `no such page: ${req.method} ${req.path}`))
  })
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => sendError(res, clientHttpError(err)))
  return app
}

function apiRouter({ token, state, runs, status, recordings, recording, lessons }: AppDeps): express.Router {
  const { session } = state
  const api = express.Router()
  api.get('/health', (_req, res) => {
    res.json({ ok: true })
  })
  api.use((req, res, next) => {
    if (!tokenMatches(token, bearerToken(req.headers.authorization))) {
      res.set('WWW-Authenticate', 'Bearer')
      return sendError(res, new PsError('PS_HTTP_UNAUTHORIZED', 'missing or wrong bearer token'))
    }
    next()
  })
  // JSON bodies are parsed; any other body is read as bytes (body() refuses it unless empty).
  // Whatever goes wrong while reading a body is the request's fault: PS_REQUEST_INVALID.
  for (const parse of [express.json({ limit: BODY_LIMIT }), express.raw({ type: () => true, limit: BODY_LIMIT })]) {
    api.use((req, res, next) => parse(req, res, (err?: unknown) => next(err === undefined ? undefined : bodyReadError(err))))
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
    await state.start(periodMs)
    res.json({ ok: true, periodMs: periodMs ?? null })
  })
  api.post('/stop', async (req, res) => {
    body(EmptyBody, req)
    await state.stop()
    res.json({ ok: true })
  })
  api.post('/clear', async (req, res) => {
    body(EmptyBody, req)
    await state.clear()
    res.json({ ok: true })
  })
  api.post('/snapshot', async (req, res) => {
    body(EmptyBody, req)
    res.json(await state.command(() => session.client.snapshot()))
  })
  api.post('/run', async (req, res) => {
    const { workload: w, source } = body(RunBody, req)
    runs.runnerFor(source) // 409 before the device is touched
    // a client that goes away before its answer cancels its run (queued or in flight)
    const gone = new AbortController()
    res.on('close', () => {
      if (!res.writableFinished) gone.abort()
    })
    const report = await state.command(() => runs.run(w, 'manual', gone.signal, source))
    res.json({ ...report.result, report })
  })
  api.post('/trace', async (req, res) => {
    const { workload, trigger: text, filter: filterText, tap, pre } = body(TraceBody, req)
    const c = session.client
    if (!c.traceArm || !c.traceForce || !c.traceStop || !c.traceStatus || !c.readTrace)
      throw new PsError('PS_WORKLOAD_UNSUPPORTED', 'this device has no TLP trace')
    const { traceArm, traceForce, traceStop, traceStatus, readTrace } = {
      traceArm: c.traceArm.bind(c),
      traceForce: c.traceForce.bind(c),
      traceStop: c.traceStop.bind(c),
      traceStatus: c.traceStatus.bind(c),
      readTrace: c.readTrace.bind(c),
    }
    const clockHz = session.info.clockHz
    const trigger = parseTrigger(text, clockHz)
    const filter = filterText === undefined ? undefined : parseFilter(filterText)
    runs.runnerFor('twin') // 409 before the device is touched
    await state.command(() => requireTraceTap({ traceStatus }, tap, 'PS_REQUEST_INVALID'))
    const gone = new AbortController()
    res.on('close', () => {
      if (!res.writableFinished) gone.abort()
    })
    // the run's counter deltas are tap 0's; a further tap's are read around the run here
    const readTap = async () => (tap !== 0 && c.latencyHistograms ? tapCounters(await c.latencyHistograms(), tap) : undefined)
    let tapBefore: Counters | undefined
    let tapAfter: Counters | undefined
    let depth = 0
    // armed and stopped inside the run's turn, so that no other run's TLPs land in the trace
    const run = await state.command(() =>
      runs.run(workload, 'manual', gone.signal, 'twin', {
        before: async () => {
          tapBefore = await readTap()
          ;({ depth } = await traceArm({
            tap,
            pre,
            ...(trigger.force ? {} : { trigger: trigger.settings }),
            ...(filter ? { filter: filter.filter } : {}),
          }))
          if (trigger.force) await traceForce(tap)
        },
        after: async () => {
          const st = await traceStatus(tap)
          if (st.state === 'armed' || st.state === 'triggered') await traceStop(tap)
          tapAfter = await readTap()
        },
      }),
    )
    const trace: Trace = await state.command(() => readTrace(tap))
    // counters that were stopped counted nothing: no figures rather than zeros
    const tracker = !run.countersEnabled
      ? undefined
      : tap === 0
        ? run.probe
        : tapBefore && tapAfter
          ? counterDeltas({ counters: tapBefore }, { counters: tapAfter })
          : undefined
    res.json(
      buildReport(
        { pattern: workload.pattern, bytes: workload.bytes, trigger: trigger.text, filter: filter?.text ?? null, depth, clockHz },
        trace,
        pairReads(trace.records),
        tracker,
      ),
    )
  })
  api.post('/latency', async (req, res) => {
    const { cycles } = body(LatencyBody, req)
    await state.setBarLatency(cycles)
    res.json({ barLatencyCycles: cycles })
  })
  api.post('/demo', async (req, res) => {
    const { enabled } = body(DemoBody, req)
    if (enabled && !runs.demoAvailable)
      throw new PsError('PS_WORKLOAD_UNSUPPORTED', 'the demo loop runs on the twin; this server runs none')
    if (enabled) runs.startDemo()
    else await runs.stopDemo()
    res.json({ demo: { ...runs.demo } })
  })
  api.get('/recording', (_req, res) => {
    res.json({ recording: recording?.current?.name ?? null })
  })
  api.post('/recording', (req, res) => {
    const { action } = body(RecordingBody, req)
    if (!recording) throw new PsError('PS_RECORDING_UNAVAILABLE', 'this server keeps no recordings')
    const stopped = action === 'stop' ? recording.stop() : null
    if (action === 'start') recording.start()
    res.json({ recording: recording.current?.name ?? null, stopped })
  })
  api.use(lessonsRouter(lessons ?? []))
  api.use(recordingsRouter(recordings ?? { dir: null, recording: () => null }))
  const history = new RunHistory({ runs, recordings: recordings ?? { dir: null, recording: () => null } })
  api.get('/runs', async (_req, res) => {
    res.json(await history.listing())
  })
  api.post('/compare', async (req, res) => {
    const { runs: keys, format } = body(CompareBody, req)
    const r = await history.compare(keys, format)
    if ('html' in r) res.type('text/html; charset=utf-8').attachment('pcie-scope-comparison.html').send(r.html)
    else res.json(r.json)
  })
  api.use((req: Request, _res: Response, next: NextFunction) => {
    next(new PsError('PS_HTTP_NOT_FOUND', `no route ${req.method} /api${req.path}`))
  })
  api.use(apiErrorHandler)
  return api
}

/**
 * The request body checked against a schema. No body, or an empty one, is `{}` (POST /api/stop
 * needs none); a body that is not application/json is refused (415), never read as `{}`.
 */
export function body<S extends z.ZodType>(schema: S, req: Pick<Request, 'body' | 'headers'>): z.output<S> {
  const raw: unknown = req.body
  if (Buffer.isBuffer(raw) && raw.length > 0) {
    throw new ApiError('PS_REQUEST_INVALID', `the request body must be application/json, not ${req.headers['content-type'] ?? 'untyped'}`, {
      status: 415,
    })
  }
  const r = schema.safeParse(raw === undefined || Buffer.isBuffer(raw) ? {} : raw)
  if (!r.success) throw new ApiError('PS_REQUEST_INVALID', 'invalid request body', { details: z.treeifyError(r.error) })
  return r.data
}
