import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { bearerToken, hostAllowed, hostAllowlist, hostnameOf, originAllowed, tokenMatches } from '../../../host/src/server/security.js'

describe('security helpers', () => {
  it('compares tokens in constant time and rejects empty ones', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true)
    expect(tokenMatches('abc', 'abd')).toBe(false)
    expect(tokenMatches('abc', 'abcd')).toBe(false)
    expect(tokenMatches('abc', '')).toBe(false)
    expect(tokenMatches('abc', null)).toBe(false)
  })
  it('parses bearer headers', () => {
    expect(bearerToken('Bearer xyz')).toBe('xyz')
    expect(bearerToken('bearer xyz')).toBe('xyz')
    expect(bearerToken('Basic xyz')).toBeUndefined()
    expect(bearerToken(undefined)).toBeUndefined()
  })
  it('checks Host against localhost names and the bound host', () => {
    expect(hostnameOf('[::1]:8080')).toBe('[::1]')
    expect(hostnameOf('LocalHost:80')).toBe('localhost')
    const allow = hostAllowlist('192.168.1.5')
    expect(hostAllowed(allow, '192.168.1.5:8080')).toBe(true)
    expect(hostAllowed(allow, 'localhost')).toBe(true)
    expect(hostAllowed(allow, 'attacker.test')).toBe(false)
    expect(hostAllowed(allow, undefined)).toBe(false)
    expect(hostAllowlist('0.0.0.0').has('0.0.0.0')).toBe(false)
    expect(hostAllowlist('::1').has('[::1]')).toBe(true)
  })
  it('accepts only a same-origin Origin on upgrade', () => {
    const allow = hostAllowlist('127.0.0.1')
    const req = (origin: string | undefined, host = '127.0.0.1:9000') => ({ headers: { origin, host } }) as unknown as IncomingMessage
    expect(originAllowed(allow, req(undefined))).toBe(true)
    expect(originAllowed(allow, req('http://127.0.0.1:9000'))).toBe(true)
    expect(originAllowed(allow, req('http://127.0.0.1:9001'))).toBe(false)
    expect(originAllowed(allow, req('http://evil.test:9000', 'evil.test:9000'))).toBe(false)
    expect(originAllowed(allow, req('null'))).toBe(false)
    expect(originAllowed(allow, req('file://x'))).toBe(false)
  })
})
