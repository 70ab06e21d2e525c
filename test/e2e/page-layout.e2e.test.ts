/**
 * The page as a bench instrument, in Chromium on the fake session: the demo loop switched from
 * the header, the run form beside the rate chart (one column on a narrow screen), the register
 * dump folded away, and a saved recording opened on the page like the live page, its exports
 * offered only where it holds what they need.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestPage, chartOf, hook, launchChromium, onFakeServer, root } from './page-harness.js'

const webRoot = join(root, 'build/e2e-web-layout')
const badge = (page: Page) => page.getByTestId('conn-state').getAttribute('data-state')
/** an element's box on the page (not the viewport: a click may have scrolled it) */
const box = (page: Page, id: string) =>
  page.locator(`#${id}`).evaluate((e) => {
    const r = e.getBoundingClientRect()
    const { scrollX, scrollY } = globalThis as unknown as { scrollX: number; scrollY: number }
    return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height }
  })

describe('the page as a bench instrument', () => {
  let browser: Browser
  beforeAll(async () => {
    await buildTestPage(webRoot)
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('switches the demo loop from the header', async () => {
    await onFakeServer(browser, webRoot, { runDelayMs: 100 }, async (page, server) => {
      await page.goto(server.url)
      const demo = page.getByTestId('btn-demo')
      await expect.poll(() => demo.textContent(), { timeout: 10_000 }).toBe('Stop demo')
      await demo.click()
      await expect.poll(() => demo.textContent(), { timeout: 10_000 }).toBe('Start demo')
      const runs = (await hook(page)).marks.length
      await page.waitForTimeout(800)
      expect((await hook(page)).marks.length).toBeLessThanOrEqual(runs + 1) // at most the run that was in flight
      const status = await fetch(new URL('/api/status', server.url), { headers: { authorization: `Bearer ${server.token}` } })
      expect(((await status.json()) as { demo: { enabled: boolean } }).demo.enabled).toBe(false)
      await demo.click()
      await expect.poll(() => demo.textContent(), { timeout: 10_000 }).toBe('Stop demo')
      await expect.poll(async () => (await hook(page)).marks.length, { timeout: 10_000 }).toBeGreaterThan(runs + 1)
    })
  })

  it('puts the run form beside the rate chart, one column at 420 px, and folds the register dump', async () => {
    await onFakeServer(browser, webRoot, {}, async (page, server) => {
      await page.goto(server.url)
      await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('live')
      const rate = await box(page, 'rate-card')
      const run = await box(page, 'run-card')
      expect(Math.abs(run.y - rate.y)).toBeLessThan(2) // the same row
      expect(run.x).toBeGreaterThan(rate.x + rate.width - 1)
      // the register dump is one click away, closed at first
      expect(await page.getByTestId('counters-table').isVisible()).toBe(false)
      await page.locator('#counters-details > summary').click()
      expect(await page.locator('#counters-details').getAttribute('open')).not.toBeNull()
      // (the table has rows, and so a size, once the first snapshot is drawn, which a loaded
      // machine may not have done yet)
      await expect.poll(() => page.getByTestId('counters-table').isVisible(), { timeout: 10_000 }).toBe(true)
      await expect.poll(() => page.getByTestId('counter-mrd128').count(), { timeout: 10_000 }).toBe(1)

      await page.setViewportSize({ width: 420, height: 900 })
      await page.waitForTimeout(300) // the charts resize on the next frames
      const narrowRate = await box(page, 'rate-card')
      const narrowRun = await box(page, 'run-card')
      expect(narrowRun.y).toBeGreaterThanOrEqual(narrowRate.y + narrowRate.height) // stacked
      expect(narrowRun.width).toBeLessThanOrEqual(420)
      // nothing wider than the screen
      const scrollWidth = await page.evaluate(
        () => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth,
      )
      expect(scrollWidth).toBeLessThanOrEqual(420)
    })
  })

  it("shows one run's latency: its reads alone, its percentiles", async () => {
    await onFakeServer(browser, webRoot, { runDelayMs: 300, switchMode: true }, async (page, server) => {
      await page.goto(server.url)
      // a finished run with a histogram before it and one after it (the fake sends them once a
      // second from its first second on; a run every 300 ms or more): the fifth
      await expect
        .poll(async () => (await hook(page)).marks.filter((m) => m.to !== undefined).length, { timeout: 30_000 })
        .toBeGreaterThanOrEqual(5)
      const run = (await hook(page)).marks.filter((m) => m.to !== undefined)[4]!
      await page.getByTestId('latency-of').selectOption(String(run.id))
      await expect
        .poll(async () => (await page.getByTestId('latency-caption').textContent()) ?? '', { timeout: 15_000 })
        .toMatch(
          new RegExp(`^run #${run.id} ${run.label.replace(/[+]/g, '\\+')}: [\\d,]+ reads completed between the probe's histograms at `),
        )
      const runReads = Number(
        /: ([\d,]+) reads/.exec((await page.getByTestId('latency-caption').textContent()) ?? '')![1]!.replace(/,/g, ''),
      )
      expect(await page.getByTestId('latency-caption').textContent()).not.toMatch(/histograms at the clear/)
      expect(runReads).toBeGreaterThan(0)
      expect(runReads).toBeLessThan((await hook(page)).latencyReads) // fewer than every read since the clear
      expect(await page.getByTestId('latency-p50').textContent()).toMatch(/^[\d.]+ (ns|µs)$/)
      await page.getByTestId('latency-of').selectOption('')
      await expect
        .poll(async () => (await page.getByTestId('latency-caption').textContent()) ?? '', { timeout: 5_000 })
        .toMatch(/since the clear/)
    })
  })

  it('opens a saved recording like the live page, and offers only the exports it can give', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ps-e2e-replay-'))
    try {
      await onFakeServer(browser, webRoot, { runDelayMs: 150, recordings: { dir, record: true } }, async (page, server) => {
        await page.goto(server.url)
        await expect
          .poll(async () => (await hook(page)).marks.filter((m) => m.to !== undefined).length, { timeout: 30_000 })
          .toBeGreaterThanOrEqual(3)
        // close the recording: it holds what the page saw so far
        await page.getByTestId('btn-record').click()
        await expect.poll(() => page.getByTestId('btn-record').textContent(), { timeout: 10_000 }).toBe('Record')
        const row = page.locator('[data-testid^="recording-"]').first()
        const name = ((await row.getAttribute('data-testid')) ?? '').slice('recording-'.length)

        // no frames and no interval records in it: pcapng and VCD are disabled, and say why
        const pcapng = page.getByTestId(`download-${name}-pcapng`)
        const vcd = page.getByTestId(`download-${name}-vcd`)
        expect(await pcapng.isDisabled()).toBe(true)
        expect(await pcapng.getAttribute('title')).toMatch(/no raw frames/)
        expect(await vcd.isDisabled()).toBe(true)
        expect(await vcd.getAttribute('title')).toMatch(/no interval records/)
        expect(await page.getByTestId(`download-${name}-csv`).isDisabled()).toBe(false)

        // the demo goes on live; the recording opens as it was
        const recordedMarks = (await hook(page)).marks.filter((m) => m.to !== undefined).map((m) => m.label)
        await page.getByTestId(`open-${name}`).click()
        await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('replay')
        expect(await page.getByTestId('conn-state').textContent()).toBe(`saved recording: ${name}`)
        expect(await page.getByTestId('btn-live').isVisible()).toBe(true)
        // the header names the recording; the device's controls wait for Back to live
        await expect
          .poll(async () => (await page.getByTestId('source').textContent()) ?? '', { timeout: 5_000 })
          .toMatch(new RegExp(`^${name} \\(saved\\)`))
        expect(await page.getByTestId('btn-clear').isDisabled()).toBe(true)
        const shown = await hook(page)
        expect(shown.ratePoints).toBeGreaterThan(3)
        expect(shown.marks.length).toBeGreaterThanOrEqual(3)
        expect(shown.marks.map((m) => m.label)).toEqual(expect.arrayContaining(recordedMarks.slice(0, 3)))
        // every run labelled on the replayed chart, and its list in the run card
        await expect
          .poll(async () => new Set((await chartOf(page, 'rate-chart')).runLabels.map((l) => l.id)).size, { timeout: 5_000 })
          .toBe(shown.marks.length)
        await page.getByTestId('history-demo').check()
        const finished = shown.marks.filter((m) => m.to !== undefined).length
        await expect.poll(async () => page.locator('#run-history tbody tr').count(), { timeout: 5_000 }).toBe(finished)
        // the device's messages wait: nothing changes while the recording is shown
        await page.waitForTimeout(700)
        expect((await hook(page)).snapshots).toBe(shown.snapshots)

        // zoom to one of its runs works as live
        await page.getByTestId('run-zoom').selectOption(String(shown.marks[1]!.id))
        await expect
          .poll(async () => (await page.getByTestId('range-figures').textContent()) ?? '', { timeout: 5_000 })
          .toMatch(/^selected .* requests/)

        await page.getByTestId('btn-live').click()
        await expect.poll(() => badge(page), { timeout: 10_000 }).toBe('live')
        expect(await page.getByTestId('btn-live').isVisible()).toBe(false)
        expect(await page.getByTestId('btn-clear').isDisabled()).toBe(false)
        await expect.poll(async () => (await hook(page)).snapshots, { timeout: 10_000 }).toBeGreaterThan(shown.snapshots)
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
