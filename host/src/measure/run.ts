/**
 * measureRun: one workload, measured by the probe.
 *
 *   hello → LINK_INFO → [SET_FILTER] → [SET_SAMPLE_PERIOD] → STOP → CLEAR → [SNAPSHOT: baseline,
 *   when recording] → START(period) → run the workload (session.runner) → LATENCY_HISTOGRAM (an
 *   on-demand snapshot and the latency histograms read with it, after the workload's done line) →
 *   STOP → [wait for the last INTERVAL frames, SET_SAMPLE_PERIOD 0]
 *
 * `requests`, `bytes`, `completions` and `cycles` come from the probe snapshot, i.e. the FPGA's
 * counters read over the UART. What the workload side says it issued (`model`) is a separate
 * cross-check, never the source of the numbers.
 */
import { PsError } from '../core/errors.js'
import type { DeviceSession } from '../device/session.js'
import type { TapView } from '../device/client.js'
import { payloadCeiling, type PcieLinkInfo } from '../core/link.js'
import type {
  FirmwareLinkStats,
  HostLinkStats,
  IntervalBatch,
  IntervalRecord,
  LatencyHistograms,
  LinkInfo,
  Snapshot,
} from '../core/probe.js'
import { bySizeFromCounters, sameMrdCounts, totalRequests, type BySize } from '../core/size-classes.js'
import {
  isGraphWorkload,
  workloadLabel,
  type AnyWorkload,
  type GpuGraphSummary,
  type GpuRunSummary,
  type GraphRunFacts,
  type WorkloadResult,
} from '../core/workload.js'
import type { GraphKernelName, PatternName } from '../core/generated.js'
import { createLogger } from '../util/log.js'
import { inflightSummary, type InflightSummary } from '../core/inflight.js'
import { validateAnyWorkload } from '../core/workload-schema.js'
import type { TwinMode } from '../core/twin-mode.js'
import { summarizeRun, type RunSummary } from '../core/run-summary.js'

const log = createLogger('ps:measure')

export interface RunResult {
  source: 'twin' | 'serial'
  /** the twin's design: switch (its default; `hostSide` then holds the host side) or endpoint; absent on a board */
  twinMode?: TwinMode
  /** a micro pattern or a graph kernel */
  pattern: PatternName | GraphKernelName
  /** a micro pattern's offset within a line (absent for a graph kernel) */
  offset?: number
  /** the workload as run (pattern, useful bytes, offset; or kernel, graph, id width) */
  workload: AnyWorkload
  /** a graph kernel: the graph as the runner loaded it (vertices, edges, root, levels) */
  graph?: GraphRunFacts
  /** memory-read requests counted by the probe */
  requests: { count: number; bySize: BySize }
  /** requested bytes (MRd) and completed payload bytes (CplD), counted by the probe */
  bytes: { requested: number; completed: number }
  /** completions counted by the probe: with data (count, payload bytes), without data, errors by status */
  completions: InflightSummary['completions']
  /** memory writes counted by the probe (inside the filter window) and the bytes their enables wrote */
  writes: { count: number; bytes: number }
  /** TLPs with EP (poisoned) set, on either direction, whatever the filter */
  poisoned: number
  /** probe clock cycles while the counters were enabled */
  cycles: number
  /** the same window in nanoseconds */
  durationNs: number
  /** reads in flight: average and peak, next to the requester's tag budget */
  outstanding: InflightSummary['outstanding']
  /** request to first and to last completion of each read, in ns (p50/p99 from the histogram of each) */
  latencyNs: InflightSummary['latencyNs']
  /** the probe's first- and last-completion latency histograms, read with the final snapshot */
  latencyHistograms: InflightSummary['latencyHistograms']
  /** read rate × mean latency next to the measured average outstanding */
  littlesLaw: InflightSummary['littlesLaw']
  /**
   * the probe's TIMESTAMP when the counters were enabled (START) and at the final snapshot:
   * `to − cycles` and `to`, since both count the same clock while enabled
   */
  probeWindow: { from: number; to: number }
  /** cycles / clockHz: simulated (twin) or real (board) seconds */
  seconds: number
  clockHz: number
  rates: { mrdPerSecond: number; gbPerSecond: number }
  /**
   * The PCIe link and what it allows: the payload ceiling (GB/s) for the completions the probe
   * counted, each paying 20 B of header and framing (null when the link is unknown or ideal)
   */
  pcie: { link: string | null; tlpGbPerSecond: number | null; ceilingGbPerSecond: number | null }
  /** what the workload side (traffic model) says it issued; a cross-check */
  model: {
    kind: 'twin' | 'cuda'
    issued: { count: number; bySize: BySize; bytes: number }
    completions: number
    payloadErrors: number
    simCycles: number
    wallSeconds: number
    /** issued count, sizes and bytes equal the probe's counters */
    matchesProbe: boolean
    /** a GPU run: what the kernel measured (timings, GB/s, device, checksum) */
    gpu?: GpuRunSummary
    /** a GPU run of a graph kernel: BFS time, TEPS, edge-list GB/s, levels checked against the CPU's */
    gpuGraph?: GpuGraphSummary
  }
  link: { host: HostLinkStats; firmware: FirmwareLinkStats; snapshotIndex: number; snapshotSeq: number }
  barLatencyCycles: number
  /** host wall-clock seconds for the whole run */
  wallSeconds: number
  /** the probe's info registers (link, MPS, MRRS, RCB, tag bits, clock, build id) and its sampler and filter settings */
  linkInfo?: LinkInfo
  /** the address filter in force, when one was set */
  filter?: { base: number; limit: number }
  /** interval records received while sampling (absent without a sample period) */
  intervals?: RunIntervals
  /**
   * The switch design's host-side tap (absent with one tap): the same reads as the switch sends
   * them to the host and the host's completions as they arrive, so its latency is the host's
   * alone; the top-level numbers are the GPU side's, which add the switch's traversal both ways.
   */
  hostSide?: TapSummary
  /** the bench summary (core/run-summary.ts): GB/s, request rate, wire efficiency, tags, latency, the limit it hit */
  summary: RunSummary
}

