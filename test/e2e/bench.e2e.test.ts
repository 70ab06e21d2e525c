/**
 * The page's bench card in Debian's Chromium (playwright-core), over the fake session: the
 * summary of the newest run, the run history (this server's runs and a recording's from an
 * earlier server), two runs picked and compared (the sentence, grouped bars, the table of
 * changes), and both exports as self-contained HTML files.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../host/src/server/index.js'
import { fakeSession } from '../host/server/fake-session.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const webRoot = join(root, 'build/e2e-bench-web')

describe('the bench card in Chromium', () => {
  let browser: Browser
  const dirs: string[] = []

  beforeAll(async () => {
    if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath}: run \`npm test\` (it installs it) or set CHROMIUM_PATH`)
    await promisify(execFile)(process.execPath, [join(root, 'scripts/build-web.mjs'), '--test', '--outdir', webRoot], { cwd: root })
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    })
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })

  /** A server over the fake session, its probe counting; runs made through the REST API. */
  async function server(recordings?: { dir: string; record: boolean }) {
    // a run long enough for the fake's 100-ms tick to move its clock: probe time passes in it
    const session = fakeSession({ runDelayMs: 250 })
    const srv = await startServer({
      twin: true,
      demo: false,
      http: { host: '127.0.0.1', port: 0 },
      session,
      webRoot,
      gpu: false,
      ...(recordings ? { recordings } : {}),
    })
    const base = new URL(srv.url).origin
    const post = (path: string, body: object) =>
      fetch(`${base}/api/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${srv.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    expect((await post('start', {})).status).toBe(200)
    const run = async (pattern: string, bytes = 65536) => expect((await post('run', { pattern, bytes })).status).toBe(200)
    return { srv, session, run }
  }

  async function onPage(srv: RunningServer, body: (page: Page) => Promise<void>) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1200 }, acceptDownloads: true })
    const problems: string[] = []
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
    try {
      await page.goto(srv.url)
      await body(page)
      expect(problems).toEqual([])
    } finally {
      await page.close()
    }
  }

  const rows = (page: Page) => page.locator('[data-testid^="bench-run-"]')

  it('shows the newest run’s summary, and another’s when its name is clicked', async () => {
    const { srv, session, run } = await server()
    try {
      await run('strided')
      await run('merged-aligned')
      await onPage(srv, async (page) => {
        await expect.poll(() => rows(page).count(), { timeout: 10_000 }).toBe(2)
        await expect
          .poll(() => page.getByTestId('bench-summary-title').textContent())
          .toMatch(/^server #2 \(merged-aligned 65536 B\) · twin · /)
        expect(await page.getByTestId('bench-summary-payload').textContent()).toMatch(/^payload[\d.]+ GB\/s$/)
        expect(await page.getByTestId('bench-summary-wire-efficiency').textContent()).toMatch(/86.5 % payload/)
        expect(await page.getByTestId('bench-summary-reads-in-flight').textContent()).toMatch(/ of 256 tags|average/)
        expect(await page.getByTestId('bench-summary-limit').textContent()).toMatch(/^limit(link ceiling|tags|request rate|latency): /)
        expect(await page.getByTestId('bench-summary-model-vs-probe').textContent()).toMatch(/model issued 512 MRd: matches the probe/)
        await page
          .getByTestId('bench-run-server:1')
          .getByRole('button', { name: /strided/ })
          .click()
        await expect.poll(() => page.getByTestId('bench-summary-title').textContent()).toMatch(/^server #1 \(strided 65536 B\)/)
        expect(await page.getByTestId('bench-summary-wire-efficiency').textContent()).toMatch(/61.5 % payload/)
        // a new run lists itself without a reload
        await run('merged-misaligned')
        await expect.poll(() => rows(page).count(), { timeout: 10_000 }).toBe(3)
        // the exported run: one file, nothing fetched
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('bench-export-run').click()])
        expect(download.suggestedFilename()).toBe('pcie-scope-server-1.html')
        const html = readFileSync((await download.path())!, 'utf8')
        expect(html).toContain('server #1 (strided 65536 B)')
        expect(html).not.toMatch(/<script|\ssrc=|\shref=/i)
      })
    } finally {
      await srv.close()
      await session.close()
    }
  })

  it('compares two runs picked in the history, a recording’s among them, and exports the comparison', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ps-e2e-bench-'))
    dirs.push(dir)
    // an earlier server recorded one run
    const before = await server({ dir, record: true })
    await before.run('strided')
    await before.srv.close()
    await before.session.close()
    const { srv, session, run } = await server({ dir, record: false })
    try {
      // the fake's runs take the same time whatever they read: four times the bytes is four times the rate
      await run('merged-aligned', 262144)
      await onPage(srv, async (page) => {
        await expect.poll(() => rows(page).count(), { timeout: 10_000 }).toBe(2)
        const recorded = ((await rows(page).nth(1).getAttribute('data-testid')) ?? '').slice('bench-run-'.length)
        expect(recorded).toMatch(/^serve-.*#1$/)
        expect(await page.getByTestId('bench-compare').textContent()).toMatch(/pick two runs or more/)
        // the first picked is the baseline
        await page.getByTestId(`bench-pick-${recorded}`).check()
        await page.getByTestId('bench-pick-server:1').check()
        const why = page.getByTestId('bench-why')
        await expect
          .poll(() => why.textContent(), { timeout: 5_000 })
          .toMatch(/^server #1 \(merged-aligned 262144 B\) is [\d.]+× faster than .*#1 \(strided 65536 B\)/)
        expect(await why.textContent()).toMatch(/each read carries 128 B against 32 B/)
        // five charts, each with bars of both runs
        const charts = page.getByTestId('bench-charts').locator('svg')
        expect(await charts.count()).toBe(5)
        for (const key of ['sizes', 'wire', 'rate', 'tags', 'latency']) {
          const svg = page.locator(`[data-testid="bench-charts"] svg[data-chart="${key}"]`)
          expect(await svg.locator('rect[data-series="0"]').count(), key).toBeGreaterThan(0)
          expect(await svg.locator('rect[data-series="1"]').count(), key).toBeGreaterThan(0)
        }
        mkdirSync(join(root, 'build/e2e'), { recursive: true })
        await page.getByTestId('bench-card').screenshot({ path: join(root, 'build/e2e/bench-card.png') })
        const table = page.getByTestId('bench-compare-table')
        expect(await table.locator('tr[data-metric="meanRequestBytes"]').textContent()).toMatch(/32128 \+300 %/)
        // the other way round: the recorded run becomes the baseline's rival
        await page.getByTestId('bench-run-server:1').getByRole('button', { name: 'make baseline' }).click()
        await expect.poll(() => why.textContent()).toMatch(/^.*#1 \(strided 65536 B\) is [\d.]+× slower than server #1/)
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('bench-export-compare').click()])
        expect(download.suggestedFilename()).toMatch(/^pcie-scope-comparison-server-1-vs-serve-.*-1\.html$/)
        const html = readFileSync((await download.path())!, 'utf8')
        expect(html).toMatch(/<p class="why">.* is [\d.]+× slower than server #1/)
        expect(html.match(/<svg class="bench-bars"/g)).toHaveLength(5)
        expect(html).not.toMatch(/<script|\ssrc=|\shref=|https?:\/\//i)
        // unpicking leaves one run: no comparison
        await page.getByTestId('bench-pick-server:1').uncheck()
        await expect.poll(() => page.getByTestId('bench-compare').textContent()).toMatch(/pick two runs or more/)
      })
    } finally {
      await srv.close()
      await session.close()
    }
  })
})
