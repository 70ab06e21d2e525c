/**
 * Perfetto / Chrome trace-event JSON export (opens in ui.perfetto.dev and chrome://tracing).
 *
 *   counter tracks, one sample per interval between consecutive snapshots, held until the next:
 *     "MRd rate" {MRd/s}, "completed payload" {GB/s}, "MRd rate by size" {<class label>: MRd/s}
 *     (a clear, a device event or an interval without enabled cycles drops them to 0)
 *   slices on the "runs" track: one per workload run, over its probe window
 *   instants on the "events" track: marks (start, stop, clear) and device events
 *   switch design only (tap-snapshot records): a second process, "pcie-scope NAME host side",
 *     with the same three counter tracks from the host side's snapshots (the reads as the switch
 *     sends them on to the host); the first process is then the GPU side
 *   the GPU's own PCIe counters (gpu-counters records, `serve --gpu-counters`): a third process,
 *     "pcie-scope NAME GPU counters", with "GPU PCIe read" {GB/s}, "GPU MRd rate" {MRd/s} and
 *     "GPU mean request" {B}, a sample per interval; its times are the counter source's clock
 *     (µs since its origin), not aligned with the probe's
 *
 * Timestamps are µs of probe time, TIMESTAMP / clockHz (probe-time.ts keeps them in order across
 * a probe reset). Events are streamed as records are read, so a long recording never sits in memory.
 */
import { SIZE_CLASSES } from '../core/size-classes.js'
import { workloadLabel } from '../core/workload.js'
import type { Snapshot, TapSnapshot } from '../core/probe.js'
import type { OpenedRecording } from '../recording/catalog.js'
import type { AnyRecord, GpuCountersRecord, RunStartRecord } from '../recording/format.js'
import { ProbeTimeline, ratesBetween, type IntervalRates } from './probe-time.js'

const PID = 1
/** the switch design's host side: its counter tracks in a process of their own (process 1, the recording's, is the GPU side) */
const PID_HOST_SIDE = 2
/** the GPU's own counters: a process of their own, on their own clock */
const PID_GPU_COUNTERS = 3
const TID_RUNS = 1
const TID_EVENTS = 2

export const COUNTER_TRACKS = { mrd: 'MRd rate', payload: 'completed payload', bySize: 'MRd rate by size' } as const
export const GPU_COUNTER_TRACKS = { read: 'GPU PCIe read', requests: 'GPU MRd rate', mean: 'GPU mean request' } as const

export interface TraceEvent {
  name: string
  ph: 'M' | 'C' | 'X' | 'i'
  ts: number
  pid: number
  tid?: number
  dur?: number
  s?: 't'
  cat?: string
  args?: Record<string, unknown>
}

const counterEvents = (pid: number, ts: number, r: IntervalRates | undefined): TraceEvent[] => [
  { name: COUNTER_TRACKS.mrd, ph: 'C', ts, pid, args: { 'MRd/s': r?.mrdPerSecond ?? 0 } },
  { name: COUNTER_TRACKS.payload, ph: 'C', ts, pid, args: { 'GB/s': r?.payloadGbPerSecond ?? 0 } },
  {
    name: COUNTER_TRACKS.bySize,
    ph: 'C',
    ts,
    pid,
    args: Object.fromEntries(SIZE_CLASSES.map((c) => [c.label, r?.bySizePerSecond[c.key] ?? 0])),
  },
]

/**
 * One tap's counter tracks: a sample per interval between its consecutive snapshots, dropped to
 * 0 where the counters cannot be compared (a clear, a device event).
 */
class CounterStretch {
  private prev: { counters: Snapshot['counters']; us: number } | undefined
  /** time of the last counter sample, and whether it was the zero that ends a stretch */
  private lastCounterUs = -Infinity
  private countersAtZero = true

  constructor(
    private readonly pid: number,
    private readonly clockHz: number,
  ) {}

  /** A snapshot of this tap at `us` on the trace's axis. */
  observe(s: Pick<Snapshot, 'counters'>, us: number): TraceEvent[] {
    const out: TraceEvent[] = []
    if (this.prev && us > this.prev.us) {
      const rates = ratesBetween(this.prev, s, this.clockHz)
      if (rates) out.push(...this.counters(this.prev.us, rates))
      else out.push(...this.zero(this.prev.us))
    }
    if (!this.prev || us > this.prev.us) this.prev = { counters: s.counters, us }
    return out
  }

