/**
 * Predict, then observe: what the model and the link say a run will do before it runs, and the
 * run's observation beside it. No formula of its own: the reads come from the model's warp table
 * (web/pattern-diagram.ts), the ceiling from core/link.ts (payloadCeiling), the bound on reads in
 * flight is Little's law as core/inflight.ts states it (payload rate = reads in flight × request
 * size / latency) at the tag budget and the completer's latency, the limit is web/model.ts's
 * limitOf, and the observation is core/inflight.ts's summary of the run's counter deltas.
 */
import type { RunReport } from '../host/src/core/wire.js'
import { inflightSummary } from '../host/src/core/inflight.js'
import { payloadCeiling, type PcieLinkInfo } from '../host/src/core/link.js'
import type { Counters } from '../host/src/core/probe.js'
import { bySizeFromCounters, SIZE_CLASSES, totalRequests, type BySize, type SizeKey } from '../host/src/core/size-classes.js'
import {
  chunkBytesOf,
  elementBytesOf,
  isGraphWorkload,
  l1Of,
  WORKLOAD_LIMITS,
  type AnyWorkload,
  type Workload,
} from '../host/src/core/workload.js'
import { int, limitOf, si, type Limit } from './model.js'
import { graphEntry, patternEntry, type TableCounts, type WarpTable } from './pattern-diagram.js'

/** What the page knows of the link and the completer before a run. */
export interface PredictEnv {
  link: PcieLinkInfo | null
  /** reads the requester may have outstanding (the twin's GPU model); null when unknown */
  tagBudget: number | null
  /** the completer's latency (BAR_LATENCY / clock), seconds; null when unknown */
  latencyS: number | null
}

export interface Prediction {
  /** MRds and bytes requested; null for a graph run (they depend on the graph: known after it) */
  mrds: number | null
  bySize: BySize | null
  requestBytes: number | null
  /** true when the counts are the model's for exactly these bytes (a multiple of the table's) */
  exact: boolean
  meanRequestBytes: number
  /** payload bytes/s the link allows for this mix (one completion per read); null when unknown */
  ceilingBps: number | null
  /** Little's law: tag budget × mean request / latency; null without a budget or a latency */
  littleBps: number | null
  payloadBps: number | null
  /** reads in flight at that rate (Little's law the other way round) */
  inflight: number | null
  limit: Limit | undefined
}

const scale = (a: TableCounts, b: TableCounts, blocks: number) => {
  const at = (x: number, y: number) => Math.round(x + (y - x) * (blocks - 1))
  const bySize = Object.fromEntries(SIZE_CLASSES.map((c) => [c.key, at(a.bySize[c.key], b.bySize[c.key])])) as BySize
  return { count: at(a.count, b.count), bytes: at(a.bytes, b.bytes), bySize }
}

/**
 * The model's reads of a micro workload: its table entry holds the whole workload at the table's
 * bytes and at twice them; a pattern repeats every table.bytes, so each further block adds the
 * difference (exact for whole blocks; test/web/pattern-diagram.int.test.ts checks it against
 * pcie-scope-model).
 */
export function predictedReads(w: Workload, t: WarpTable): { count: number; bytes: number; bySize: BySize; exact: boolean } | undefined {
  // the table's merged-chunked entry walks the spec's default chunk: another chunk has other ends
  if (w.pattern === 'merged-chunked' && chunkBytesOf(w) !== WORKLOAD_LIMITS.chunkBytes.default) return undefined
  const e = patternEntry(w.pattern, elementBytesOf(w), w.offset, t)
  const [one, two] = e?.totals ?? []
  if (!one || !two) return undefined
  const l1 = l1Of(w)
  const blocks = w.bytes / t.bytes
  return { ...scale(one[l1], two[l1], blocks), exact: Number.isInteger(blocks) && blocks >= 1 }
}

function limits(meanRequestBytes: number, requestBytes: number, count: number, env: PredictEnv) {
  const ceilingBps = payloadCeiling(env.link, requestBytes, count)
  const littleBps =
    env.tagBudget !== null && env.latencyS !== null && env.latencyS > 0 ? (env.tagBudget * meanRequestBytes) / env.latencyS : null
  const payloadBps = ceilingBps === null ? littleBps : littleBps === null ? ceilingBps : Math.min(ceilingBps, littleBps)
  const inflight =
    payloadBps !== null && env.latencyS !== null && meanRequestBytes > 0 ? (payloadBps * env.latencyS) / meanRequestBytes : null
  const limit = limitOf({
    payloadPerSec: payloadBps ?? undefined,
    ceilingPerSec: ceilingBps ?? undefined,
    avgOutstanding: inflight ?? undefined,
    tagBudget: env.tagBudget,
  })
  return { ceilingBps, littleBps, payloadBps, inflight, limit }
}

