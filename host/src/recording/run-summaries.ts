/**
 * The runs a recording holds, each with its bench summary (core/run-summary.ts): what `compare`,
 * `summary` and GET /api/runs list. A run recorded with its summary (`capture`'s RunResult, the
 * server's RunReport) keeps it; an earlier recording's run is summarised again from what it holds:
 * the server's counter deltas, or the snapshot and histograms `capture` read at the run's end.
 */
import { PsError } from '../core/errors.js'
import type { Counters, LatencyHistogram, Snapshot } from '../core/probe.js'
import { summarizeRun, type RunEntry, type RunSourceKind, type RunSummary } from '../core/run-summary.js'
import type { HistogramKindKey } from '../core/generated.js'
import type { RecordingManifest, RunRecord } from './format.js'
import { openRecording } from './catalog.js'
import { readRecords } from './reader.js'

/** The fields of a recorded run result this module reads; the rest is opaque to it. */
interface RecordedResult {
  summary?: RunSummary
  /** the server's RunReport: counter deltas over the run, and the runner's result */
  probe?: Counters
  result?: { gpu?: unknown; issued?: { count: number; bytes: number } }
  /** capture's RunResult */
  model?: { kind?: string; issued?: { count: number; bytes: number } }
  outstanding?: { tagBudget?: number | null }
}

const looksLikeSummary = (s: unknown): s is RunSummary =>
  typeof s === 'object' && s !== null && 'gbPerSecond' in s && 'limit' in s && 'requests' in s && 'inFlight' in s

const sourceOf = (m: RecordingManifest, r: RecordedResult): RunSourceKind =>
  r.model?.kind === 'cuda' || r.result?.gpu !== undefined ? 'gpu' : m.source === 'twin' ? 'twin' : 'board'

/** A run's summary from what an earlier recording holds, or null when it holds too little. */
const resummarize = (
  m: RecordingManifest,
  r: RecordedResult,
  end: Snapshot | undefined,
  hists: Partial<Record<HistogramKindKey, LatencyHistogram>>,
): RunSummary | null => {
  const base = { clockHz: m.probe.clockHz, link: m.link, tagBudget: r.outstanding?.tagBudget ?? null }
  if (r.probe) return summarizeRun({ ...base, counters: r.probe, issued: r.result?.issued ?? null })
  if (!end) return null
  // capture cleared the probe before its run: the final snapshot's counters and histograms are the run's
  const histograms = Object.fromEntries(Object.entries(hists).filter(([, h]) => h.snapshotIndex === end.index))
  return summarizeRun({ ...base, counters: end.counters, histograms, issued: r.model?.issued ?? null })
}

/** Every run of a recording that completed, oldest first, each with its summary. */
export async function recordingRuns(dir: string): Promise<RunEntry[]> {
  const rec = await openRecording(dir)
  const m = rec.manifest
  const runs: RunEntry[] = []
  let last: Snapshot | undefined
  const hists: Partial<Record<HistogramKindKey, LatencyHistogram>> = {}
  for await (const record of readRecords(dir)) {
    if (record.t === 'snapshot') last = record.snapshot
    else if (record.t === 'histogram') hists[record.histogram.kind] = record.histogram
    else if (record.t === 'run') {
      const run = record as RunRecord
      if (run.error !== null || typeof run.result !== 'object' || run.result === null) continue
      const result = run.result as RecordedResult
      // the snapshot that closes the run: capture's final one has TIMESTAMP = the window's end
      const end = last && run.probeWindow && last.counters.timestamp === run.probeWindow.to ? last : undefined
      const summary = looksLikeSummary(result.summary) ? result.summary : resummarize(m, result, end, hists)
      if (!summary) continue
      runs.push({
        key: `${m.name}#${run.id}`,
        recording: m.name,
        id: run.id,
        origin: run.origin,
        source: sourceOf(m, result),
        workload: run.workload,
        at: run.at,
        summary,
      })
    }
  }
  return runs
}

/**
 * A run named on a command line or in a request: `RECORDING` (its runs, every one) or
 * `RECORDING#ID` (that run alone). PS_RECORDING_NOT_FOUND for a run the recording lacks.
 */
export function pickRuns(runs: RunEntry[], recording: string, id: number | undefined): RunEntry[] {
  const picked = id === undefined ? runs : runs.filter((r) => r.id === id)
  if (picked.length === 0) {
    throw new PsError(
      'PS_RECORDING_NOT_FOUND',
      id === undefined ? `recording ${recording} holds no completed run` : `recording ${recording} holds no completed run ${id}`,
    )
  }
  return picked
}

/** `NAME#ID` → the recording part and the run id (undefined without `#ID`); PS_USAGE for a bad id. */
export function splitRunArg(arg: string): { recording: string; id: number | undefined } {
  const at = arg.lastIndexOf('#')
  if (at < 0) return { recording: arg, id: undefined }
  const idText = arg.slice(at + 1)
  if (!/^\d{1,9}$/.test(idText))
    throw new PsError('PS_USAGE', `a run is RECORDING#ID with a number after the #, not ${JSON.stringify(arg)}`)
  return { recording: arg.slice(0, at), id: Number(idText) }
}
