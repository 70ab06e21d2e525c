/**
 * How long each chart's update takes, measured around `chart.update('none')` with
 * performance.now() (two clock reads a frame: kept in the production page too), and the trace
 * timeline's redraw on its canvas the same way. The browser tests read the figures (600 points
 * while streaming; a trace of 50 000 records panned and zoomed); bench/RESULTS.md records them.
 */
import type { Chart } from 'chart.js'

/** the newest durations kept per chart */
const KEEP = 240

export interface UpdateTiming {
  /** ms of each update, oldest first */
  ms: number[]
  /** points drawn in the chart at each update */
  points: number[]
}

const timings = new Map<string, UpdateTiming>()

/** Run `draw` and record how long it took under `name`, with the points it drew (what it returns). */
export function timed(name: string, draw: () => number): void {
  const t0 = performance.now()
  const points = draw()
  const ms = performance.now() - t0
  let t = timings.get(name)
  if (!t) timings.set(name, (t = { ms: [], points: [] }))
  t.ms.push(ms)
  t.points.push(points)
  if (t.ms.length > KEEP) {
    t.ms.shift()
    t.points.shift()
  }
}

/** Update `chart` without animation and record how long it took under `name`. */
export function timedUpdate(chart: Chart, name: string): void {
  timed(name, () => {
    chart.update('none')
    return chart.data.datasets.reduce((a, d) => a + d.data.length, 0)
  })
}

/** Every chart's recorded updates, by name. */
export const updateTimings = (): Record<string, UpdateTiming> => Object.fromEntries(timings)