/** The prediction for a workload before it runs; undefined when the table has no entry for it. */
export function predict(w: AnyWorkload, env: PredictEnv, t: WarpTable): Prediction | undefined {
  if (isGraphWorkload(w)) {
    // the counts depend on the graph; the mix of the example's warp stands for the kernel's
    const e = graphEntry(w.pattern, w.idBytes ?? 8, t)
    if (!e || e.total.count === 0) return undefined
    const mean = e.total.bytes / e.total.count
    return {
      mrds: null,
      bySize: null,
      requestBytes: null,
      exact: false,
      meanRequestBytes: mean,
      ...limits(mean, e.total.bytes, e.total.count, env),
    }
  }
  const r = predictedReads(w, t)
  if (!r || r.count === 0) return undefined
  const mean = r.bytes / r.count
  return {
    mrds: r.count,
    bySize: r.bySize,
    requestBytes: r.bytes,
    exact: r.exact,
    meanRequestBytes: mean,
    ...limits(mean, r.bytes, r.count, env),
  }
}

/** What a run did, from its counter deltas (the probe) or, on a GPU, from its timing. */
export interface Observation {
  mrds: number
  bySize: BySize
  requestBytes: number
  meanRequestBytes: number
  payloadBps: number | null
  inflight: number | null
  latencyS: number | null
  /** the probe counted the reads (false on a GPU run: the model's count stands in) */
  counted: boolean
}

export function observe(r: RunReport, clockHz: number | undefined, tagBudget: number | null): Observation {
  const gpu = r.result.gpu
  if (!r.countersEnabled || gpu || !clockHz) {
    const i = r.result.issued
    return {
      mrds: i.count,
      bySize: { ...i.bySize },
      requestBytes: i.bytes,
      meanRequestBytes: i.count ? i.bytes / i.count : 0,
      payloadBps: gpu ? gpu.kernelGbps * 1e9 : null,
      inflight: null,
      latencyS: null,
      counted: false,
    }
  }
  const d = r.probe as Counters
  const bySize = bySizeFromCounters(d)
  const mrds = totalRequests(bySize)
  const s = inflightSummary(d, clockHz, tagBudget)
  const seconds = d.cycles / clockHz
  return {
    mrds,
    bySize,
    requestBytes: d.mrdBytes,
    meanRequestBytes: mrds ? d.mrdBytes / mrds : 0,
    payloadBps: seconds > 0 ? d.cpldBytes / seconds : null,
    inflight: s.outstanding.avg,
    latencyS: s.latencyNs.last.mean === null ? null : s.latencyNs.last.mean / 1e9,
    counted: true,
  }
}

/** One line of the table: the prediction, the observation, and whether they differ by more than `tolerance`. */
export interface CompareRow {
  key: string
  label: string
  predicted: string
  observed: string
  /** (observed - predicted) / predicted in percent; null when either side is unknown */
  differencePercent: number | null
  differs: boolean
}

/** Beyond this the page highlights the difference: what the lesson asks the reader to explain. */
export const DIFFERS_PERCENT = 10

const row = (key: string, label: string, p: number | null, o: number | null | undefined, fmt: (v: number) => string): CompareRow => {
  const diff = p !== null && o !== null && o !== undefined && p !== 0 ? ((o - p) / p) * 100 : null
  return {
    key,
    label,
    predicted: p === null ? '–' : fmt(p),
    observed: o === null || o === undefined ? '–' : fmt(o),
    differencePercent: diff,
    differs: diff !== null && Math.abs(diff) > DIFFERS_PERCENT,
  }
}

const gbps = (v: number) => `${(v / 1e9).toFixed(2)} GB/s`

/** The table's rows; `o` absent before the run. */
export function compareRows(p: Prediction, env: PredictEnv, o?: Observation): CompareRow[] {
  const rows: CompareRow[] = [row('mrds', 'memory reads (MRd)', p.mrds, o?.mrds, int)]
  for (const c of SIZE_CLASSES) {
    const pv = p.bySize?.[c.key as SizeKey] ?? null
    const ov = o?.bySize[c.key as SizeKey]
    if ((pv ?? 0) > 0 || (ov ?? 0) > 0) rows.push(row(`size-${c.key}`, `  ${c.label} reads`, pv, ov, int))
  }
  rows.push(
    row('mean-size', 'mean request', p.meanRequestBytes, o?.meanRequestBytes, (v) => `${v.toFixed(1)} B`),
    row('ceiling', 'link ceiling for this mix', p.ceilingBps, null, gbps),
    row('little', `Little's law: ${env.tagBudget ?? '?'} tags × mean request / latency`, p.littleBps, null, gbps),
    row('payload', 'payload rate', p.payloadBps, o?.payloadBps, gbps),
    row('latency', 'latency (predicted: the completer’s alone)', env.latencyS, o?.latencyS, (v) => si(v, 's')),
    row('inflight', 'reads in flight', p.inflight, o?.inflight, (v) => v.toFixed(1)),
  )
  return rows
}

/** The limit in words, for the line under the table. */
export const LIMIT_WORDS: Record<Limit, string> = {
  wire: 'the link: the reads fill the wire, more tags or less latency would not help',
  tags: 'the tags: every tag is in flight, a shorter latency or larger reads would raise the rate',
  latency: 'the latency: too few reads in flight to cover the round trip',
}
