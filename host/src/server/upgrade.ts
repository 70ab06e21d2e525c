/**
 * The http server's 'upgrade' listener: a WebSocket upgrade reaches the hub only on /ws, with an
 * allowed Host, a same-origin (or absent) Origin and the token in ?token=. Anything else is
 * refused with a plain HTTP status (from http-errors.ts) before any WebSocket exists.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { PsError } from '../core/errors.js'
import { statusOf } from './http-errors.js'
import { hostAllowed, originAllowed, tokenMatches } from './security.js'

export interface UpgradeOptions {
  token: string
  /** Host header names accepted (security.ts hostAllowlist) */
  allow: Set<string>
  /** the WebSocket path (default /ws) */
  path?: string
  /** hands the checked request over (WsHub.upgrade) */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer): void
}

/** Why an upgrade request is refused, or undefined when it may proceed. */
export function upgradeRefusal(req: IncomingMessage, opts: Pick<UpgradeOptions, 'token' | 'allow' | 'path'>): PsError | undefined {
  let url: URL
  try {
    url = new URL(req.url ?? '/', 'http://localhost')
  } catch {
    return new PsError('PS_REQUEST_INVALID', 'unparsable request URL')
  }
  if (!hostAllowed(opts.allow, req.headers.host)) return new PsError('PS_HTTP_FORBIDDEN', 'Host header not allowed')
  if (!originAllowed(opts.allow, req)) return new PsError('PS_HTTP_FORBIDDEN', 'Origin not allowed')
  if (url.pathname !== (opts.path ?? '/ws')) return new PsError('PS_HTTP_NOT_FOUND', `no WebSocket at ${url.pathname}`)
  if (!tokenMatches(opts.token, url.searchParams.get('token'))) return new PsError('PS_HTTP_UNAUTHORIZED', 'missing or wrong token')
  return undefined
}

export function upgradeHandler(opts: UpgradeOptions): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    socket.on('error', () => socket.destroy())
    const refusal = upgradeRefusal(req, opts)
    if (!refusal) return opts.accept(req, socket, head)
    const status = statusOf(refusal.code)
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
    socket.destroy()
  }
}