  /** The counters cannot be compared across this point: close the stretch at the last snapshot. */
  break(): TraceEvent[] {
    const out = this.prev ? this.zero(this.prev.us) : []
    this.prev = undefined
    return out
  }

  private counters(ts: number, rates: IntervalRates | undefined): TraceEvent[] {
    if (!(ts > this.lastCounterUs)) return []
    this.lastCounterUs = ts
    this.countersAtZero = rates === undefined
    return counterEvents(this.pid, ts, rates)
  }

  private zero(ts: number): TraceEvent[] {
    return this.countersAtZero ? [] : this.counters(ts, undefined)
  }
}

const metadata = (recording: OpenedRecording): TraceEvent[] => [
  { name: 'process_name', ph: 'M', ts: 0, pid: PID, args: { name: `pcie-scope ${recording.manifest.name}` } },
  { name: 'thread_name', ph: 'M', ts: 0, pid: PID, tid: TID_RUNS, args: { name: 'runs' } },
  { name: 'thread_name', ph: 'M', ts: 0, pid: PID, tid: TID_EVENTS, args: { name: 'events' } },
]

/** Turns records into trace events, in the order read. */
class TraceBuilder {
  private readonly timeline: ProbeTimeline
  private readonly gpuSide: CounterStretch
  /** the host side's tracks, from its first tap snapshot on (the switch design) */
  private hostSide: CounterStretch | undefined
  private readonly openRuns = new Map<number, { start: RunStartRecord; fromUs: number | undefined }>()
  /** the GPU counters' process is named at their first record; the end of their last interval */
  private gpuCountersEndUs: number | undefined
  /** instants met before the first snapshot: they wait for a time to stand at */
  private pending: { name: string; args: Record<string, unknown> }[] = []

  constructor(
    private readonly clockHz: number,
    private readonly recordingName: string,
  ) {
    this.timeline = new ProbeTimeline(clockHz)
    this.gpuSide = new CounterStretch(PID, clockHz)
  }

  add(r: AnyRecord): TraceEvent[] {
    switch (r.t) {
      case 'snapshot':
        return this.snapshot(r.snapshot, r.epoch ?? 0)
      case 'tap-snapshot':
        return this.tapSnapshot(r.tapSnapshot)
      case 'interval':
      case 'histogram':
      case 'tap-histogram':
        return [] // the sampler's records (the VCD export's) and the latency histograms are not drawn in the trace
      case 'frame':
        return [] // raw link frames: the pcapng export's
      case 'gpu-counters':
        return this.gpuCounters(r)
      case 'mark': {
        const out = r.label === 'clear' ? this.breakCounters() : []
        return [...out, ...this.instant(`mark: ${r.label}`, { label: r.label, note: r.note })]
      }
      case 'device':
        return [...this.breakCounters(), ...this.instant(`device: ${r.event}`, { event: r.event, error: r.error })]
      case 'gap':
        return [...this.breakCounters(), ...this.instant('device gap', { from: r.from, to: r.to, ms: r.to - r.from, reason: r.reason })]
      case 'run-start': {
        // without a baseline the run starts after the last snapshot seen (or at the next one)
        const from = r.baseline ? this.timeline.us(r.baseline.counters.timestamp) : this.timeline.lastUs
        this.openRuns.set(r.id, { start: r, fromUs: from })
        return []
      }
      case 'run': {
        const open = this.openRuns.get(r.id)
        this.openRuns.delete(r.id)
        const from = r.probeWindow ? this.timeline.us(r.probeWindow.from) : open?.fromUs
        const to = r.probeWindow ? this.timeline.us(r.probeWindow.to) : this.timeline.lastUs
        if (from === undefined || to === undefined) return []
        return [this.slice(r.workload, from, to, { id: r.id, origin: r.origin, ...(r.error ? { error: r.error } : {}) })]
      }
    }
  }

  /** What is still open at the end: the last counter stretch and runs that never reported. */
  finish(): TraceEvent[] {
    const out = this.breakCounters()
    if (this.gpuCountersEndUs !== undefined) out.push(...this.gpuCounterEvents(this.gpuCountersEndUs, 0, 0, 0))
    const end = this.timeline.lastUs
    for (const { start, fromUs } of this.openRuns.values()) {
      if (fromUs !== undefined && end !== undefined) {
        out.push(this.slice(start.workload, fromUs, end, { id: start.id, origin: start.origin, incomplete: true }))
      }
    }
    this.openRuns.clear()
    return out
  }

