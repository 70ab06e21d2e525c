/**
 * The time charts as a bench instrument, in Chromium on the fake session: every run named on the
 * time axis, zoom (wheel), pan (shift-drag), a selected stretch's figures, zoom to a run (its
 * band, or the list), reset. What a chart update costs is bench/page-timing.mjs's to measure.
 */
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestPage, chartOf, hook, launchChromium, onFakeServer, root } from './page-harness.js'

const webRoot = join(root, 'build/e2e-web-time')

const plot = async (page: Page, canvas: string) => {
  const box = (await page.getByTestId(canvas).boundingBox())!
  // the middle of the plot, clear of the axes
  return { x: box.x, y: box.y, w: box.width, h: box.height, midY: box.y + box.height * 0.55 }
}
const span = (r: { min: number; max: number }) => r.max - r.min

describe('time charts in Chromium', () => {
  let browser: Browser
  beforeAll(async () => {
    await buildTestPage(webRoot)
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('names every run in view, zooms, pans, selects a stretch, zooms to a run and resets', async () => {
    await onFakeServer(browser, webRoot, { runDelayMs: 200 }, async (page, server) => {
      await page.goto(server.url)
      await expect
        .poll(async () => (await hook(page)).marks.filter((m) => m.to !== undefined).length, { timeout: 30_000 })
        .toBeGreaterThanOrEqual(4)

      // every run whose band is in view has a label drawn (its name, or its number where crowded)
      await expect
        .poll(async () => {
          const c = await chartOf(page, 'rate-chart')
          const inView = (await hook(page)).marks
            .filter((m) => (m.to ?? Infinity) >= c.xRange.min && m.from <= c.xRange.max)
            .map((m) => m.id)
          const labelled = new Set(c.runLabels.map((l) => l.id))
          return inView.length > 0 && inView.every((id) => labelled.has(id))
        })
        .toBe(true)

      // the wheel zooms in around the pointer; new data then leaves the window alone
      const following = await chartOf(page, 'rate-chart')
      // on a loaded machine the chart can move (the runs list grows above it) between finding
      // it and the wheel, which then misses it: find it again and wheel again until it zooms
      await expect
        .poll(
          async () => {
            const at = await plot(page, 'rate-chart')
            await page.mouse.move(at.x + at.w * 0.5, at.midY)
            await page.mouse.wheel(0, -300)
            await page.waitForTimeout(250)
            return span((await chartOf(page, 'rate-chart')).xRange)
          },
          { timeout: 10_000 },
        )
        .toBeLessThan(span(following.xRange) * 0.9)
      const p = await plot(page, 'rate-chart')
      expect(await page.getByTestId('zoom-state').textContent()).toMatch(/^zoomed: /)
      // settled: the wheel's zoom drawn (the page renders on the next animation frame)
      await page.waitForTimeout(300)
      const zoomed = (await chartOf(page, 'rate-chart')).xRange
      await page.waitForTimeout(600)
      expect((await chartOf(page, 'rate-chart')).xRange).toEqual(zoomed)
      // the in-flight chart shares the window
      expect((await chartOf(page, 'inflight-chart')).xRange).toEqual(zoomed)

      // shift-drag pans: the window keeps its width and moves
      await page.keyboard.down('Shift')
      await page.mouse.move(p.x + p.w * 0.6, p.midY)
      await page.mouse.down()
      await page.mouse.move(p.x + p.w * 0.4, p.midY, { steps: 4 })
      await page.mouse.up()
      await page.keyboard.up('Shift')
      await expect.poll(async () => (await chartOf(page, 'rate-chart')).xRange.min, { timeout: 5_000 }).toBeGreaterThan(zoomed.min)
      expect(span((await chartOf(page, 'rate-chart')).xRange)).toBeCloseTo(span(zoomed), 9)

      // Reset zoom follows the newest point again
      await page.getByTestId('btn-zoom-reset').click()
      await expect.poll(async () => (await chartOf(page, 'rate-chart')).xRange.max, { timeout: 5_000 }).toBeGreaterThan(zoomed.max)
      await expect
        .poll(async () => await page.getByTestId('zoom-state').textContent(), { timeout: 5_000 })
        .toBe('following the newest point')

      // a drag selects a stretch of time: its GB/s, requests, reads in flight and latency
      await page.getByTestId('btn-pause').click()
      await page.mouse.move(p.x + p.w * 0.2, p.midY)
      await page.mouse.down()
      await page.mouse.move(p.x + p.w * 0.9, p.midY, { steps: 5 })
      await page.mouse.up()
      const figures = page.getByTestId('range-figures')
      await expect
        .poll(async () => (await figures.textContent()) ?? '', { timeout: 5_000 })
        .toMatch(/^selected .*GB\/s payload · [\d,]+ requests .* reads in flight · latency mean/)
      expect(Number(await figures.getAttribute('data-requests'))).toBeGreaterThan(0)
      expect(Number(await figures.getAttribute('data-gbps'))).toBeGreaterThan(0)
      // Zoom to selection: the window is the selection
      await page.getByTestId('btn-zoom-selection').click()
      await expect.poll(async () => (await page.getByTestId('zoom-state').textContent()) ?? '', { timeout: 5_000 }).toMatch(/^zoomed: /)
      await page.getByTestId('btn-pause').click()

      // zoom to a run from the list: the window holds its band with a small margin, the run selected
      const run = (await hook(page)).marks.filter((m) => m.to !== undefined).at(-1)! // the newest: older ones may leave the list
      await page.getByTestId('run-zoom').selectOption(String(run.id))
      await expect
        .poll(async () => (await chartOf(page, 'rate-chart')).xRange, { timeout: 5_000 })
        .toEqual({
          min: expect.closeTo(run.from - (run.to! - run.from) * 0.05, 9),
          max: expect.closeTo(run.to! + (run.to! - run.from) * 0.05, 9),
        })
      const z = (await chartOf(page, 'rate-chart')).xRange
      // a window of a fraction of a second: the time axis reads in the unit its title names, every
      // tick its own label within the window (no "298 ms, 298 ms", no µs under a title in s)
      const time = await chartOf(page, 'rate-chart')
      const unit = /^probe time \((s|ms|µs)\)/.exec(time.axes['x'] ?? '')?.[1] as 's' | 'ms' | 'µs'
      const perSecond = { s: 1, ms: 1e3, µs: 1e6 }[unit]
      const ticks = time.ticks['x'] ?? []
      expect(ticks.length).toBeGreaterThan(1)
      expect(new Set(ticks).size, ticks.join(', ')).toBe(ticks.length)
      for (const t of ticks) {
        expect(t).toMatch(/^\d+(\.\d+)?$/)
        expect(Number(t) / perSecond, `${t} ${unit}`).toBeGreaterThanOrEqual(z.min - span(z) * 0.2)
        expect(Number(t) / perSecond, `${t} ${unit}`).toBeLessThanOrEqual(z.max + span(z) * 0.2)
      }
      const named = (await chartOf(page, 'rate-chart')).runLabels.find((l) => l.id === run.id)
      expect(named).toEqual({ id: run.id, text: run.label, full: true }) // zoomed in, the band has room for its name

      // a click on another run's band zooms to that one
      await page.getByTestId('btn-zoom-reset').click()
      await expect.poll(() => page.getByTestId('zoom-state').textContent(), { timeout: 10_000 }).toBe('following the newest point')
      await page.getByTestId('btn-pause').click()
      await expect.poll(() => page.getByTestId('conn-state').getAttribute('data-state'), { timeout: 10_000 }).toBe('paused')
      // the frozen picture, drawn: two reads of the window agree
      let c = await chartOf(page, 'rate-chart')
      await expect
        .poll(
          async () => {
            const before = c.xRange
            c = await chartOf(page, 'rate-chart')
            return c.xRange.min === before.min && c.xRange.max === before.max
          },
          { timeout: 10_000, interval: 300 },
        )
        .toBe(true)
      const other = (await hook(page)).marks.find(
        (m) => m.id !== run.id && m.to !== undefined && m.from > c.xRange.min && m.to < c.xRange.max,
      )!
      const px = await page.evaluate(
        ({ t }) =>
          (globalThis as unknown as { __pcieScopeChartPixel: (c: string, t: number) => number }).__pcieScopeChartPixel('rate-chart', t),
        { t: (other.from + other.to!) / 2 },
      )
      // on the canvas itself, where it is now (Playwright scrolls it into view and waits for it to be still)
      await page.getByTestId('rate-chart').click({ position: { x: px, y: p.h * 0.55 } })
      await expect
        .poll(async () => (await chartOf(page, 'rate-chart')).xRange.min, { timeout: 10_000 })
        .toBeCloseTo(other.from - (other.to! - other.from) * 0.05, 9)
      expect((await chartOf(page, 'rate-chart')).xRange).not.toEqual(z)
      // double click follows again
      await page.getByTestId('btn-pause').click()
      await page.mouse.dblclick(p.x + p.w * 0.5, p.midY)
      await expect
        .poll(async () => (await page.getByTestId('zoom-state').textContent()) ?? '', { timeout: 5_000 })
        .toBe('following the newest point')
    })
  })
})
