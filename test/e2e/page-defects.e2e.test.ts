/**
 * Defects of the page, each shown in Chromium on the fake session as a user met it: a run's
 * late baseline taken for a firmware restart (the time charts wiped), the latency chart's
 * percentile labels drawn over each other on bars from 0, an idle link's payload axis in tenths
 * of a byte per second and its latency axis invented ("1000000.0 µs"), a band named for a run the
 * stopped counters never saw, a download's failure notice outliving a later success, and a CSV's
 * latency minimum of 18446744073709552000 where nothing completed.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sleep } from '../../host/src/util/sleep.js'
import { buildTestPage, chartOf, hook, launchChromium, onFakeServer, root } from './page-harness.js'

const webRoot = join(root, 'build/e2e-web-defects')
const badge = (page: Page) => page.getByTestId('conn-state').getAttribute('data-state')
const runResult = async (page: Page) => (await page.getByTestId('run-result').textContent()) ?? ''

/** What the latency chart's percentile labels drew: canvas fillText calls, recorded before the page's scripts run. */
const RECORD_LABELS = `
  globalThis.__labels = []
  const fill = CanvasRenderingContext2D.prototype.fillText
  CanvasRenderingContext2D.prototype.fillText = function (text, x, y, maxWidth) {
    const t = String(text)
    if (this.canvas.id === 'latency-chart' && /^(first|last) p(50|99) /.test(t)) {
      const m = this.measureText(t)
      globalThis.__labels.push({ text: t, x, y, w: m.width, h: m.fontBoundingBoxAscent + m.fontBoundingBoxDescent })
    }
    return fill.call(this, text, x, y, maxWidth)
  }
`
interface Label {
  text: string
  x: number
  y: number
  w: number
  h: number
}
const labels = (page: Page): Promise<Label[]> => page.evaluate(() => (globalThis as unknown as { __labels: Label[] }).__labels)
const overlap = (a: Label, b: Label) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h

