/**
 * Localhost security (docs/host-notes.md): a per-run token compared in constant time,
 * a Host allowlist against DNS rebinding and an Origin check for WebSocket upgrades.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

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

export function hostAllowlist(boundHost: string): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]'])
  const b = boundHost.trim().toLowerCase()
  if (b && b !== '0.0.0.0' && b !== '::') names.add(b.includes(':') && !b.startsWith('[') ? `[${b}]` : b)
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
