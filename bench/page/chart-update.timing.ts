/**
 * The rate chart's update cost in Chromium (bench/page-timing.mjs runs this): the page's full
 * history (3 lines of 600 points) updated while the fake session streams a snapshot every 10 ms,
 * each `chart.update('none')` timed in the page (web/update-timing.ts); the figures go to
 * build/e2e/chart-update.json. Fails when the fastest tenth of the updates exceeds the budget.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiPost, buildTestPage, hook, launchChromium, onFakeServer, root, updateTimings } from '../../test/e2e/page-harness.js'

const webRoot = join(root, 'build/e2e-web-time')
/** the chart-update budget at 600 points */
const UPDATE_BUDGET_MS = 3

describe('the rate chart update at 600 points', () => {
  let browser: Browser
  beforeAll(async () => {
    await buildTestPage(webRoot)
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
  })

  it(`updates a time chart of 600 points in at most ${UPDATE_BUDGET_MS} ms while streaming`, async () => {
    await onFakeServer(browser, webRoot, { demo: true, runDelayMs: 100 }, async (page, server) => {
      await page.goto(server.url)
      await expect.poll(async () => (await hook(page)).live, { timeout: 10_000 }).toBe('live')
      // a snapshot every 10 ms: the 600 points of the rate chart fill in 6 s
      expect((await apiPost(server, 'start', { periodMs: 10 })).status).toBe(200)
      await expect.poll(async () => (await hook(page)).ratePoints, { timeout: 90_000, interval: 250 }).toBeGreaterThanOrEqual(600)
      // streaming on, 40 updates at 600 points (3 lines of 600 each)
      const fullUpdates = async () => {
        const t = (await updateTimings(page))['rate']!
        return t.ms.filter((_, i) => t.points[i]! >= 3 * 600)
      }
      await expect.poll(async () => (await fullUpdates()).length, { timeout: 60_000, interval: 500 }).toBeGreaterThanOrEqual(40)
      const full = await fullUpdates()
      const sorted = [...full].sort((a, b) => a - b)
      const q = (f: number) => sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))]!
      const figure = {
        chart: 'rate',
        points: 600,
        lines: 3,
        updates: full.length,
        p10Ms: q(0.1),
        p25Ms: q(0.25),
        medianMs: q(0.5),
        p95Ms: q(0.95),
        maxMs: sorted.at(-1)!,
        loadAverage: loadavg()[0],
      }
      mkdirSync(join(root, 'build/e2e'), { recursive: true })
      writeFileSync(join(root, 'build/e2e/chart-update.json'), JSON.stringify(figure, null, 2) + '\n')
      process.stdout.write(`chart update at 600 points: ${JSON.stringify(figure)}\n`)
      // performance.now() reads wall time: on a shared machine an update preempted by other
      // processes takes longer than its own work. The fastest tenth within the budget shows the
      // work fits in it; the quartile, median, p95 and the load are reported beside it
      expect(figure.p10Ms).toBeLessThanOrEqual(UPDATE_BUDGET_MS)
    })
  })
})