  private snapshot(s: Snapshot, epoch: number): TraceEvent[] {
    const us = this.timeline.observe(s, epoch)
    const out: TraceEvent[] = this.pending.map((p) => ({ name: p.name, ph: 'i', s: 't', ts: us, pid: PID, tid: TID_EVENTS, args: p.args }))
    this.pending = []
    for (const run of this.openRuns.values()) run.fromUs ??= us
    out.push(...this.gpuSide.observe(s, us))
    return out
  }

  /** A host-side snapshot: on the same probe clock, so on the axis its SNAPSHOT set. */
  private tapSnapshot(t: TapSnapshot): TraceEvent[] {
    if (t.tap !== 'hostSide' || this.timeline.lastUs === undefined) return []
    const out: TraceEvent[] = []
    if (!this.hostSide) {
      this.hostSide = new CounterStretch(PID_HOST_SIDE, this.clockHz)
      out.push({ name: 'process_name', ph: 'M', ts: 0, pid: PID_HOST_SIDE, args: { name: `pcie-scope ${this.recordingName} host side` } })
    }
    out.push(...this.hostSide.observe(t, this.timeline.us(t.counters.timestamp)))
    return out
  }

  /** An interval of the GPU's own counters: held from its start until the next one. */
  private gpuCounters(r: GpuCountersRecord): TraceEvent[] {
    const out: TraceEvent[] = []
    if (this.gpuCountersEndUs === undefined)
      out.push({
        name: 'process_name',
        ph: 'M',
        ts: 0,
        pid: PID_GPU_COUNTERS,
        args: { name: `pcie-scope ${this.recordingName} GPU counters (device ${r.device}, ${r.counterSource})` },
      })
    this.gpuCountersEndUs = r.endNs / 1000
    out.push(...this.gpuCounterEvents(r.startNs / 1000, r.readGBps, r.requestsPerSecond, r.meanRequestBytes ?? 0))
    return out
  }

  private gpuCounterEvents(ts: number, readGBps: number, requestsPerSecond: number, meanBytes: number): TraceEvent[] {
    return [
      { name: GPU_COUNTER_TRACKS.read, ph: 'C', ts, pid: PID_GPU_COUNTERS, args: { 'GB/s': readGBps } },
      { name: GPU_COUNTER_TRACKS.requests, ph: 'C', ts, pid: PID_GPU_COUNTERS, args: { 'MRd/s': requestsPerSecond } },
      { name: GPU_COUNTER_TRACKS.mean, ph: 'C', ts, pid: PID_GPU_COUNTERS, args: { B: meanBytes } },
    ]
  }

  /** The counters cannot be compared across this point: close both taps' stretches at their last snapshots. */
  private breakCounters(): TraceEvent[] {
    return [...this.gpuSide.break(), ...(this.hostSide?.break() ?? [])]
  }

  private instant(name: string, args: Record<string, unknown>): TraceEvent[] {
    const ts = this.timeline.lastUs
    if (ts === undefined) {
      this.pending.push({ name, args })
      return []
    }
    return [{ name, ph: 'i', s: 't', ts, pid: PID, tid: TID_EVENTS, args }]
  }

  private slice(w: RunStartRecord['workload'], fromUs: number, toUs: number, args: Record<string, unknown>): TraceEvent {
    return {
      name: workloadLabel(w),
      cat: 'run',
      ph: 'X',
      ts: fromUs,
      dur: Math.max(0, toUs - fromUs),
      pid: PID,
      tid: TID_RUNS,
      args: { ...w, ...args },
    }
  }
}

export async function* exportPerfetto(recording: OpenedRecording, records: AsyncIterable<AnyRecord>): AsyncGenerator<string> {
  const m = recording.manifest
  const otherData = {
    recording: m.name,
    source: m.source,
    link: m.link?.name ?? null,
    clockHz: m.probe.clockHz,
    version: m.pcieScopeVersion,
  }
  yield `{"displayTimeUnit":"ns","otherData":${JSON.stringify(otherData)},"traceEvents":[\n`
  let first = true
  const lines = (events: TraceEvent[]): string => {
    let text = ''
    for (const e of events) {
      text += (first ? '' : ',\n') + JSON.stringify(e)
      first = false
    }
    return text
  }
  yield lines(metadata(recording))
  const builder = new TraceBuilder(m.probe.clockHz, m.name)
  for await (const r of records) {
    const text = lines(builder.add(r))
    if (text) yield text
  }
  yield lines(builder.finish()) + '\n]}\n'
}
