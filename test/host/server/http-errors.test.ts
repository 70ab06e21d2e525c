import { describe, expect, it } from 'vitest'
import { PsError, type PsErrorCode } from '../../../host/src/core/errors.js'
import {
  ApiError,
  bodyReadError,
  clientHttpError,
  errorBody,
  STATUS_OF,
  statusOf,
  toHttpError,
} from '../../../host/src/server/http-errors.js'

describe('PsError code → HTTP status', () => {
  it('maps each code the server meets to its status', () => {
    expect(STATUS_OF).toEqual({
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
      PS_RUN_CANCELLED: 499,
    })
  })

  it('answers 500 for a code it does not list', () => {
    for (const code of ['PS_INTERNAL', 'PS_FRAME_CRC', 'PS_TWIN_START'] as PsErrorCode[]) expect(statusOf(code), code).toBe(500)
  })
})

describe('toHttpError', () => {
  it('gives a PsError its code, message and the status of its code, without details', () => {
    expect(toHttpError(new PsError('PS_TWIN_EXITED', 'gone'))).toEqual({
      status: 503,
      body: { error: { code: 'PS_TWIN_EXITED', message: 'gone' } },
    })
  })

  it('keeps an ApiError status and details', () => {
    const e = new ApiError('PS_REQUEST_INVALID', 'too big', { status: 413, details: { type: 'entity.too.large' } })
    expect(toHttpError(e)).toEqual({
      status: 413,
      body: { error: { code: 'PS_REQUEST_INVALID', message: 'too big', details: { type: 'entity.too.large' } } },
    })
    expect(toHttpError(new ApiError('PS_HTTP_NOT_FOUND', 'no'))).toEqual({
      status: 404,
      body: { error: { code: 'PS_HTTP_NOT_FOUND', message: 'no' } },
    })
  })

  it('turns anything else into 500 PS_INTERNAL', () => {
    expect(toHttpError(new TypeError('boom'))).toEqual({ status: 500, body: { error: { code: 'PS_INTERNAL', message: 'boom' } } })
    expect(toHttpError('text')).toEqual({ status: 500, body: { error: { code: 'PS_INTERNAL', message: 'text' } } })
  })

  it('errorBody leaves details out unless given', () => {
    expect(errorBody('PS_X', 'm')).toEqual({ error: { code: 'PS_X', message: 'm' } })
    expect(errorBody('PS_X', 'm', null)).toEqual({ error: { code: 'PS_X', message: 'm', details: null } })
  })
})

describe('bodyReadError', () => {
  it('is PS_REQUEST_INVALID, keeping the parser 4xx status and type', () => {
    const tooLarge = Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large' })
    const e = bodyReadError(tooLarge)
    expect(e).toBeInstanceOf(PsError)
    expect(e).toMatchObject({
      code: 'PS_REQUEST_INVALID',
      status: 413,
      message: 'request entity too large',
      details: { type: 'entity.too.large' },
      cause: tooLarge,
    })
  })

  it('is a 400 for a failure without a usable 4xx status (a zlib error), never a 500', () => {
    const zlib = Object.assign(new Error('incorrect header check'), { code: 'Z_DATA_ERROR' })
    expect(toHttpError(bodyReadError(zlib))).toEqual({
      status: 400,
      body: { error: { code: 'PS_REQUEST_INVALID', message: 'incorrect header check' } },
    })
    expect(bodyReadError(Object.assign(new Error('x'), { status: 500 })).status).toBe(400)
    expect(bodyReadError(undefined)).toMatchObject({ status: 400, message: 'unreadable request body' })
  })
})

describe('clientHttpError', () => {
  it("keeps a static server's own 4xx status with a code saying whose fault it is", () => {
    const missing = clientHttpError(Object.assign(new Error('Not Found'), { status: 404 }))
    expect(toHttpError(missing)).toEqual({ status: 404, body: { error: { code: 'PS_HTTP_NOT_FOUND', message: 'Not Found' } } })
    const range = clientHttpError(Object.assign(new Error('Range Not Satisfiable'), { status: 416 }))
    expect(toHttpError(range).status).toBe(416)
    expect(toHttpError(range).body.error.code).toBe('PS_REQUEST_INVALID')
  })

  it('leaves PsErrors and server faults alone: a 5xx status or none stays a 500', () => {
    const ps = new PsError('PS_TWIN_EXITED', 'gone')
    expect(clientHttpError(ps)).toBe(ps)
    expect(toHttpError(clientHttpError(Object.assign(new Error('EIO'), { status: 500 }))).status).toBe(500)
    expect(toHttpError(clientHttpError(new Error('bug'))).status).toBe(500)
  })
})