/** A further probe tap's view of the same run, from its counters and histograms of the final snapshot. */
export interface TapSummary {
  requests: { count: number; bySize: BySize }
  bytes: { requested: number; completed: number }
  completions: InflightSummary['completions']
  outstanding: InflightSummary['outstanding']
  latencyNs: InflightSummary['latencyNs']
  latencyHistograms: InflightSummary['latencyHistograms']
  littlesLaw: InflightSummary['littlesLaw']
  /** its TIMESTAMP at the snapshot (a few clocks after tap 0's: the taps are snapshotted in turn) */
  timestamp: number
}

export interface RunIntervals {
  periodCycles: number
  periodNs: number
  /** records of the probe window: those that closed by the final snapshot's TIMESTAMP */
  count: number
  /**
   * records that closed after it, while the firmware read the latency histograms and before STOP:
   * clocks outside the window the result describes, so left out of `records` and `totals`
   */
  afterWindow: number
  /** records the firmware dropped (UART back-pressure), reported in INTERVAL frames */
  dropped: number
  /** records the probe's FIFO dropped (SAMPLE_OVERFLOW at the last frame) */
  overflow: number
  /** sums over the received records: the open interval at STOP never closes, so these trail the snapshot by at most one period */
  totals: { mrdCount: number; mrdBytes: number; cpldCount: number; cpldBytes: number }
  records: IntervalRecord[]
}

export interface RunOptions {
  /** snapshot streaming period during the run (0 = firmware default) */
  periodMs?: number
  signal?: AbortSignal
  /** progress lines (the CLI sends them to stderr) */
  onProgress?: (msg: string) => void
  /**
   * Called before START with an on-demand snapshot of the cleared counters, so that a recording
   * holds a first point to take rates from. The baseline is read while the counters are
   * disabled: CYCLES and the result do not change. Without this hook no baseline is taken.
   */
  onRunStart?: (baseline: Snapshot) => void
  /** interval sampler period in probe clocks (SET_SAMPLE_PERIOD); unset or 0: no sampling */
  samplePeriodCycles?: number
  /** count only reads with addresses in [base, limit] (SET_FILTER) */
  filter?: { base: number; limit: number }
}

/** After STOP, how long to wait for INTERVAL frames still on their way (the firmware flushes a partial frame after 10 ms). */
const INTERVAL_SETTLE_MS = 60

