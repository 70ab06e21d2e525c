/**
 * The TLP trace view in Chromium. On the twin: a trace armed from the page's form, its reads drawn
 * as bars, one clicked and its records' header fields decoded, the table filtered; a bad trigger
 * answered with the server's code. On the fake session: a synthetic 50 000-record report opened
 * from a file (as `pcie-scope trace --json` writes it), zoomed and panned, filtered and a bar
 * clicked. How long its redraws take is bench/page-timing.mjs's to measure.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer } from '../../host/src/server/index.js'
import { syntheticTrace } from '../web/trace-fixture.js'
import { buildTestPage, launchChromium, onFakeServer, root } from './page-harness.js'
import { barPoint, canvasBox, openTraceFile, trace, zoomAndPan } from './trace-page.js'

const webRoot = join(root, 'build/e2e-web-trace')
const twinAvailable = existsSync(join(root, 'build/twin/pcie-scope-twin'))
describe('the TLP trace view in Chromium', () => {
  let browser: Browser
  beforeAll(async () => {
    await buildTestPage(webRoot)
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
  })

  it(
    'on the twin: arms a trace from the form, draws its reads, decodes a clicked one, filters the table',
    { timeout: 120_000 },
    async () => {
      expect(twinAvailable, 'the twin is not built: run `npm run build:twin`').toBe(true)
      const server = await startServer({ twin: true, demo: false, http: { host: '127.0.0.1', port: 0 }, webRoot, gpu: false })
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
      const problems: string[] = []
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
      try {
        await page.goto(server.url)
        await expect.poll(() => page.getByTestId('trace-button').isDisabled(), { timeout: 30_000 }).toBe(false)

        // a trigger the grammar refuses: the server's code and message, nothing loaded
        await page.getByTestId('trace-trigger').fill('sometimes')
        await page.getByTestId('trace-button').click()
        await expect.poll(() => page.getByTestId('trace-status').getAttribute('data-state'), { timeout: 10_000 }).toBe('error')
        expect(await page.getByTestId('trace-status').textContent()).toMatch(/^PS_REQUEST_INVALID: /)
        expect((await trace(page)).loaded).toBe(false)

        // merged-misaligned: 96-B and 32-B reads, two colours; 100 records before an address trigger
        await page.getByTestId('trace-pattern').selectOption('merged-misaligned')
        await page.getByTestId('trace-bytes').fill('16384')
        await page.getByTestId('trace-trigger').fill('addr=0x100002000:0x100002fff')
        await page.getByTestId('trace-pre').fill('100')
        await page.getByTestId('trace-button').click()
        await expect.poll(() => page.getByTestId('trace-status').getAttribute('data-state'), { timeout: 60_000 }).toBe('loaded')
        const status = (await page.getByTestId('trace-status').textContent()) ?? ''
        expect(status).toMatch(
          /merged-misaligned, 16,384 B: [\d,]+ records of tap 0 .* trigger addr=0x100002000:0x100002fff at record 100 \(MRD/,
        )
        await expect.poll(async () => (await trace(page)).drawnReads, { timeout: 5_000 }).toBeGreaterThan(0)
        const t = await trace(page)
        expect(t.reads).toBeGreaterThan(100)
        expect(t.drawnReads).toBe(t.reads) // the whole trace in view
        expect(t.lanes).toBeGreaterThan(1) // a lane per tag
        expect(t.tableRows).toBeGreaterThan(0)
        expect(t.tableRows).toBeLessThan(60) // a screenful of rows, not one per read

        // a click on a bar: that read picked, its request and completion decoded
        const i = 120
        const p = (await barPoint(page, i))!
        const box = await canvasBox(page)
        await page.mouse.click(box.x + p.x, box.y + p.y)
        await expect.poll(async () => (await trace(page)).selected, { timeout: 5_000 }).toBe(i)
        const detail = page.getByTestId('trace-detail-table')
        const field = (name: string) => detail.locator(`tr[data-field="${name}"] td`).allTextContents()
        expect((await field('kind')).slice(1)).toEqual(['MRD', 'CPLD'])
        expect((await field('Fmt / Type')).slice(1)).toEqual(['001 / 00000', '010 / 01010'])
        expect((await field('address'))[1]).toMatch(/^0x0001000[0-9a-f]{5}$/)
        expect((await field('status'))[2]).toBe('SC (000)')
        expect((await field('Requester ID'))[1]).toMatch(/^0x[0-9a-f]{4} \(/)
        expect((await field('tap clock'))[1]).toMatch(/^\d+ clocks$/)
        expect((await field('time'))[1]).toMatch(/^\d+\.\d ns$/)
        expect((await field('stream')).slice(1)).toEqual(['request', 'completion'])
        expect(await page.getByTestId(`trace-row-${i}`).getAttribute('class')).toMatch(/selected/)

        // the table filtered: 32-B reads only, then one tag, then latency above a bar nobody reaches
        await page.getByTestId('trace-f-size').selectOption('32')
        await expect.poll(async () => (await trace(page)).shown, { timeout: 5_000 }).toBeLessThan(t.reads)
        const shown32 = (await trace(page)).shown
        expect(shown32).toBeGreaterThan(0)
        // the rows follow the count on the next frame: polled until the table is the filtered one
        const rows = page.locator('[data-testid^="trace-row-"]')
        await expect
          .poll(async () => (await rows.allTextContents()).slice(0, 10).filter((text) => !/0x0001000[0-9a-f]{5}32/.test(text)), {
            timeout: 5_000,
          })
          .toEqual([])
        expect(await rows.count()).toBeGreaterThan(0)
        await page.getByTestId('trace-f-size').selectOption('')
        await page.getByTestId('trace-f-latency').fill('1000000')
        await expect.poll(async () => (await trace(page)).shown, { timeout: 5_000 }).toBe(0)
        expect(await page.getByTestId('trace-shown').textContent()).toBe(`0 of ${t.reads} reads`)
        await page.getByTestId('trace-f-latency').fill('')
        await page.getByTestId('trace-f-end').selectOption('done')
        await expect.poll(async () => (await trace(page)).shown, { timeout: 5_000 }).toBeGreaterThan(shown32)
        // a row clicked picks its read
        const firstRow = rows.first()
        const read = Number(((await firstRow.getAttribute('data-testid')) ?? '').slice('trace-row-'.length))
        await firstRow.click()
        await expect.poll(async () => (await trace(page)).selected, { timeout: 5_000 }).toBe(read)
        // a lane per requester: the twin's GPU is one
        await page.getByTestId('trace-lanes').selectOption('requester')
        await expect.poll(async () => (await trace(page)).lanes, { timeout: 5_000 }).toBe(1)

        // the switch's host side, recording only reads and their data completions
        await page.getByTestId('trace-trigger').fill('force')
        await page.getByTestId('trace-pre').fill('0')
        await page.getByTestId('trace-filter-spec').fill('type=mrd|cpld')
        await page.getByTestId('trace-tap').selectOption('1')
        await page.getByTestId('trace-button').click()
        await expect.poll(() => page.getByTestId('trace-status').textContent(), { timeout: 60_000 }).toMatch(/records of tap 1 /)
        expect(await page.getByTestId('trace-status').getAttribute('data-state')).toBe('loaded')
        await expect.poll(async () => (await trace(page)).drawnReads, { timeout: 5_000 }).toBeGreaterThan(0)
        expect(problems).toEqual([])
      } finally {
        await page.close()
        await server.close()
      }
    },
  )

  it('opens a 50 000-record trace from a file, zooms and pans it, and finds a clicked bar among them', { timeout: 180_000 }, async () => {
    const { report } = syntheticTrace(50_000)
    await onFakeServer(browser, webRoot, { demo: false }, async (page, server) => {
      await page.goto(server.url)
      await openTraceFile(page, report)
      expect(await page.getByTestId('trace-status').textContent()).toMatch(/^file trace\.json · merged-aligned, .*50,000 records/)
      const loaded = await trace(page)
      expect(loaded.tableRows).toBeLessThan(60)

      // the wheel zooms around the pointer, a drag pans
      await zoomAndPan(page, 12)
      const zoomed = await trace(page)
      expect(zoomed.window!.to - zoomed.window!.from).toBeLessThan(zoomed.full!.to - zoomed.full!.from)

      // filtered to one tag and a click still finds its bar among 50 000 records
      await page.getByTestId('trace-zoom-reset').click()
      await page.getByTestId('trace-f-tag').fill('17')
      await expect.poll(async () => (await trace(page)).shown, { timeout: 5_000 }).toBe(report.reads.filter((r) => r.tag === 17).length)
      const target = report.reads.findIndex((r, k) => r.tag === 17 && k > report.reads.length / 2)
      const p = (await barPoint(page, target))!
      const now = await canvasBox(page) // typing in the filter may have scrolled the page
      await page.mouse.click(now.x + p.x, now.y + p.y)
      await expect.poll(async () => (await trace(page)).selected, { timeout: 5_000 }).toBe(target)
      expect(await page.getByTestId(`trace-row-${target}`).getAttribute('class')).toMatch(/selected/)
    })
  })
})
