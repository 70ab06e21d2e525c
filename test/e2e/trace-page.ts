/**
 * What the trace view's browser tests and its redraw bench read of the page: the trace hook
 * (`window.__pcieScopeTrace`, web/trace-hook.ts) and the timeline's canvas.
 */
import type { Page } from 'playwright-core'
import { expect } from 'vitest'

/** what the test reads of `window.__pcieScopeTrace` (web/trace-hook.ts; that module imports the page's DOM code) */
export interface TraceViewHook {
  loaded: boolean
  reads: number
  shown: number
  tableRows: number
  lanes: number
  window: { from: number; to: number } | null
  full: { from: number; to: number } | null
  drawnReads: number
  drawnRects: number
  selected: number | null
  barPoint(i: number): { x: number; y: number } | null
}

export const trace = (page: Page): Promise<TraceViewHook> =>
  page.evaluate(() => {
    const h = (globalThis as unknown as { __pcieScopeTrace: TraceViewHook }).__pcieScopeTrace
    return { ...h, barPoint: undefined } as unknown as TraceViewHook
  })
export const barPoint = (page: Page, i: number) =>
  page.evaluate((k) => (globalThis as unknown as { __pcieScopeTrace: TraceViewHook }).__pcieScopeTrace.barPoint(k), i)
/** the canvas scrolled into view (the card sits low on the page), its box in the viewport */
export const canvasBox = async (page: Page) => {
  await page.getByTestId('trace-timeline').scrollIntoViewIfNeeded()
  return (await page.getByTestId('trace-timeline').boundingBox())!
}

/** a trace report opened from a file in the trace card, loaded and every read drawn */
export async function openTraceFile(page: Page, report: { reads: unknown[] }): Promise<void> {
  await page.getByTestId('trace-file').setInputFiles({
    name: 'trace.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(report)),
  })
  await expect.poll(() => page.getByTestId('trace-status').getAttribute('data-state'), { timeout: 60_000 }).toBe('loaded')
  await expect.poll(async () => (await trace(page)).drawnReads, { timeout: 10_000 }).toBe(report.reads.length)
}

/** steps wheel turns over the timeline (in twice as often as out, the pointer moving: the end is
 * zoomed in), then a drag pan of as many moves */
export async function zoomAndPan(page: Page, steps: number): Promise<void> {
  const box = await canvasBox(page)
  const y = box.y + box.height / 2
  for (let k = 0; k < steps; k++) {
    await page.mouse.move(box.x + box.width * (0.3 + 0.4 * (k / steps)), y)
    await page.mouse.wheel(0, k < (2 * steps) / 3 ? -120 : 120)
    await page.waitForTimeout(20)
  }
  await page.mouse.move(box.x + box.width * 0.6, y)
  await page.mouse.down()
  for (let k = 0; k < steps; k++) {
    await page.mouse.move(box.x + box.width * (0.6 - (0.4 * k) / steps), y)
    await page.waitForTimeout(10)
  }
  await page.mouse.up()
  await page.waitForTimeout(100)
}
