/**
 * Screenshots of the page, every view at 1440×900 and at 420 px wide, on the fake session in
 * switch mode with the sampler on (every card shown): live, zoomed with a stretch selected, and a
 * saved recording opened; and each card alone at 1440 (the bench card comparing two runs); the TLP
 * trace view at 1440×900 and 420 px with a trace of 4 096 records opened and a read picked. They
 * go to build/e2e/screenshots, or where PS_SCREENSHOTS_DIR says:
 * `PS_SCREENSHOTS_DIR=docs/screenshots npx vitest run --project e2e test/e2e/screenshots.e2e.test.ts`
 * refreshes the ones docs/server.md shows.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { syntheticTrace } from '../web/trace-fixture.js'
import { buildTestPage, hook, launchChromium, onFakeServer, root } from './page-harness.js'

const webRoot = join(root, 'build/e2e-web-shots')
const outDir = resolve(root, process.env.PS_SCREENSHOTS_DIR ?? 'build/e2e/screenshots')
const WIDTHS = [
  { name: 'wide', width: 1440, height: 900 },
  { name: 'narrow', width: 420, height: 900 },
] as const
/** small enough to keep in the repository, sharp enough to read every label */
const JPEG = { type: 'jpeg', quality: 80 } as const
/** every card, by its element id */
const CARDS = ['timenav', 'lesson', 'rate', 'run', 'inflight', 'latency', 'bench', 'recordings', 'hist', 'hostside', 'counters', 'link']

describe('screenshots of every view', () => {
  let browser: Browser
  beforeAll(async () => {
    await buildTestPage(webRoot)
    browser = await launchChromium()
    mkdirSync(outDir, { recursive: true })
  })
  afterAll(async () => {
    await browser?.close()
  })

  const shoot = async (page: Page, view: string) => {
    for (const w of WIDTHS) {
      await page.setViewportSize({ width: w.width, height: w.height })
      await page.waitForTimeout(400) // charts resize on the next frames
      await page.screenshot({ path: join(outDir, `${view}-${w.name}.jpg`), fullPage: true, ...JPEG })
    }
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.waitForTimeout(400)
  }

  it('live, zoomed with a selection, and a recording opened, at 1440 and 420 px; each card at 1440', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ps-shots-'))
    try {
      await onFakeServer(
        browser,
        webRoot,
        { runDelayMs: 400, switchMode: true, sampleUs: 10, recordings: { dir, record: true } },
        async (page, server) => {
          await page.goto(server.url)
          await expect
            .poll(async () => (await hook(page)).marks.filter((m) => m.to !== undefined).length, { timeout: 60_000 })
            .toBeGreaterThanOrEqual(6)
          await expect.poll(async () => (await hook(page)).latencyReads, { timeout: 30_000 }).toBeGreaterThan(0)
          await shoot(page, 'live')
          await page.locator('#counters-details > summary').click() // the register dump, opened for its own picture
          // the bench card comparing two demo runs, the first picked the baseline
          await page.getByTestId('bench-demo').check()
          const benchRows = page.locator('[data-testid^="bench-run-"]')
          await expect.poll(() => benchRows.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(2)
          for (const i of [1, 0]) {
            const key = ((await benchRows.nth(i).getAttribute('data-testid')) ?? '').slice('bench-run-'.length)
            await page.getByTestId(`bench-pick-${key}`).check()
          }
          await expect
            .poll(async () => (await page.getByTestId('bench-why').textContent()) ?? '', { timeout: 5_000 })
            .toMatch(/faster than|slower than|at the speed of|no read/)
          for (const card of CARDS) await page.locator(`#${card}-card`).screenshot({ path: join(outDir, `card-${card}.jpg`), ...JPEG })
          await page.locator('#counters-details > summary').click()

          // a run zoomed to and selected, its latency alone
          await page.getByTestId('btn-pause').click()
          const run = (await hook(page)).marks.filter((m) => m.to !== undefined).at(-2)!
          await page.getByTestId('run-zoom').selectOption(String(run.id))
          await expect.poll(async () => (await page.getByTestId('range-figures').textContent()) ?? '').toMatch(/^selected/)
          await page.getByTestId('btn-pause').click() // resumed: the zoomed window stays where it is
          await page.getByTestId('latency-of').selectOption(String(run.id))
          await expect
            .poll(async () => (await page.getByTestId('latency-caption').textContent()) ?? '', { timeout: 10_000 })
            .toMatch(/^run #/)
          await shoot(page, 'zoomed')

          // the recording so far, opened on the page
          await page.getByTestId('btn-record').click()
          await expect.poll(() => page.getByTestId('btn-record').textContent(), { timeout: 10_000 }).toBe('Record')
          const name = ((await page.locator('[data-testid^="recording-"]').first().getAttribute('data-testid')) ?? '').slice(
            'recording-'.length,
          )
          await page.getByTestId(`open-${name}`).click()
          await expect.poll(() => page.getByTestId('conn-state').getAttribute('data-state'), { timeout: 10_000 }).toBe('replay')
          await shoot(page, 'recording')
        },
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    const files = readdirSync(outDir)
    for (const view of ['live', 'zoomed', 'recording']) for (const w of WIDTHS) expect(files).toContain(`${view}-${w.name}.jpg`)
    for (const card of CARDS) expect(files).toContain(`card-${card}.jpg`)
  })

  it('the TLP trace view with a trace opened and a read picked, at 1440×900 and 420 px', async () => {
    // a ring's worth of records (4 096), as a forced trace of the twin holds them
    const { report } = syntheticTrace(4096, 300)
    await onFakeServer(browser, webRoot, { demo: false }, async (page, server) => {
      await page.goto(server.url)
      await page
        .getByTestId('trace-file')
        .setInputFiles({ name: 'trace.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(report)) })
      await expect.poll(() => page.getByTestId('trace-status').getAttribute('data-state'), { timeout: 30_000 }).toBe('loaded')
      await page.getByTestId('trace-lanes').selectOption('tag')
      // zoomed in around a 256-B read just after the trigger, and that read picked: its records decoded
      const pick = report.reads.findIndex((r) => r.record > 300 && r.completions === 2)
      const barAt = () =>
        page.evaluate(
          (k) =>
            (globalThis as unknown as { __pcieScopeTrace: { barPoint(i: number): { x: number; y: number } } }).__pcieScopeTrace.barPoint(k),
          pick,
        )
      const canvas = page.getByTestId('trace-timeline')
      for (const w of WIDTHS) {
        await page.setViewportSize({ width: w.width, height: w.height })
        await page.waitForTimeout(400)
        await page.getByTestId('trace-zoom-reset').click()
        await canvas.scrollIntoViewIfNeeded()
        await page.waitForTimeout(100)
        const box = (await canvas.boundingBox())!
        const at = await barAt()
        await page.mouse.move(box.x + at.x, box.y + at.y)
        for (let k = 0; k < 6; k++) await page.mouse.wheel(0, -120)
        await page.waitForTimeout(300)
        const p = await barAt()
        await page.mouse.click(box.x + p.x, box.y + p.y)
        await page.waitForTimeout(300)
        await page.locator('#trace-card').screenshot({ path: join(outDir, `trace-${w.name}.jpg`), ...JPEG })
      }
    })
    const files = readdirSync(outDir)
    for (const w of WIDTHS) expect(files).toContain(`trace-${w.name}.jpg`)
  })
})
