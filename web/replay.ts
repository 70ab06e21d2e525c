/**
 * A saved recording as the messages a live server would have sent (DOM-free, unit-tested): the
 * page replays them into the same state and views as the live page, so a recording opens with
 * its charts, run bands, run list and latency exactly as they looked, without a device. Its
 * records come from the JSONL export (GET /api/recordings/:name/export?format=jsonl), the device
 * from its description (GET /api/recordings/:name: the manifest).
 *
 * The page imports only core/, so the records' shapes used here are written out below (they are
 * docs/recordings.md's records, read back as JSON).
 */
import type { PcieLinkInfo } from '../host/src/core/link.js'
import type { Counters, IntervalBatch, LatencyHistogram, ProbeInfo, Snapshot, TapHistogram, TapSnapshot } from '../host/src/core/probe.js'
import { summarizeRun, type RunSummary } from '../host/src/core/run-summary.js'
import type { CounterMeta, GpuCounterInterval, RunReport, ServerMessage } from '../host/src/core/wire.js'
import type { AnyWorkload, WorkloadResult } from '../host/src/core/workload.js'
import { COUNTERS } from '../host/src/core/generated.js'
import { counterDeltas } from '../host/src/core/rates.js'
import { bySizeFromCounters, totalRequests } from '../host/src/core/size-classes.js'
import { noLatencyHistograms } from '../host/src/core/latency-histogram.js'

/** The part of GET /api/recordings/:name the replay needs. */
export interface RecordingDescription {
  name: string
  source: 'twin' | 'serial'
  manifest: { path: string; probe: ProbeInfo; link: PcieLinkInfo | null }
}

type Origin = 'capture' | 'demo' | 'manual'

/** The recorded lines the page replays (others, such as raw frames and marks, are passed over). */
export type RecordedLine = { at: number; epoch?: number } & (
  | { t: 'snapshot'; snapshot: Snapshot }
  | { t: 'interval'; batch: IntervalBatch }
  | { t: 'histogram'; histogram: LatencyHistogram }
  | { t: 'tap-snapshot'; tapSnapshot: TapSnapshot }
  | { t: 'tap-histogram'; histogram: TapHistogram }
  | { t: 'run-start'; id: number; origin: Origin; workload: AnyWorkload; baseline: Snapshot | null }
  | {
      t: 'run'
      id: number
      origin: Origin
      workload: AnyWorkload
      probeWindow: { from: number; to: number } | null
      error: { code: string; message: string } | null
      result: unknown
    }
  | ({ t: 'gpu-counters'; source: 'gpu-counters' } & GpuCounterInterval)
  | { t: 'device' | 'mark' | 'gap' | 'frame' }
)

/** A message and the host time (ms) it would have arrived at. */
export interface ReplayStep {
  message: ServerMessage
  at: number
}

const COUNTER_META: CounterMeta[] = COUNTERS.map((c) => ({ key: c.key, name: c.name, index: c.index, doc: c.doc }))

/** Parse a JSONL export; torn or foreign lines are left out (counted). */
export function parseJsonl(text: string): { lines: RecordedLine[]; skipped: number } {
  const lines: RecordedLine[] = []
  let skipped = 0
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue
    try {
      const r = JSON.parse(raw) as RecordedLine
      if (typeof r === 'object' && r !== null && typeof r.t === 'string' && typeof r.at === 'number') lines.push(r)
      else skipped++
    } catch {
      skipped++
    }
  }
  return { lines, skipped }
}

/** The server's own report of a run, as `serve` records it. */
const isRunReport = (x: unknown): x is RunReport =>
  typeof x === 'object' && x !== null && 'probe' in x && 'probeWindow' in x && 'result' in x && 'countersEnabled' in x

const pageOrigin = (o: Origin): 'demo' | 'manual' => (o === 'demo' ? 'demo' : 'manual')

/**
 * A run recorded by `capture` (its own result, not a server's report): its report made from the
 * probe's counts between the run's baseline and the newest snapshot at its end.
 */
