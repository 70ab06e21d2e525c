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
import { listRecordings } from '../recording/catalog.js'
import { recordingRuns } from '../recording/run-summaries.js'
import type { RunService } from './runs.js'
import type { RecordingsDeps } from './recordings.js'

export interface RunHistoryDeps {
  runs: Pick<RunService, 'entries'>
  recordings: RecordingsDeps
}

/** The run history and comparisons of runs in it: GET /api/runs and POST /api/compare (routes.ts). */
export class RunHistory {
  /** closed recordings' runs, by directory and stop time */
  private readonly cache = new Map<string, { stoppedAt: string; runs: RunEntry[] }>()
  constructor(private readonly deps: RunHistoryDeps) {}

  /** GET /api/runs: every run, newest first. */
  async listing(): Promise<RunsListing> {
    const { runs, recordings } = this.deps
    const current = recordings.recording()
    const out: RunsListing = { runs: runs.entries(), skipped: [] }
    const seen = new Set(out.runs.map((r) => r.key))
    if (recordings.dir !== null) {
      const { recordings: found, skipped } = await listRecordings(recordings.dir)
      out.skipped.push(...skipped)
      for (const r of found) {
        if (r.name === current) continue
        try {
          // the runs this server recorded are listed already, under the same keys
          out.runs.push(...(await this.runsOf(r.dir, r.stoppedAt)).filter((e) => !seen.has(e.key)))
        } catch (e) {
          if (!isPsError(e)) throw e
          out.skipped.push({ name: r.name, code: e.code, message: e.message })
        }
      }
    }
    out.runs.sort((a, b) => b.at - a.at)
    return out
  }

  private async runsOf(dir: string, stoppedAt: string | null): Promise<RunEntry[]> {
    const hit = this.cache.get(dir)
    if (hit && stoppedAt !== null && hit.stoppedAt === stoppedAt) return hit.runs
    const entries = await recordingRuns(dir)
    if (stoppedAt !== null) this.cache.set(dir, { stoppedAt, runs: entries })
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
