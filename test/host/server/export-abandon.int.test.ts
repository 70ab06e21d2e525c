/**
 * Downloads that the client abandons mid-body: the real server on a loopback port streams a
 * recording's text exports, each client destroys its socket after the first bytes, and the
 * server's open descriptors must come back to where they were (no segment file left open behind
 * a response that will never drain).
 */
import { readdirSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { IntervalRecord } from '../../../host/src/core/probe.js'
import { newWriter, probeInfo, removeRoots, snap, tempRoot } from '../recording/fixtures.js'
import { closeServers, serve, TOKEN } from './helpers.js'

afterEach(async () => {
  await closeServers()
  removeRoots()
})

const DOWNLOADS = 100
const FORMATS = ['csv', 'jsonl', 'perfetto', 'vcd'] as const

/** this process's open descriptors (the server runs in it) */
const openFds = (): number => readdirSync('/proc/self/fd').length

/** A recording whose every text export runs to megabytes: more than one response's socket buffers hold. */
const bigRecording = (dir: string): void => {
  const w = newWriter(dir)
  w.append({ t: 'device', at: 1_700_000_000_000, event: 'connect', info: probeInfo(), error: null })
  for (let i = 0; i < 3000; i++) {
    const s = snap(i, {
      timestamp: 10_000 + 1000 * i,
      cycles: 1000 * i,
      mrd128: 4 * i,
      mrdBytes: 512 * i,
      cpldCount: 4 * i,
      cpldBytes: 512 * i,
    })
    w.append({ t: 'snapshot', at: s.receivedAt, snapshot: s })
    const records: IntervalRecord[] = Array.from({ length: 16 }, (_, k) => ({
      ts: 10_000 + 1000 * i + 60 * k,
      cycles: 60,
      mrdCount: k,
      mrdBytes: 128 * k,
      cpldCount: k,
      cpldBytes: 128 * k,
      occSum: 60 * k,
      occPeak: k,
      latSum: 250 * k,
      latCount: k,
    }))
    const at = 1_700_000_000_000 + i
    w.append({ t: 'interval', at, batch: { seq: i, firstIndex: 16 * i, dropped: 0, overflow: 0, records, receivedAt: at } })
  }
  w.close()
}

/** GET a download and destroy the socket as soon as the first body bytes arrive; resolves once the socket is closed. */
const abandon = (base: string, path: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${path}: HTTP ${res.statusCode}`))
      res.once('data', () => req.destroy())
    })
    req.on('error', () => undefined) // the destroy itself
    req.on('close', () => resolve())
    req.end()
  })

const settle = async (target: number, ms: number): Promise<number> => {
  const until = Date.now() + ms
  while (openFds() > target && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
  return openFds()
}

describe('abandoned export downloads', () => {
  it(`${DOWNLOADS} downloads destroyed mid-body leave no descriptor open`, async () => {
    const root = tempRoot()
    bigRecording(join(root, 'big'))
    const { base } = await serve({ recordings: { dir: root, record: false } })
    await abandon(base, '/api/recordings/big/export?format=jsonl') // the first request's one-time descriptors
    const before = await settle(0, 300)
    for (let i = 0; i < DOWNLOADS; i++) await abandon(base, `/api/recordings/big/export?format=${FORMATS[i % FORMATS.length]}`)
    // a few descriptors come and go with the loop's own work; a leak is one per download
    const after = await settle(before + 5, 3000)
    expect(after - before).toBeLessThan(10)
  })
})
