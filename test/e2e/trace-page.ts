/**
 * What the trace view's browser tests and its redraw bench read of the page: the trace hook
 * (`window.__pcieScopeTrace`, web/trace-hook.ts) and the timeline's canvas.
 */
import type { Page } from 'playwright-core'

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
