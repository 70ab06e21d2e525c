/**
 * Error mapping, in one place: every failure the server answers (REST error body, refused
 * WebSocket upgrade) gets its HTTP status from the PsError code through STATUS_OF, and every
 * REST error body has the shape {error: {code, message, details?}} (core/wire.ts ApiErrorBody).
 */
import type { NextFunction, Request, Response } from 'express'
import { isPsError, PsError, type PsErrorCode } from '../core/errors.js'
import type { ApiErrorBody } from '../core/wire.js'
import { QUEUE_FULL_RETRY_S } from './runs.js'

/** HTTP status of each PsError code the server can meet; any other code is a 500. */
export const STATUS_OF: Partial<Record<PsErrorCode, number>> = {
  PS_USAGE: 400,
  PS_REQUEST_INVALID: 400,
  PS_WORKLOAD_INVALID: 400,
  PS_RECORDING_NAME_INVALID: 400,
  PS_HTTP_UNAUTHORIZED: 401,
  PS_HTTP_FORBIDDEN: 403,
  PS_HTTP_NOT_FOUND: 404,
  PS_RECORDING_NOT_FOUND: 404,
  PS_RUN_NOT_FOUND: 404,
  PS_LESSON_NOT_FOUND: 404,
  PS_WORKLOAD_UNSUPPORTED: 409,
  PS_RECORDING_UNAVAILABLE: 409,
  PS_RECORDING_NO_FRAMES: 409,
  PS_RECORDING_NO_INTERVALS: 409,
  PS_TRACE_NOT_READY: 409,
  PS_CMD_REJECTED: 502,
  PS_CMD_BAD_REPLY: 502,
  PS_GPU_FAILED: 502,
  PS_GPU_CHECKSUM: 502,
  PS_TRACE_INCOMPLETE: 502,
  PS_GPU_UNAVAILABLE: 503,
  PS_GPU_CANCELLED: 503,
  PS_SERIAL_DISCONNECTED: 503,
  PS_DEVICE_CLOSED: 503,
  PS_TWIN_EXITED: 503,
  PS_TWIN_HUNG: 503,
  PS_RUN_QUEUE_FULL: 503,
  PS_SERVER_CLOSING: 503,
  PS_CMD_TIMEOUT: 504,
  PS_WORKLOAD_TIMEOUT: 504,
  // nobody reads it (the client is gone): nginx's "client closed request", for logs and tests
  PS_RUN_CANCELLED: 499,
}

/** Retry-After (seconds) sent with these codes: the refusal is temporary. */
export const RETRY_AFTER_S: Partial<Record<PsErrorCode, number>> = { PS_RUN_QUEUE_FULL: QUEUE_FULL_RETRY_S }

/**
 * A PsError with what the HTTP answer needs beyond the code: details for the body (zod's tree
 * of a refused request body) and, where the code's usual status is too coarse, the status
 * (a request body over the limit is PS_REQUEST_INVALID too, but 413).
 */
export class ApiError extends PsError {
  readonly status: number | undefined
  readonly details: unknown
  constructor(code: PsErrorCode, message: string, opts: { status?: number; details?: unknown; cause?: unknown } = {}) {
    super(code, message, opts.cause === undefined ? undefined : { cause: opts.cause })
    this.name = 'ApiError'
    this.status = opts.status
    this.details = opts.details
  }
}

export const errorBody = (code: string, message: string, details?: unknown): ApiErrorBody => ({
  error: details === undefined ? { code, message } : { code, message, details },
})

export const statusOf = (code: PsErrorCode): number => STATUS_OF[code] ?? 500

/** Anything thrown → the status and body the client gets. Not a PsError: 500 PS_INTERNAL. */
export function toHttpError(err: unknown): { status: number; body: ApiErrorBody } {
  if (err instanceof ApiError) return { status: err.status ?? statusOf(err.code), body: errorBody(err.code, err.message, err.details) }
  if (isPsError(err)) return { status: statusOf(err.code), body: errorBody(err.code, err.message) }
  return { status: 500, body: errorBody('PS_INTERNAL', err instanceof Error ? err.message : String(err)) }
}

export function sendError(res: Response, err: unknown): void {
  const { status, body } = toHttpError(err)
  if (res.headersSent || res.destroyed) return // the client is gone (a cancelled run): nothing to answer
  const retry = isPsError(err) ? RETRY_AFTER_S[err.code] : undefined
  if (retry !== undefined) res.set('Retry-After', String(retry))
  res.status(status).json(body)
}

/** Express error handler of the API router: the last middleware, after the routes. */
export function apiErrorHandler(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  sendError(res, err)
}

/**
 * A failure while reading or parsing a request body (malformed JSON, a corrupt gzip stream,
 * too large, an unsupported charset or encoding) → PS_REQUEST_INVALID. The parser's own 4xx
 * status (413, 415) is kept; anything else it reports (a zlib error has no status of its own
 * worth trusting) is a 400: the client sent it, the server did not fail.
 */
export function bodyReadError(err: unknown): ApiError {
  const e = (typeof err === 'object' && err !== null ? err : {}) as { status?: unknown; type?: unknown; message?: unknown }
  const status = typeof e.status === 'number' && e.status >= 400 && e.status < 500 ? e.status : 400
  const message = typeof e.message === 'string' && e.message ? e.message : 'unreadable request body'
  return new ApiError('PS_REQUEST_INVALID', message, {
    status,
    cause: err,
    ...(typeof e.type === 'string' ? { details: { type: e.type } } : {}),
  })
}

/**
 * An error from express or its static file server (a malformed path, a missing file, a bad
 * range) carries its own 4xx `status`: kept, with a code saying whose fault it is. Anything
 * else passes through unchanged (a PsError keeps its code; the rest is a 500).
 */
export function clientHttpError(err: unknown): unknown {
  if (isPsError(err)) return err
  const e = (typeof err === 'object' && err !== null ? err : {}) as { status?: unknown; message?: unknown }
  if (typeof e.status !== 'number' || e.status < 400 || e.status >= 500) return err
  const message = typeof e.message === 'string' && e.message ? e.message : `HTTP ${e.status}`
  return new ApiError(e.status === 404 ? 'PS_HTTP_NOT_FOUND' : 'PS_REQUEST_INVALID', message, { status: e.status, cause: err })
}
