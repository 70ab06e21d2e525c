import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import {
  bearerToken,
  checkBinding,
  hostAllowed,
  hostAllowlist,
  hostnameOf,
  interfaceAddresses,
  isLoopback,
  isWildcard,
  MIN_REMOTE_TOKEN_LENGTH,
  originAllowed,
  tokenMatches,
} from '../../../host/src/server/security.js'

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

describe('binding rules', () => {
  it('tells loopback from the network', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopback(h), h).toBe(true)
    for (const h of ['0.0.0.0', '::', '192.168.1.5', 'fe80::1', 'example.test', '128.0.0.1']) expect(isLoopback(h), h).toBe(false)
    expect(isWildcard('0.0.0.0') && isWildcard('::') && isWildcard('[::]')).toBe(true)
    expect(isWildcard('127.0.0.1')).toBe(false)
  })

  it('needs a token of at least 16 characters beyond loopback, any token on it', () => {
    expect(() => checkBinding('127.0.0.1', 'abc')).not.toThrow()
    expect(() => checkBinding('0.0.0.0', 'x'.repeat(MIN_REMOTE_TOKEN_LENGTH))).not.toThrow()
    expect(() => checkBinding('192.168.1.5', 'x'.repeat(MIN_REMOTE_TOKEN_LENGTH - 1))).toThrow(
      expect.objectContaining({ code: 'PS_USAGE', message: expect.stringContaining('at least 16 characters') }),
    )
  })

  it('a wildcard binding allows the Host names of this machine’s addresses', () => {
    const allow = hostAllowlist('0.0.0.0', ['192.168.1.5', 'fd00::2'])
    expect(hostAllowed(allow, '192.168.1.5:8737')).toBe(true)
    expect(hostAllowed(allow, '[fd00::2]:8737')).toBe(true)
    expect(hostAllowed(allow, '0.0.0.0:8737')).toBe(false)
    expect(interfaceAddresses('IPv4')).toContain('127.0.0.1')
  })
})