function reportOf(
  r: Extract<RecordedLine, { t: 'run' }>,
  baseline: Snapshot | undefined,
  end: Snapshot | undefined,
  desc: RecordingDescription,
): RunReport | null {
  if (!r.probeWindow || !baseline || !end) return null
  const probe = counterDeltas(baseline, end)
  const bySize = bySizeFromCounters(probe)
  const result: WorkloadResult = {
    workload: r.workload,
    issued: { count: totalRequests(bySize), bySize, bytes: probe.mrdBytes },
    completions: probe.cpldCount,
    payloadErrors: 0,
    simCycles: probe.cycles,
    wallSeconds: 0,
  }
  return {
    id: r.id,
    origin: pageOrigin(r.origin),
    result,
    probe,
    // counting at its end: a capture starts the counters after taking the baseline
    countersEnabled: end.enabled,
    probeWindow: r.probeWindow,
    startedAt: r.at,
    finishedAt: r.at,
    summary: summaryOf(probe, result.issued, desc),
  }
}

/** The bench summary of a run from its counter deltas (core/run-summary.ts, as the server makes it). */
const summaryOf = (probe: Counters, issued: { count: number; bytes: number } | null, desc: RecordingDescription): RunSummary =>
  summarizeRun({ counters: probe, clockHz: desc.manifest.probe.clockHz, link: desc.manifest.link, tagBudget: null, issued })

/** A server's report as recorded; one recorded before reports carried their summary gets it here. */
const withSummary = (rep: RunReport, desc: RecordingDescription): RunReport =>
  (rep as Partial<RunReport>).summary ? rep : { ...rep, summary: summaryOf(rep.probe, rep.result.issued, desc) }

/** The messages of a recording in order, starting with the hello of its device. */
export function replaySteps(desc: RecordingDescription, lines: readonly RecordedLine[]): ReplayStep[] {
  const first = lines[0]?.at ?? 0
  const steps: ReplayStep[] = [
    {
      at: first,
      message: {
        type: 'hello',
        source: desc.source,
        path: desc.manifest.path,
        info: desc.manifest.probe,
        pcieLink: desc.manifest.link,
        tagBudget: null,
        twinMode: null,
        counters: COUNTER_META,
        recent: [],
        latencyHistograms: noLatencyHistograms<LatencyHistogram>(),
        taps: {},
        lastRun: null,
      },
    },
  ]
  const baselines = new Map<number, Snapshot>()
  let newest: Snapshot | undefined
  const push = (message: ServerMessage, at: number) => steps.push({ message, at })
  for (const r of lines) {
    switch (r.t) {
      case 'snapshot':
        newest = r.snapshot
        push({ type: 'snapshot', snapshots: [r.snapshot], hostStats: null, wsDrops: 0 }, r.at)
        break
      case 'interval':
        push({ type: 'intervals', batch: r.batch }, r.at)
        break
      case 'histogram':
        push({ type: 'latency-histogram', histogram: r.histogram }, r.at)
        break
      case 'tap-snapshot':
        push({ type: 'snapshot', snapshots: [], tapSnapshots: [r.tapSnapshot], hostStats: null, wsDrops: 0 }, r.at)
        break
      case 'tap-histogram':
        push({ type: 'tap-histogram', histogram: r.histogram }, r.at)
        break
      case 'run-start':
        if (!r.baseline) break
        baselines.set(r.id, r.baseline)
        push({ type: 'run-start', id: r.id, origin: pageOrigin(r.origin), workload: r.workload, baseline: r.baseline }, r.at)
        break
      case 'run': {
        if (r.error) {
          push({ type: 'run-error', origin: pageOrigin(r.origin), error: r.error }, r.at)
          break
        }
        const report = isRunReport(r.result) ? withSummary(r.result, desc) : reportOf(r, baselines.get(r.id), newest, desc)
        if (report) push({ type: 'run', report, result: report.result, demo: { enabled: false, runs: 0, current: null } }, r.at)
        break
      }
      case 'gpu-counters': {
        const { t: _t, at: _at, epoch: _epoch, source: _source, ...interval } = r
        push({ type: 'gpu-counters', interval }, r.at)
        break
      }
      default:
        break
    }
  }
  return steps
}
