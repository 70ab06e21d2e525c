import { request } from 'node:http'
import { WebSocket } from 'ws'
import { startServer, type RunningServer, type ServerMessage, type StartServerOptions } from '../../../host/src/server/index.js'
import { fakeSession, type FakeClient } from './fake-session.js'
import type { RunLimits } from '../../../host/src/workload/deadline.js'

export const TOKEN = 'test-token-0123456789'

let running: RunningServer[] = []

/** A server on 127.0.0.1:0 over a fake session; close them all with closeServers (afterEach). */
export async function serve(
  o: {
    runner?: boolean
    demo?: boolean
    runDelayMs?: number
    webRoot?: string
    recordings?: { dir: string; record: boolean }
    runs?: Partial<RunLimits>
    /** GPU runs: a (fake) addon loader; default none, so no test depends on this machine's build */
    gpu?: StartServerOptions['gpu']
    sampleUs?: number
    /** the fake device has the switch design's host-side tap */
    switchMode?: boolean
    /** the GPU's own counters beside the probe (a fake addon's loader) */
    gpuCounters?: StartServerOptions['gpuCounters']
    /** the lessons folder (default: the shipped lessons/) */
    lessonsDir?: string
  } = {},
) {
  const session = fakeSession({ runner: o.runner ?? true, runDelayMs: o.runDelayMs ?? 20, switchMode: o.switchMode ?? false })
  const srv = await startServer({
    twin: true,
    http: { host: '127.0.0.1', port: 0 },
    token: TOKEN,
    session,
    demo: o.demo ?? false,
    ...(o.webRoot ? { webRoot: o.webRoot } : {}),
    ...(o.recordings ? { recordings: o.recordings } : {}),
    ...(o.runs ? { runs: o.runs } : {}),
    ...(o.sampleUs !== undefined ? { sampleUs: o.sampleUs } : {}),
    gpu: o.gpu ?? false,
    ...(o.gpuCounters ? { gpuCounters: o.gpuCounters } : {}),
    ...(o.lessonsDir ? { lessonsDir: o.lessonsDir } : {}),
  })
  running.push(srv)
  return { srv, session, client: session.client as FakeClient, base: new URL(srv.url).origin }
}

/** Keeps a server started elsewhere for closeServers. */
export function track(srv: RunningServer): RunningServer {
  running.push(srv)
  return srv
}

export async function closeServers(): Promise<void> {
  await Promise.all(running.map((s) => s.close()))
  running = []
}

export interface HttpReply {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  json: any
}

/** Raw http request (fetch cannot set Host), relative to a server URL. */
export function http(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; rawBody?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<HttpReply> {
  const u = new URL(path, base)
  const headers: Record<string, string> = { ...opts.headers }
  if (opts.token) headers.authorization = `Bearer ${opts.token}`
  const payload = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body))
  if (payload !== undefined) headers['content-type'] ??= 'application/json'
  return new Promise((resolve, reject) => {
    const r = request(u, { method, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (text += d))
      res.on('end', () => {
        let json: unknown
        try {
          json = JSON.parse(text)
        } catch {
          json = undefined
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json })
      })
    })
    r.on('error', reject)
    if (payload !== undefined) r.write(payload)
    r.end()
  })
}

export interface WsProbe {
  ws: WebSocket
  messages: ServerMessage[]
  of<T extends ServerMessage['type']>(type: T): Extract<ServerMessage, { type: T }>[]
  close(): Promise<void>
}

export function wsUrl(base: string, token: string | undefined): string {
  const u = new URL('/ws', base.replace(/^http/, 'ws'))
  if (token !== undefined) u.searchParams.set('token', token)
  return u.toString()
}

/** Opens a ws client and records every message; rejects with the HTTP status on a refused upgrade. */
export function openWs(url: string, opts: { headers?: Record<string, string>; origin?: string } = {}): Promise<WsProbe> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: opts.headers, ...(opts.origin ? { origin: opts.origin } : {}) })
    const messages: ServerMessage[] = []
    ws.on('message', (d) => messages.push(JSON.parse(String(d)) as ServerMessage))
    ws.once('unexpected-response', (_req, res) =>
      reject(Object.assign(new Error(`upgrade refused ${res.statusCode}`), { status: res.statusCode })),
    )
    ws.once('error', reject)
    ws.once('open', () =>
      resolve({
        ws,
        messages,
        of: (type) => messages.filter((m) => m.type === type) as never,
        close: () =>
          new Promise((r) => {
            if (ws.readyState === WebSocket.CLOSED) return r()
            ws.once('close', () => r())
            ws.close()
          }),
      }),
    )
  })
}