const summarizeIntervals = (batches: IntervalBatch[], periodCycles: number, clockHz: number, windowEnd: number): RunIntervals => {
  const received = batches.flatMap((b) => b.records)
  const records = received.filter((r) => r.ts <= windowEnd)
  const sum = (k: keyof IntervalRecord) => records.reduce((a, r) => a + r[k], 0)
  return {
    periodCycles,
    periodNs: clockHz > 0 ? (periodCycles / clockHz) * 1e9 : 0,
    count: records.length,
    afterWindow: received.length - records.length,
    dropped: batches.reduce((a, b) => a + b.dropped, 0),
    overflow: batches.at(-1)?.overflow ?? 0,
    totals: { mrdCount: sum('mrdCount'), mrdBytes: sum('mrdBytes'), cpldCount: sum('cpldCount'), cpldBytes: sum('cpldBytes') },
    records,
  }
}

const requestsFromSnapshot = (s: Pick<Snapshot, 'counters'>): { count: number; bySize: BySize } => {
  const bySize = bySizeFromCounters(s.counters)
  return { count: totalRequests(bySize), bySize }
}

const tapSummary = (view: TapView, clockHz: number, tagBudget: number | null): TapSummary => {
  const c = view.snapshot.counters
  const inflight = inflightSummary(c, clockHz, tagBudget, view.histograms)
  return {
    requests: requestsFromSnapshot(view.snapshot),
    bytes: { requested: c.mrdBytes, completed: c.cpldBytes },
    completions: inflight.completions,
    outstanding: inflight.outstanding,
    latencyNs: inflight.latencyNs,
    latencyHistograms: inflight.latencyHistograms,
    littlesLaw: inflight.littlesLaw,
    timestamp: c.timestamp,
  }
}

const pcieSummary = (link: PcieLinkInfo | null | undefined, payloadBytes: number, completions: number): RunResult['pcie'] => {
  const ceiling = payloadCeiling(link, payloadBytes, completions)
  return {
    link: link?.name ?? null,
    tlpGbPerSecond: link?.tlpBytesPerSecond != null ? link.tlpBytesPerSecond / 1e9 : null,
    ceilingGbPerSecond: ceiling === null ? null : ceiling / 1e9,
  }
}

const buildRunResult = (
  session: Pick<DeviceSession, 'source' | 'info' | 'client' | 'pcieLink' | 'tagBudget' | 'twinMode'>,
  workload: AnyWorkload,
  snap: Snapshot,
  histograms: LatencyHistograms,
  model: WorkloadResult,
  runnerKind: 'twin' | 'cuda',
  wallSeconds: number,
): RunResult => {
  const requests = requestsFromSnapshot(snap)
  const clockHz = session.info.clockHz
  const cycles = snap.counters.cycles
  const seconds = clockHz > 0 ? cycles / clockHz : 0
  const requested = snap.counters.mrdBytes
  const issued = { count: model.issued.count, bySize: { ...model.issued.bySize }, bytes: model.issued.bytes }
  const inflight = inflightSummary(snap.counters, clockHz, session.tagBudget ?? null, histograms)
  const matchesProbe = sameMrdCounts(issued, { ...requests, bytes: requested })
  return {
    source: session.source,
    ...(session.twinMode !== undefined ? { twinMode: session.twinMode } : {}),
    pattern: workload.pattern,
    ...(isGraphWorkload(workload) ? {} : { offset: workload.offset }),
    workload,
    ...(model.graph ? { graph: { ...model.graph } } : {}),
    requests,
    bytes: { requested, completed: snap.counters.cpldBytes },
    completions: inflight.completions,
    writes: { count: snap.counters.mwrCount, bytes: snap.counters.mwrBytes },
    poisoned: snap.counters.poisoned,
    cycles,
    durationNs: inflight.durationNs,
    outstanding: inflight.outstanding,
    latencyNs: inflight.latencyNs,
    latencyHistograms: inflight.latencyHistograms,
    littlesLaw: inflight.littlesLaw,
    probeWindow: { from: snap.counters.timestamp - cycles, to: snap.counters.timestamp },
    seconds,
    clockHz,
    rates: {
      mrdPerSecond: seconds > 0 ? requests.count / seconds : 0,
      gbPerSecond: seconds > 0 ? requested / seconds / 1e9 : 0,
    },
    pcie: pcieSummary(session.pcieLink, snap.counters.cpldBytes, snap.counters.cpldCount),
    model: {
      kind: runnerKind,
      issued,
      completions: model.completions,
      payloadErrors: model.payloadErrors,
      simCycles: model.simCycles,
      wallSeconds: model.wallSeconds,
      matchesProbe,
      ...(model.gpu ? { gpu: model.gpu } : {}),
      ...(model.gpuGraph ? { gpuGraph: model.gpuGraph } : {}),
    },
    link: { host: session.client.hostStats(), firmware: { ...snap.firmware }, snapshotIndex: snap.index, snapshotSeq: snap.seq },
    barLatencyCycles: session.info.barLatencyCycles,
    wallSeconds,
    // the probe was cleared before the run: the snapshot's counters and histograms are the run's
    summary: summarizeRun({
      counters: snap.counters,
      clockHz,
      tagBudget: session.tagBudget ?? null,
      link: session.pcieLink,
      histograms,
      issued: { count: issued.count, bytes: issued.bytes },
    }),
  }
}

