/**
 * The run history behind GET /api/runs and POST /api/compare (routes.ts): this server's runs and
 * the runs of the recordings in its recordings folder, each with its bench summary, and runs
 * side by side. A closed recording is read once and kept; the one the server records into is
 * listed as this server's runs.
 */
import { isPsError, PsError } from '../core/errors.js'
import { compareRuns, type Comparison } from '../core/compare.js'
import { reportHtml } from '../core/bench-report.js'
import type { RunEntry } from '../core/run-summary.js'
import type { RunsListing } from '../core/wire.js'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { openRecording } from '../recording/catalog.js'
import { isValidRecordingName } from '../recording/names.js'
import { recordingRuns } from '../recording/run-summaries.js'
import type { RunService } from './runs.js'
import type { RecordingsDeps } from './recordings.js'

/** The recording directories directly under the folder (none when it does not exist). */
const recordingNames = async (root: string): Promise<string[]> => {
  try {
    const entries = await readdir(root, { withFileTypes: true })
    return entries.filter((e) => e.isDirectory() && isValidRecordingName(e.name)).map((e) => e.name)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw new PsError('PS_RECORDING_IO', `cannot list ${root}: ${e instanceof Error ? e.message : String(e)}`, { cause: e })
  }
}

export interface RunHistoryDeps {
  runs: Pick<RunService, 'entries'>
  recordings: RecordingsDeps
}

/** The run history and comparisons of runs in it: GET /api/runs and POST /api/compare (routes.ts). */
export class RunHistory {
  /** the runs of recordings no writer holds, by directory, with the status and stop time they were read at */
  private readonly cache = new Map<string, { settled: string; runs: RunEntry[] }>()
  constructor(private readonly deps: RunHistoryDeps) {}

  /** GET /api/runs: every run, newest first. */
  async listing(): Promise<RunsListing> {
    const { runs, recordings } = this.deps
    const current = recordings.recording()
    const out: RunsListing = { runs: runs.entries(), skipped: [] }
    const seen = new Set(out.runs.map((r) => r.key))
    if (recordings.dir !== null) {
      // each recording but the one being written (its runs are this server's); one no writer holds
      // any more (closed, or its writer gone) does not change: it is read once
      for (const name of await recordingNames(recordings.dir)) {
        if (name === current) continue
        try {
          const rec = await openRecording(join(recordings.dir, name))
          const settled = rec.status === 'recording' ? null : `${rec.status} ${rec.manifest.stoppedAt ?? ''}`
          out.runs.push(...(await this.runsOf(rec.dir, settled)).filter((e) => !seen.has(e.key)))
        } catch (e) {
          if (!isPsError(e)) throw e
          out.skipped.push({ name, code: e.code, message: e.message })
        }
      }
    }
    out.runs.sort((a, b) => b.at - a.at)
    return out
  }

  private async runsOf(dir: string, settled: string | null): Promise<RunEntry[]> {
    const hit = this.cache.get(dir)
    if (hit && settled !== null && hit.settled === settled) return hit.runs
    const entries = await recordingRuns(dir)
    if (settled !== null) this.cache.set(dir, { settled, runs: entries })
    return entries
  }

  /** The runs of these keys, in their order; PS_RUN_NOT_FOUND for a key not in the listing. */
  async pick(keys: readonly string[]): Promise<RunEntry[]> {
    const all = (await this.listing()).runs
    return keys.map((k) => {
      const e = all.find((x) => x.key === k)
      if (!e)
        throw new PsError(
          'PS_RUN_NOT_FOUND',
          `no run ${JSON.stringify(k)} in this server's runs or its recordings (GET /api/runs lists them)`,
        )
      return e
    })
  }

  /** POST /api/compare: the comparison, or the self-contained report of it. */
  async compare(keys: readonly string[], format: 'json' | 'html' = 'json'): Promise<{ json: Comparison } | { html: string }> {
    const runs = await this.pick(keys)
    return format === 'html' ? { html: reportHtml(runs) } : { json: compareRuns(runs) }
  }
}
