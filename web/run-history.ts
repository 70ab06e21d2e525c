/**
 * The runs this page has seen (DOM-free): one line per run with what a user compares across runs,
 * the pattern, the payload rate, the requests and when it finished.
 */
import type { RunReport } from '../host/src/core/wire.js'
import { isGraphWorkload, type AnyWorkload } from '../host/src/core/workload.js'

/** A run's name on the time axis and in the list: the pattern and its offset, or the graph kernel and its graph. */
export const workloadLabel = (w: AnyWorkload): string =>
  isGraphWorkload(w) ? `${w.pattern} ${w.graph}` : `${w.pattern}${w.offset ? ` +${w.offset}` : ''}`

/** runs kept; the oldest go first */
export const RUN_HISTORY_MAX = 200

export interface RunHistoryEntry {
  id: number
  origin: 'demo' | 'manual'
  label: string
  /** payload GB/s: a GPU's kernel rate, else the probe's completed payload over the run's simulated time; null when unknown */
  gbps: number | null
  /** MRd requests the run issued */
  requests: number
  /** when it finished, ms since the epoch (the server's clock) */
  at: number
  /** false: the counters were stopped, so the probe saw nothing of it */
  counted: boolean
}

export function runHistoryEntry(r: RunReport, clockHz: number | undefined): RunHistoryEntry {
  const res = r.result
  const simS = clockHz && clockHz > 0 ? res.simCycles / clockHz : 0
  const gbps = res.gpu ? res.gpu.kernelGbps : r.countersEnabled && simS > 0 ? r.probe.cpldBytes / simS / 1e9 : null
  return {
    id: r.id,
    origin: r.origin,
    label: workloadLabel(res.workload),
    gbps,
    requests: res.issued.count,
    at: r.finishedAt,
    counted: r.countersEnabled,
  }
}

/** The lines to list, newest first: every run, or the manual ones only. */
export const shownRuns = (history: readonly RunHistoryEntry[], withDemo: boolean): RunHistoryEntry[] =>
  history.filter((e) => withDemo || e.origin === 'manual').reverse()
