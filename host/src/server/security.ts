/**
 * Localhost security (docs/host-notes.md): a per-run token compared in constant time,
 * a Host allowlist against DNS rebinding and an Origin check for WebSocket upgrades.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { isIP } from 'node:net'
import { networkInterfaces } from 'node:os'
import { PsError } from '../core/errors.js'

/** the shortest token accepted when the server listens beyond loopback */
export const MIN_REMOTE_TOKEN_LENGTH = 16

/**
 * The page's policy, sent as a header on every response (the page's own meta tag cannot say
 * frame-ancestors): its scripts, styles and WebSocket from this server only, nothing inline,
 * never inside a frame.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** Headers on every response, errors and static files included. */
export function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY)
  res.setHeader('X-Frame-Options', 'DENY')
  res.setHeader('Referrer-Policy', 'no-referrer')
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin')
}

/** localhost, 127.0.0.0/8 and ::1 (also as [::1] or ::ffff:127.x): reachable from this machine only. */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
  if (h === 'localhost' || h === '::1') return true
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h
  return isIP(v4) === 4 && v4.startsWith('127.')
}

/** 0.0.0.0 or :: (every interface) */
export const isWildcard = (host: string): boolean => {
  const h = host.trim().toLowerCase()
  return h === '0.0.0.0' || h === '::' || h === '[::]'
}

/**
 * Beyond loopback anyone on the network can reach the API: a token a person typed must then be
 * long enough not to be guessed (the default random one is 43 characters).
 */
export function checkBinding(host: string, token: string): void {
  if (isLoopback(host)) return
  if (token.length < MIN_REMOTE_TOKEN_LENGTH) {
    throw new PsError(
      'PS_USAGE',
      `listening on ${host} (beyond this machine) needs a token of at least ${MIN_REMOTE_TOKEN_LENGTH} characters; --token has ${token.length} (or leave it out for a random one)`,
    )
  }
}

/** The addresses this machine answers on, for a wildcard binding: non-internal first. */
export function interfaceAddresses(family: 'IPv4' | 'IPv6' | 'any'): string[] {
  const out: { address: string; internal: boolean }[] = []
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      if (family !== 'any' && a.family !== family) continue
      if (a.family === 'IPv6' && a.scopeid) continue // link-local needs a zone id: not a usable URL host
      out.push({ address: a.address, internal: a.internal })
    }
  }
  return out.sort((a, b) => Number(a.internal) - Number(b.internal)).map((a) => a.address)
}

export const newToken = (): string => randomBytes(32).toString('base64url')

/** Constant-time comparison that does not leak the length either (both sides hashed first). */
export function tokenMatches(expected: string, given: string | undefined | null): boolean {
  if (typeof given !== 'string' || given.length === 0) return false
  const a = createHash('sha256').update(expected).digest()
  const b = createHash('sha256').update(given).digest()
  return timingSafeEqual(a, b)
}

/** `Authorization: Bearer <token>` → token, else undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header)
  return m?.[1]
}

/** Hostname part of a Host header value: `127.0.0.1:8080` → `127.0.0.1`, `[::1]:80` → `[::1]`. */
export function hostnameOf(host: string): string {
  const h = host.trim().toLowerCase()
  if (h.startsWith('[')) {
    const end = h.indexOf(']')
    return end < 0 ? h : h.slice(0, end + 1)
  }
  const colon = h.indexOf(':')
  return colon < 0 ? h : h.slice(0, colon)
}

/**
 * Host names a browser may use: the loopback names, the bound host, and for a wildcard binding
 * every address of this machine (`extra`), so that the URL printed for the network works.
 */
export function hostAllowlist(boundHost: string, extra: string[] = []): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]'])
  const add = (h: string) => {
    const b = h.trim().toLowerCase()
    if (b && !isWildcard(b)) names.add(b.includes(':') && !b.startsWith('[') ? `[${b}]` : b)
  }
  add(boundHost)
  for (const h of extra) add(h)
  return names
}

export function hostAllowed(allow: Set<string>, host: string | undefined): boolean {
  return typeof host === 'string' && host.length > 0 && allow.has(hostnameOf(host))
}

/**
 * A browser's Origin must be this very server: its host[:port] equal to the request's Host
 * and its hostname on the allowlist. Clients that send no Origin (CLI tools, node's ws) pass.
 */
export function originAllowed(allow: Set<string>, req: IncomingMessage): boolean {
  const origin = req.headers.origin
  if (origin === undefined) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
  const host = req.headers.host
  if (!host || url.host.toLowerCase() !== host.trim().toLowerCase()) return false
  return allow.has(url.hostname.toLowerCase())
}
