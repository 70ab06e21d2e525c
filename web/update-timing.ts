/**
 * How long each chart's update takes, measured around `chart.update('none')` with
 * performance.now() (two clock reads a frame: kept in the production page too). The browser test
 * reads the figures at 600 points while streaming; bench/RESULTS.md records them.
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

/** Update `chart` without animation and record how long it took under `name`. */
export function timedUpdate(chart: Chart, name: string): void {
  const t0 = performance.now()
  chart.update('none')
  const ms = performance.now() - t0
  let t = timings.get(name)
  if (!t) timings.set(name, (t = { ms: [], points: [] }))
  t.ms.push(ms)
  t.points.push(chart.data.datasets.reduce((a, d) => a + d.data.length, 0))
  if (t.ms.length > KEEP) {
    t.ms.shift()
    t.points.shift()
  }
}

/** Every chart's recorded updates, by name. */
export const updateTimings = (): Record<string, UpdateTiming> => Object.fromEntries(timings)
