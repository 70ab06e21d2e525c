/**
 * The browser tests' entry (`node scripts/build-web.mjs --test`): the same page as main.ts, plus
 * what test/e2e/browser.e2e.test.ts reads: `window.__pcieScope` (web/test-hook.ts) and
 * `window.__pcieScopeCharts` (each chart's axis titles, how many points its tooltip shows, its x window
 * and run labels) `window.__pcieScopeUpdateTimings` (web/update-timing.ts) `window.__pcieScopeChartPixel` and `window.__pcieScopeTrace` (web/trace-hook.ts).
 */
import { startPage } from './app.js'
import { Chart, drawnRunLabels } from './charts.js'
import { updateTimings } from './update-timing.js'
import { TestAppState, type TestHook } from './test-hook.js'
import { takeToken } from './token.js'
import { traceViewHook } from './trace-hook.js'

interface ChartSummary {
  canvas: string
  axes: Record<string, string>
  /** the tick labels each axis shows (none while its ticks are hidden, as on an empty chart) */
  ticks: Record<string, string[]>
  tooltipPoints: number
  /** the x axis's shown window, and the run labels drawn on it (time charts) */
  xRange: { min: number; max: number }
  runLabels: { id: number; text: string; full: boolean }[]
}

function chartsSummary(): ChartSummary[] {
  return Object.values(Chart.instances).map((c) => ({
    canvas: c.canvas.id,
    axes: Object.fromEntries(
      Object.entries(c.options.scales ?? {}).map(([k, s]) => {
        const title = (s as { title?: { text?: unknown } } | undefined)?.title?.text
        return [k, typeof title === 'string' ? title : '']
      }),
    ),
    ticks: Object.fromEntries(
      Object.entries(c.scales).map(([k, scale]) => {
        const shown = (scale.options as { ticks?: { display?: boolean } }).ticks?.display !== false
        return [k, shown ? scale.ticks.map((t) => String(t.label)) : []]
      }),
    ),
    tooltipPoints: c.tooltip?.getActiveElements().length ?? 0,
    xRange: { min: c.scales['x']?.min ?? NaN, max: c.scales['x']?.max ?? NaN },
    runLabels: (drawnRunLabels.get(c) ?? []).map((l) => ({ id: l.id, text: l.text, full: l.full })),
  }))
}

const state = new TestAppState(takeToken(location, history, sessionStorage))
const ctx = startPage(state)
// computed when read, so rendering pays nothing for it
Object.defineProperty(window, '__pcieScope', { get: (): TestHook => state.hook(ctx.now()) })
Object.defineProperty(window, '__pcieScopeCharts', { value: chartsSummary })
Object.defineProperty(window, '__pcieScopeUpdateTimings', { value: updateTimings })
// the trace view: what it holds and draws, and where a read's bar lies on its canvas
Object.defineProperty(window, '__pcieScopeTrace', { get: traceViewHook })
// where probe time `t` lies on a chart's x axis, in CSS pixels from the canvas's left edge
Object.defineProperty(window, '__pcieScopeChartPixel', {
  value: (canvas: string, t: number) =>
    Object.values(Chart.instances)
      .find((c) => c.canvas.id === canvas)
      ?.scales['x']?.getPixelForValue(t) ?? NaN,
})
