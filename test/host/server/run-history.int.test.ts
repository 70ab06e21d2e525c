/**
 * GET /api/runs and POST /api/compare on the real twin: each run's summary has its own latency
 * percentiles (the server reads the histograms with the baseline and the end snapshot and takes
 * the difference), the model matches the probe, and the comparison says why.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../../host/src/server/index.js'
import { packageRoot } from '../../../host/src/util/package-root.js'
import type { RunEntry } from '../../../host/src/core/run-summary.js'
import type { Comparison } from '../../../host/src/core/compare.js'

const twin = process.env.PCIE_SCOPE_TWIN ?? join(packageRoot(), 'build/twin/pcie-scope-twin')

describe('the run history on the twin', () => {
  let server: RunningServer | undefined
  afterAll(async () => {
    await server?.close()
  })

  it('summarises each run with its own latency percentiles and compares two', { timeout: 90_000 }, async () => {
    expect(existsSync(twin), 'the twin is not built: run `npm run build:twin`').toBe(true)
    server = await startServer({ twin: true, http: { host: '127.0.0.1', port: 0 }, gpu: false })
    const base = new URL(server.url).origin
    const auth = { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' }
    const post = (path: string, body: object) => fetch(`${base}/api/${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) })
    expect((await post('start', { periodMs: 100 })).status).toBe(200)
    for (const w of [
      { pattern: 'strided', bytes: 131072 },
      { pattern: 'merged-aligned', bytes: 131072 },
    ]) {
      expect((await post('run', w)).status).toBe(200)
    }
    const runs = ((await (await fetch(`${base}/api/runs`, { headers: auth })).json()) as { runs: RunEntry[] }).runs
    expect(runs.map((r) => r.key)).toEqual(['server:2', 'server:1'])
    const [merged, strided] = [runs[0]!.summary, runs[1]!.summary]
    expect(strided.requests.count).toBe(131072 / 32)
    expect(merged.requests.meanBytes).toBe(128)
    for (const s of [strided, merged]) {
      expect(s.model?.matchesProbe).toBe(true)
      // the run's own reads: the second run's histogram holds none of the first's
      expect(s.latencyNs.p50).not.toBeNull()
      expect(s.latencyNs.p50!).toBeLessThanOrEqual(s.latencyNs.p99!)
      expect(s.latencyNs.mean!).toBeGreaterThan(0)
      expect(s.inFlight.tagBudget).toBe(256)
      expect(s.limit.kind).not.toBe('none')
      expect(s.wire.efficiency).toBeCloseTo(s.requests.meanBytes! / (s.requests.meanBytes! + 20), 6)
    }
    // 128-B reads carry four times the payload of 32-B ones at about the same latency
    expect(merged.gbPerSecond).toBeGreaterThan(strided.gbPerSecond)
    const c = (await (await post('compare', { runs: ['server:1', 'server:2'] })).json()) as Comparison
    expect(c.sentences[0]).toMatch(/^server #2 \(merged-aligned 131072 B\) is [\d.]+× faster than server #1 \(strided 131072 B\)/)
  })
})