describe('page defects in Chromium', () => {
  let browser: Browser
  beforeAll(async () => {
    await buildTestPage(webRoot)
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('keeps the time charts and run bands when a run’s baseline arrives after a newer periodic snapshot', async () => {
    await onFakeServer(browser, webRoot, { demo: false, runDelayMs: 100 }, async (page, server, session) => {
      await page.goto(server.url)
      await page.getByTestId('btn-start').click()
      await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('live')
      await page.getByTestId('run-pattern').selectOption('strided')
      await page.getByTestId('run-button').click()
      await expect.poll(() => runResult(page), { timeout: 10_000 }).toMatch(/\(manual\) strided/)
      await expect.poll(async () => (await hook(page)).ratePoints, { timeout: 10_000 }).toBeGreaterThan(5)
      const before = await hook(page)
      expect(before.marks.map((m) => m.label)).toEqual(['strided'])

      // the next run's on-demand baseline reaches the page only after a periodic snapshot taken
      // later has: its clock is behind the newest one's, yet the firmware did not restart
      const client = session.client
      const take = client.snapshot.bind(client)
      let late = true
      client.snapshot = async () => {
        const baseline = await take()
        if (late) {
          late = false
          client.tick()
          await sleep(400) // past the hub's batch: the newer snapshot is on the page first
        }
        return baseline
      }
      await page.getByTestId('run-pattern').selectOption('merged-aligned')
      await page.getByTestId('run-button').click()
      await expect.poll(() => runResult(page), { timeout: 10_000 }).toMatch(/\(manual\) merged-aligned/)
      expect(late).toBe(false)
      const after = await hook(page)
      expect(after.marks.map((m) => m.label)).toEqual(['strided', 'merged-aligned'])
      expect(after.ratePoints).toBeGreaterThanOrEqual(before.ratePoints)
    })
  })

  it('draws the latency bars over the bins holding reads, the four p50 / p99 labels apart', async () => {
    await onFakeServer(browser, webRoot, { runDelayMs: 150, switchMode: true }, async (page, server) => {
      await page.addInitScript({ content: RECORD_LABELS })
      await page.goto(server.url)
      // every fake read takes 1008 ns: all four percentiles fall within one bar
      await expect.poll(async () => (await hook(page)).latencyReads, { timeout: 20_000 }).toBeGreaterThan(0)
      await expect.poll(async () => (await labels(page)).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4)
      const drawn = (await labels(page)).slice(-4) // the last frame's
      expect(drawn.map((l) => l.text.split(' ').slice(0, 2).join(' '))).toEqual(['first p50', 'first p99', 'last p50', 'last p99'])
      for (const l of drawn) {
        const ns = Number(/ (\d+) ns$/.exec(l.text)?.[1])
        expect(ns, l.text).toBeGreaterThan(950)
        expect(ns, l.text).toBeLessThan(1050)
      }
      for (const [i, a] of drawn.entries())
        for (const b of drawn.slice(i + 1)) expect(overlap(a, b), `${a.text} over ${b.text}`).toBe(false)
      // the bars span the reads' octave or so, not 0 ns up to the longest bin
      const ticks = (await chartOf(page, 'latency-chart')).ticks['x'] ?? []
      expect(ticks.length).toBeGreaterThan(0)
      for (const t of ticks)
        for (const ns of t.split('–').map(Number)) {
          expect(ns, t).toBeGreaterThanOrEqual(500)
          expect(ns, t).toBeLessThanOrEqual(2000)
        }
    })
  })

  it('reads an idle link’s zero rates on axes of whole requests and bytes, and invents no latency axis', async () => {
    await onFakeServer(browser, webRoot, { demo: false }, async (page, server, session) => {
      // the tracker counts its clocks as the probe's does: 0 reads in flight, and no read completes
      const client = session.client
      const tick = client.tick.bind(client)
      client.tick = (cycles = 25_000_000) => {
        client.counters.trackerCycles += cycles
        return tick(cycles)
      }
      await page.goto(server.url)
      await page.getByTestId('btn-start').click()
      // counting, and nothing runs: every rate point is 0
      await expect.poll(async () => (await hook(page)).ratePoints, { timeout: 10_000 }).toBeGreaterThan(2)
      expect((await hook(page)).payloadPerSec).toBe(0)
      await expect
        .poll(async () => {
          const { ticks } = await chartOf(page, 'rate-chart')
          return [ticks['y'], ticks['y1']]
        })
        .toEqual([
          ['0', '1'],
          ['0 B/s', '1 B/s'],
        ])
      // no read completed: the mean latency axis has no point, so no invented 0..1 µs ticks ("1000000.0 µs")
      const inflight = await chartOf(page, 'inflight-chart')
      expect(inflight.ticks['y']!.length).toBeGreaterThan(0)
      expect(inflight.ticks['y1']).toEqual([])
    })
  })

  it('names no band for a run made while the counters are stopped, yet lists the run', async () => {
    await onFakeServer(browser, webRoot, { demo: false, runDelayMs: 100 }, async (page, server) => {
      await page.goto(server.url)
      await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('stopped')
      await page.getByTestId('run-pattern').selectOption('strided')
      await page.getByTestId('run-button').click()
      await expect.poll(() => runResult(page), { timeout: 10_000 }).toMatch(/#(\d+) \(manual\) strided/)
      const id = Number(/#(\d+) \(manual\)/.exec(await runResult(page))![1])
      expect((await hook(page)).marks).toEqual([])
      expect((await chartOf(page, 'rate-chart')).runLabels).toEqual([])
      await expect
        .poll(async () => (await page.getByTestId(`run-history-${id}`).textContent()) ?? '', { timeout: 5_000 })
        .toMatch(/strided/)
      // counting, the next run has its band
      await page.getByTestId('btn-start').click()
      await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('live')
      await page.getByTestId('run-button').click()
      await expect.poll(async () => (await hook(page)).marks.map((m) => m.label), { timeout: 10_000 }).toEqual(['strided'])
    })
  })

  it('clears a download’s failure notice when a later download succeeds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ps-e2e-defects-'))
    try {
      await onFakeServer(browser, webRoot, { demo: true, recordings: { dir, record: true } }, async (page, server) => {
        await page.goto(server.url)
        await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('live')
        await page.getByTestId('btn-recordings').click()
        const row = page.locator('[data-testid^="recording-"]').first()
        await expect.poll(async () => (await row.textContent()) ?? '', { timeout: 10_000 }).toMatch(/\(this session\)/)
        const name = ((await row.getAttribute('data-testid')) ?? '').slice('recording-'.length)
        const csv = page.getByTestId(`download-${name}-csv`)

        // the first try fails on the server's side
        const exportUrl = '**/api/recordings/*/export?format=csv'
        await page.route(exportUrl, (route) =>
          route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'PS_INTERNAL', message: 'disk full (test)' } }),
          }),
        )
        await csv.click()
        await expect
          .poll(async () => (await page.getByTestId('notice').textContent()) ?? '', { timeout: 10_000 })
          .toMatch(/^download failed: /)
        await page.unroute(exportUrl)

        // the second succeeds: the notice goes with it
        const [download] = await Promise.all([page.waitForEvent('download'), csv.click()])
        expect(download.suggestedFilename()).toBe(`${name}.csv`)
        await expect.poll(async () => (await page.getByTestId('notice').textContent()) ?? '', { timeout: 5_000 }).toBe('')
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
  it('downloads a CSV whose latency minimum is empty while nothing completed, not 18446744073709552000', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ps-e2e-defects-'))
    try {
      await onFakeServer(browser, webRoot, { demo: false, recordings: { dir, record: true } }, async (page, server, session) => {
        // what the probe holds in LAT_*_MIN while LAT_*_COUNT is 0: all ones, 18446744073709552000 as a number
        session.client.counters.latFirstMin = 2 ** 64 - 1
        session.client.counters.latLastMin = 2 ** 64 - 1
        await page.goto(server.url)
        await page.getByTestId('btn-start').click()
        await expect.poll(async () => (await hook(page)).ratePoints, { timeout: 10_000 }).toBeGreaterThan(2)
        expect(await page.locator('body').textContent()).not.toMatch(/1844674407370955|e\+1\d/)
        await page.getByTestId('btn-recordings').click()
        const row = page.locator('[data-testid^="recording-"]').first()
        await expect.poll(async () => (await row.textContent()) ?? '', { timeout: 10_000 }).toMatch(/\(this session\)/)
        const name = ((await row.getAttribute('data-testid')) ?? '').slice('recording-'.length)
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`download-${name}-csv`).click()])
        const [header, ...rows] = readFileSync((await download.path())!, 'utf8')
          .trimEnd()
          .split('\n')
        const columns = header!.split(',')
        expect(rows.length).toBeGreaterThan(0)
        for (const r of rows) {
          const cell = (c: string) => r.split(',')[columns.indexOf(c)]
          expect(cell('LAT_LAST_COUNT')).toBe('0')
          expect([cell('LAT_FIRST_MIN'), cell('LAT_LAST_MIN')]).toEqual(['', ''])
        }
        expect(rows.join('\n')).not.toContain('18446744073709552000')
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