export const measureRun = async (session: DeviceSession, workload: AnyWorkload, opts: RunOptions = {}): Promise<RunResult> => {
  const w = validateAnyWorkload(workload)
  const runner = session.runner
  if (!runner) {
    throw new PsError(
      'PS_WORKLOAD_UNSUPPORTED',
      `no workload runner for a ${session.source} session on ${session.path}: a board run needs a GPU runner (pcie-scope capture --gpu --port PATH), or use --twin`,
    )
  }
  const progress = (m: string) => {
    log.debug(m)
    opts.onProgress?.(m)
  }
  const t0 = performance.now()
  const { client } = session
  progress('hello')
  await client.hello()
  if (opts.filter) await client.setFilter(opts.filter.base, opts.filter.limit)
  const period = opts.samplePeriodCycles ?? 0
  const batches: IntervalBatch[] = []
  const onInterval = (b: IntervalBatch) => batches.push(b)
  if (period > 0) {
    client.on('interval', onInterval)
    await client.setSamplePeriod(period)
  }
  // after the settings, so the reply shows them too
  const linkInfo = await client.linkInfo()
  try {
    return await measure(session, w, opts, t0, { linkInfo, period, batches })
  } finally {
    client.off('interval', onInterval)
  }
}

/**
 * STOP, CLEAR (the baseline snapshot to `onRunStart`, when given), START, then `run`: what the
 * probe counts from here on is the run's. A failed run STOPs the probe again before its error
 * goes on; after a run the caller reads the counters and STOPs.
 */
export const runOnCleanProbe = async <T>(
  client: Pick<DeviceSession['client'], 'stop' | 'clear' | 'start' | 'snapshot'>,
  run: () => Promise<T>,
  opts: { periodMs?: number; onRunStart?: (baseline: Snapshot) => void } = {},
): Promise<T> => {
  await client.stop()
  await client.clear()
  if (opts.onRunStart) opts.onRunStart(await client.snapshot())
  await client.start(opts.periodMs ?? 0)
  try {
    return await run()
  } catch (e) {
    await client.stop().catch(() => undefined)
    throw e
  }
}

const measure = async (
  session: DeviceSession,
  w: AnyWorkload,
  opts: RunOptions,
  t0: number,
  sampling: { linkInfo: LinkInfo; period: number; batches: IntervalBatch[] },
): Promise<RunResult> => {
  const progress = (m: string) => {
    log.debug(m)
    opts.onProgress?.(m)
  }
  const { client } = session
  const runner = session.runner!
  const model = await runOnCleanProbe(
    client,
    () => {
      progress(`running ${workloadLabel(w)} on the ${runner.kind} runner`)
      return runner.run(w, opts.signal)
    },
    opts,
  )
  progress(`workload done (${model.issued.count} MRd issued); reading the probe counters`)
  const { snapshot: snap, histograms, taps } = await client.latencyHistograms()
  await client.stop()
  if (sampling.period > 0) {
    await new Promise((res) => setTimeout(res, INTERVAL_SETTLE_MS))
    await client.setSamplePeriod(0)
  }
  const result = buildRunResult(session, w, snap, histograms, model, runner.kind, (performance.now() - t0) / 1000)
  result.linkInfo = sampling.linkInfo
  if (taps.hostSide) result.hostSide = tapSummary(taps.hostSide, session.info.clockHz, session.tagBudget ?? null)
  if (opts.filter) result.filter = { ...opts.filter }
  if (sampling.period > 0)
    result.intervals = summarizeIntervals(sampling.batches, sampling.period, session.info.clockHz, result.probeWindow.to)
  if (!result.model.matchesProbe) progress('warning: the probe counters differ from what the model says it issued')
  return result
}
