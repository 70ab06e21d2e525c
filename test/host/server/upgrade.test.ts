import type { IncomingMessage } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { statusOf } from '../../../host/src/server/http-errors.js'
import { hostAllowlist } from '../../../host/src/server/security.js'
import { upgradeRefusal } from '../../../host/src/server/upgrade.js'
import { closeServers, openWs, serve, TOKEN, wsUrl } from './helpers.js'

afterEach(closeServers)

describe('WebSocket upgrade', () => {
  it('refuses a bad token (401), a foreign Origin or Host (403) before the upgrade', async () => {
    const { base } = await serve()
    await expect(openWs(wsUrl(base, undefined))).rejects.toMatchObject({ status: 401 })
    await expect(openWs(wsUrl(base, 'nope'))).rejects.toMatchObject({ status: 401 })
    await expect(openWs(wsUrl(base, TOKEN), { origin: 'http://evil.example' })).rejects.toMatchObject({ status: 403 })
    await expect(openWs(wsUrl(base, TOKEN), { origin: 'http://localhost:1' })).rejects.toMatchObject({ status: 403 })
    await expect(openWs(wsUrl(base, TOKEN), { headers: { host: 'evil.example' } })).rejects.toMatchObject({ status: 403 })
    const ok = await openWs(wsUrl(base, TOKEN), { origin: base })
    await ok.close()
  })
})

describe('upgradeRefusal', () => {
  const allow = hostAllowlist('127.0.0.1')
  const opts = { token: 'tok', allow }
  const req = (url: string, headers: Record<string, string> = { host: '127.0.0.1:9000' }) =>
    ({ url, headers }) as unknown as IncomingMessage
  const refusal = (r: IncomingMessage) => {
    const e = upgradeRefusal(r, opts)
    return e && { code: e.code, status: statusOf(e.code) }
  }

  it('lets /ws with the token, an allowed Host and no or a same Origin through', () => {
    expect(upgradeRefusal(req('/ws?token=tok'), opts)).toBeUndefined()
    expect(upgradeRefusal(req('/ws?token=tok', { host: '127.0.0.1:9000', origin: 'http://127.0.0.1:9000' }), opts)).toBeUndefined()
  })

  it('refuses with the code whose status the client sees', () => {
    expect(refusal(req('/ws?token=nope'))).toEqual({ code: 'PS_HTTP_UNAUTHORIZED', status: 401 })
    expect(refusal(req('/ws'))).toEqual({ code: 'PS_HTTP_UNAUTHORIZED', status: 401 })
    expect(refusal(req('/other?token=tok'))).toEqual({ code: 'PS_HTTP_NOT_FOUND', status: 404 })
    expect(refusal(req('/ws?token=tok', { host: 'evil.example' }))).toEqual({ code: 'PS_HTTP_FORBIDDEN', status: 403 })
    expect(refusal(req('/ws?token=tok', { host: '127.0.0.1:9000', origin: 'http://evil.example' }))).toEqual({
      code: 'PS_HTTP_FORBIDDEN',
      status: 403,
    })
    expect(refusal(req('//['))).toEqual({ code: 'PS_REQUEST_INVALID', status: 400 })
  })

  it('checks Host and Origin before the path and the token', () => {
    expect(refusal(req('/nope', { host: 'evil.example' }))?.status).toBe(403)
  })
})
