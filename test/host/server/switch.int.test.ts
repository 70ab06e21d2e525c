/**
 * `serve --twin` in switch mode (the twin's default design) on the real twin: the host side's TAP_SNAPSHOT and TAP_HISTOGRAM
 * frames travel from the switch RTL's second probe through the firmware, the client and the
 * server to a WebSocket client, and the page's state pairs them with the GPU side's: the mean
 * latency differs by the switch's 8 clocks (4 each way).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../../host/src/server/index.js'
import { packageRoot } from '../../../host/src/util/package-root.js'
import { AppState } from '../../../web/state.js'
import { histogramTotal } from '../../../host/src/core/latency-histogram.js'
import { openWs, wsUrl } from './helpers.js'

const twin = process.env.PCIE_SCOPE_TWIN ?? join(packageRoot(), 'build/twin/pcie-scope-twin')

describe('serve --twin (switch mode, the default)', () => {
  let server: RunningServer | undefined
  afterAll(async () => {
    await server?.close()
  })

  it('forwards the host side to the page: 32 ns (8 clocks) between the two sides’ mean latency', { timeout: 60_000 }, async () => {
    expect(existsSync(twin), 'the twin is not built: run `npm run build:twin`').toBe(true)
    server = await startServer({ twin: true, http: { host: '127.0.0.1', port: 0 }, gpu: false })
    const base = new URL(server.url).origin
    const c = await openWs(wsUrl(base, server.token))
    const auth = { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' }
    // no --mode: the twin runs the switch, and the server says so
    const status = (await (await fetch(`${base}/api/status`, { headers: auth })).json()) as { twinMode: string }
    expect(status.twinMode).toBe('switch')
    expect((await fetch(`${base}/api/start`, { method: 'POST', headers: auth, body: '{"periodMs":100}' })).status).toBe(200)
    const run = await fetch(`${base}/api/run`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ pattern: 'strided', bytes: 65536 }),
    })
    expect(run.status).toBe(200)
    // the once-a-second histograms of both taps, with every read of the run in them
    const reads = 65536 / 32
    const complete = () => c.of('tap-histogram').filter((m) => m.histogram.kind === 'last' && histogramTotal(m.histogram.bins) === reads)
    await expect.poll(() => complete().length, { timeout: 20_000 }).toBeGreaterThan(0)
    await c.close()
    const tapSnapshots = c.of('snapshot').flatMap((m) => m.tapSnapshots ?? [])
    expect(tapSnapshots.length).toBeGreaterThan(0)
    expect(tapSnapshots.every((t) => t.tap === 'hostSide')).toBe(true)

    const state = new AppState(server.token)
    for (const m of c.messages) state.apply(m, Date.now())
    expect(state.twinMode).toBe('switch')
    expect(state.showHostSide).toBe(true)
    const cmp = state.hostSideComparison()
    expect(cmp).not.toBeNull()
    expect(cmp!.host.reads).toBe(reads) // the run is over: every read completed on both sides
    expect(cmp!.gpu.reads).toBe(cmp!.host.reads)
    expect(cmp!.meanDiffClocks).toBeCloseTo(8, 9)
    expect(cmp!.diff.meanNs).toBeCloseTo(32, 6)
    // the percentiles come from the newest host-side histogram of the last completion
    const newest = c
      .of('tap-histogram')
      .filter((m) => m.histogram.kind === 'last')
      .at(-1)!
    expect(cmp!.histogramSnapshotIndex).toBe(newest.histogram.snapshotIndex)
  })
})
