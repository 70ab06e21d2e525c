/**
 * The bench card's state (DOM-free): the run history GET /api/runs lists (this server's runs and
 * the recordings'), the run whose summary the card shows, and the runs picked for a comparison in
 * the order they were picked (the first the baseline). `version` moves on every change, so the
 * view redraws only then.
 */
import { compareRuns, type Comparison } from '../host/src/core/compare.js'
import type { RunEntry } from '../host/src/core/run-summary.js'

/** rows the history shows at most, newest first */
export const HISTORY_ROWS = 100

export class RunPicker {
  runs: RunEntry[] = []
  /** picked run keys, the baseline first */
  picked: string[] = []
  /** the run whose summary the card shows; null: the newest */
  shownKey: string | null = null
  /** the list shows the server's demo runs too */
  withDemo = false
  version = 0

  /** A new listing: picks and the shown run that are gone from it are dropped. */
  setRuns(runs: RunEntry[]): void {
    this.runs = runs
    this.picked = this.picked.filter((k) => runs.some((r) => r.key === k))
    if (this.shownKey !== null && !runs.some((r) => r.key === this.shownKey)) this.shownKey = null
    this.version++
  }

  /** The rows to list, newest first. */
  rows(): RunEntry[] {
    return this.runs.filter((r) => this.withDemo || r.origin !== 'demo' || this.picked.includes(r.key)).slice(0, HISTORY_ROWS)
  }

  setWithDemo(on: boolean): void {
    this.withDemo = on
    this.version++
  }

  /** Pick a run for the comparison, or drop it; dropping the baseline makes the next one the baseline. */
  toggle(key: string): void {
    this.picked = this.picked.includes(key) ? this.picked.filter((k) => k !== key) : [...this.picked, key]
    this.version++
  }

  /** Make a picked run the baseline. */
  makeBaseline(key: string): void {
    if (!this.picked.includes(key)) return
    this.picked = [key, ...this.picked.filter((k) => k !== key)]
    this.version++
  }

  show(key: string | null): void {
    this.shownKey = key
    this.version++
  }

  /** The run the summary card shows: the one asked for, else the newest listed. */
  shown(): RunEntry | null {
    return this.runs.find((r) => r.key === this.shownKey) ?? this.rows()[0] ?? null
  }

  pickedRuns(): RunEntry[] {
    return this.picked.map((k) => this.runs.find((r) => r.key === k)).filter((r): r is RunEntry => r !== undefined)
  }

  /** The comparison of the picked runs, once two or more are picked. */
  comparison(): Comparison | null {
    const runs = this.pickedRuns()
    return runs.length >= 2 ? compareRuns(runs) : null
  }
}
