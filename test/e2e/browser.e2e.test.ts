/**
 * The web UI end to end: build it with scripts/build-web.mjs, start the server, open the page in
 * Debian's Chromium through playwright-core and watch the histogram move.
 *
 * On the twin (build/twin/pcie-scope-twin + host/src/device/session.ts) this is the real path:
 * Verilated RTL → firmware → PTY → ProbeClient → server → ws → chart.js. A second test drives
 * the same page from the unit tests' fake session, so the UI is checked even without the twin.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../host/src/server/index.js'
import type { TestHook } from '../../web/model.js'
import { fakeSession } from '../host/server/fake-session.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const twinAvailable = existsSync(join(root, 'build/twin/pcie-scope-twin')) && existsSync(join(root, 'host/src/device/session.ts'))
const shots = join(root, 'build/e2e')

type Hook = TestHook
const hook = (page: Page) => page.evaluate(() => (globalThis as unknown as { __pcieScope: Hook }).__pcieScope)
const shownTotal = async (page: Page) => Number(((await page.getByTestId('hist-total').textContent()) ?? '').replace(/,/g, ''))

describe('web UI in Chromium', () => {
  let browser: Browser

  beforeAll(async () => {
    if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath}: run \`npm test\` (it installs it) or set CHROMIUM_PATH`)
    await promisify(execFile)(process.execPath, [join(root, 'scripts/build-web.mjs')], { cwd: root })
    mkdirSync(shots, { recursive: true })
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
  })
  afterAll(async () => {
    await browser?.close()
  })

  async function watch(server: RunningServer, shot: string, opts: { manualRun: boolean; ceiling?: RegExp }) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
    const problems: string[] = []
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`)
    })
    try {
      await page.goto(server.url)
      await expect.poll(async () => (await hook(page))?.connected, { timeout: 30_000 }).toBe(true)
      await expect(page.getByTestId('conn-state')).toBeDefined()
      expect(await page.getByTestId('conn-state').textContent()).toBe('live')

      // the histogram total shown on the page grows while the demo runs
      await expect.poll(() => shownTotal(page), { timeout: 60_000 }).toBeGreaterThan(0)
      const first = await shownTotal(page)
      await expect.poll(() => shownTotal(page), { timeout: 60_000 }).toBeGreaterThan(first)
      const h = await hook(page)
      expect(h.histogram).toHaveLength(5)
      expect(h.histogram.filter((n) => n > 0).length).toBeGreaterThan(0)
      expect(h.total).toBe(h.histogram.reduce((a, b) => a + b, 0))
      await expect.poll(async () => (await hook(page)).ratePoints, { timeout: 60_000 }).toBeGreaterThan(2)
      expect(await page.getByTestId('counter-mrd128').count()).toBe(1)
      if (opts.ceiling) {
        // the rate sits next to what the link allows for the same completion mix
        await expect
          .poll(async () => (await page.getByTestId('rate-ceiling').textContent()) ?? '', { timeout: 30_000 })
          .toMatch(opts.ceiling)
      }

      if (opts.manualRun) {
        await page.getByTestId('run-pattern').selectOption('merged-misaligned')
        await page.getByTestId('run-bytes').fill('65536')
        await page.getByTestId('run-offset').fill('16')
        await page.getByTestId('run-button').click()
        await expect
          .poll(async () => (await page.getByTestId('run-result').textContent()) ?? '', { timeout: 60_000 })
          .toMatch(/\(manual\) merged-misaligned, 65,536 B @ \+16/)
      }
      // let demo runs of every pattern land in the histogram before the picture
      await expect.poll(async () => (await hook(page)).histogram.filter((n) => n > 0).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2)
      await page.screenshot({ path: join(shots, shot), fullPage: true })
      expect(problems).toEqual([])
    } finally {
      await page.close()
    }
  }

  it('on the twin: the histogram fills and grows while the demo loops', async () => {
    expect(twinAvailable, 'the twin is not built: run `npm run build:twin`').toBe(true)
    const server = await startServer({ twin: true, demo: true, http: { host: '127.0.0.1', port: 0 } })
    try {
      await watch(server, 'ui-twin.png', { manualRun: true, ceiling: /GB\/s on gen3x16$/ })
    } finally {
      await server.close()
    }
  })

  it('on the fake session: same page, same checks', async () => {
    const session = fakeSession({ runDelayMs: 150 })
    const server = await startServer({ twin: true, demo: true, http: { host: '127.0.0.1', port: 0 }, session })
    try {
      await watch(server, 'ui-fake.png', { manualRun: true })
    } finally {
      await server.close()
      await session.close()
    }
  })
})
