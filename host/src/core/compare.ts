/**
 * Runs side by side: each metric of the bench summary next to the baseline's (the first run), its
 * change, and one sentence per run on what changed and why. The sentence follows the rules of
 * docs/bench.md ("Why a run was faster"), written here once for `compare`, the server and the page.
 * Browser-safe: imports only core.
 *
 * Little's law splits a run's payload rate into three factors, reads in flight × payload per read
 * / latency, so the ratio of two runs' rates is the product of the three factors' ratios. The
 * sentence names the factor that moved most, and the limit each run hit.
 */
import { LIMIT_WORDS, sig, type RunEntry, type RunSummary } from './run-summary.js'
import { workloadLabel } from './workload.js'

/** Rates within this fraction of each other are the same speed (docs/bench.md). */
export const SAME_SPEED = 0.05

/** A run's name in a comparison: where it is kept, its id and its workload. */
export const runLabel = (e: Pick<RunEntry, 'recording' | 'id' | 'workload'>): string =>
  `${e.recording ?? 'server'} #${e.id} (${workloadLabel(e.workload)}${'offset' in e.workload && e.workload.offset ? ` +${e.workload.offset}` : ''})`

export interface ComparisonMetric {
  key: string
  label: string
  unit: string
  /** one value per run, in the runs' order; null where a run has none */
  values: (number | null)[]
  /** value / baseline's − 1 per run (the baseline's 0); null where either is missing or the baseline's is 0 */
  changes: (number | null)[]
  /** true when a larger value is better (GB/s), false when smaller is (latency), null when neither */
  higherIsBetter: boolean | null
}

export interface Comparison {
  runs: RunEntry[]
  metrics: ComparisonMetric[]
  /** each run's limit in words, in the runs' order */
  limits: string[]
  /** one sentence per run after the baseline: what changed against it and why */
  sentences: string[]
}

/** The factors of Little's law for a run: reads in flight, payload per read (B), latency (ns); null where one is unknown. */
export const littleFactors = (s: RunSummary): { inFlight: number; perRead: number; latency: number } | null => {
  const lat = s.latencyNs.mean
  if (!lat || s.wire.completions === 0 || s.inFlight.avg <= 0) return null
  // payload per read: the completed bytes over the reads (the mean MRd size, as every MRd completes)
  const perRead = s.requests.count > 0 ? s.bytes.completed / s.requests.count : 0
  if (perRead <= 0) return null
  return { inFlight: s.inFlight.avg, perRead, latency: lat }
}

const times = (r: number): string => (r >= 1 ? `${sig(r, 2)}×` : `${sig(1 / r, 2)}×`)

/** The sentence for run `b` against baseline `a` (docs/bench.md "Why a run was faster"). */
export function explainChange(a: RunEntry, b: RunEntry): string {
  const [sa, sb] = [a.summary, b.summary]
  const [na, nb] = [runLabel(a), runLabel(b)]
  if (sa.limit.kind === 'none' || sb.limit.kind === 'none') {
    return `${sa.limit.kind === 'none' ? na : nb} completed no read, so there is no rate to compare.`
  }
  const limits =
    sa.limit.kind === sb.limit.kind
      ? `both held by the ${LIMIT_WORDS[sb.limit.kind]}`
      : `${na} was held by the ${LIMIT_WORDS[sa.limit.kind]}, ${nb} by the ${LIMIT_WORDS[sb.limit.kind]}`
  const rates = `${sig(sa.gbPerSecond)} → ${sig(sb.gbPerSecond)} GB/s`
  const r = sa.gbPerSecond > 0 ? sb.gbPerSecond / sa.gbPerSecond : Infinity
  if (Math.abs(r - 1) < SAME_SPEED) return `${nb} runs at the speed of ${na} (${rates}, within ${100 * SAME_SPEED} %); ${limits}.`
  const fa = littleFactors(sa)
  const fb = littleFactors(sb)
  const head = `${nb} is ${times(r)} ${r > 1 ? 'faster' : 'slower'} than ${na} (${rates})`
  if (!fa || !fb) return `${head}; ${limits}.`
  // the factor of Little's law (rate = in flight × payload per read / latency) that moved most
  const factors = [
    { kind: 'size', ratio: fb.perRead / fa.perRead },
    { kind: 'inFlight', ratio: fb.inFlight / fa.inFlight },
    { kind: 'latency', ratio: fa.latency / fb.latency },
  ] as const
  const main = factors.reduce((m, f) => (Math.abs(Math.log(f.ratio)) > Math.abs(Math.log(m.ratio)) ? f : m))
  const eff = (s: RunSummary) => (s.wire.efficiency === null ? '–' : `${sig(100 * s.wire.efficiency)} %`)
  const why =
    main.kind === 'size'
      ? `each read carries ${sig(fb.perRead)} B against ${sig(fa.perRead)} B (wire efficiency ${eff(sa)} → ${eff(sb)})`
      : main.kind === 'inFlight'
        ? `it keeps ${sig(fb.inFlight)} reads in flight against ${sig(fa.inFlight)}`
        : `its reads take ${sig(fb.latency)} ns against ${sig(fa.latency)} ns`
  return `${head}: ${why}; ${limits}.`
}

const metric = (
  key: string,
  label: string,
  unit: string,
  runs: RunEntry[],
  of: (s: RunSummary) => number | null,
  higherIsBetter: boolean | null,
): ComparisonMetric => {
  const values = runs.map((r) => of(r.summary))
  const base = values[0] ?? null
  return {
    key,
    label,
    unit,
    values,
    changes: values.map((v) => (v === null || base === null || base === 0 ? null : v / base - 1)),
    higherIsBetter,
  }
}

/** The runs side by side, the first the baseline. At least two runs. */
export function compareRuns(runs: RunEntry[]): Comparison {
  if (runs.length < 2) throw new RangeError(`a comparison needs two runs or more, not ${runs.length}`)
  const metrics = [
    metric('gbPerSecond', 'payload', 'GB/s', runs, (s) => s.gbPerSecond, true),
    metric('requestsPerSecond', 'request rate', 'M MRd/s', runs, (s) => s.requests.perSecond / 1e6, null),
    metric('meanRequestBytes', 'mean request', 'B', runs, (s) => s.requests.meanBytes, null),
    metric('efficiency', 'wire efficiency', '%', runs, (s) => (s.wire.efficiency === null ? null : 100 * s.wire.efficiency), true),
    metric('inFlightAvg', 'reads in flight, average', 'reads', runs, (s) => s.inFlight.avg, null),
    metric('inFlightPeak', 'reads in flight, peak', 'reads', runs, (s) => s.inFlight.peak, null),
    metric('latencyP50', 'latency p50', 'ns', runs, (s) => s.latencyNs.p50, false),
    metric('latencyP99', 'latency p99', 'ns', runs, (s) => s.latencyNs.p99, false),
    metric(
      'ceilingFraction',
      'of the link ceiling',
      '%',
      runs,
      (s) => (s.ceiling.fraction === null ? null : 100 * s.ceiling.fraction),
      true,
    ),
  ]
  return {
    runs,
    metrics,
    limits: runs.map((r) => LIMIT_WORDS[r.summary.limit.kind]),
    sentences: runs.slice(1).map((b) => explainChange(runs[0]!, b)),
  }
}

/** A change as a reader sees it: "+12 %", "−3.4 %", "–" when unknown. */
export const changeText = (c: number | null): string =>
  c === null ? '–' : c === 0 ? '0 %' : `${c > 0 ? '+' : '−'}${sig(Math.abs(100 * c), 2)} %`
