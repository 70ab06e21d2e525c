/**
 * Everything the page knows, and the one place server messages change it. DOM-free: views read
 * it, the feed and the API client write it, and unit tests drive it in Node.
 *
 * Rates are plotted on the probe's own clock (TIMESTAMP / clockHz). A line never crosses a gap:
 * where the counters were cleared or stopped, or the stream went quiet, a NaN point breaks it.
 */
import type { PcieLinkInfo } from '../host/src/core/link.js'
import type { TwinMode } from '../host/src/core/twin-mode.js'
import type { HistogramLayout, HostLinkStats, IntervalBatch, LatencyHistogram, ProbeInfo, Snapshot } from '../host/src/core/probe.js'
import type {
  CounterMeta,
  GpuCounterInterval,
  RecordingsListing,
  RunReport,
  RunStart,
  ServerMessage,
  ServerStatus,
} from '../host/src/core/wire.js'
import { type AuthState, type FeedState, liveState, type LiveState, staleAfterMs } from './live.js'
import { COMMANDS, HISTOGRAM_KINDS, type HistogramKindKey } from '../host/src/core/generated.js'
import { RUN_HISTORY_MAX, runHistoryEntry, workloadLabel, type RunHistoryEntry } from './run-history.js'
import { counterDeltas } from '../host/src/core/rates.js'
import {
  histogramTotal,
  latencyPercentilesNs,
  noLatencyHistograms,
  observedLatency,
  sameLayout,
  type LatencyPercentilesNs,
} from '../host/src/core/latency-histogram.js'
import { aboveCeiling, histogram, inflightBetween, rateBetween, RingSeries, SIZE_KEYS, type Limit } from './model.js'
import { intervalBatchPoints, intervalLimit, type IntervalPoint } from './intervals.js'
import { HostSide, type HostSideComparison } from './host-side.js'
import { GpuCounterTimeline, ranOnGpu } from './gpu-counters.js'
import { type IntervalDelta, type RangeFigures, rangeFigures, Ring, runWindow, type XRange } from './time-range.js'

const RATE_POINTS = 600
/** interval records kept for the in-flight chart (a few seconds at a 10-µs period, more at longer ones) */
const INTERVAL_POINTS = 2000
/** run bands kept on the rate chart */
const MAX_MARKS = 40

export type HistogramMode = 'total' | 'run'

/** latency histograms kept per kind (10 minutes at one a second) */
const LATENCY_HISTORY = 600

interface TimedHistogram {
  /** probe time (s) of the newest snapshot when it arrived: the one it was read with */
  t: number
  h: LatencyHistogram
}

/** A latency histogram as the card shows it; a run's covers probe time `from` (null: since the clear) to `to`. */
export interface ShownLatency {
  bins: number[]
  layout: HistogramLayout
  from: number | null
  to: number | null
}

/** A workload run on the probe's time axis: `to` is undefined while it runs. */
export interface RunMark {
  id: number
  origin: 'demo' | 'manual'
  label: string
  from: number
  to: number | undefined
}

/** What the run-result box shows. */
export type RunBox =
  { kind: 'idle' } | { kind: 'pending'; text: string } | { kind: 'report'; report: RunReport } | { kind: 'error'; text: string }

export class AppState {
  auth: AuthState
  feed: FeedState = 'connecting'
  paused = false
  histogramMode: HistogramMode = 'total'
  info: ProbeInfo | undefined
  pcieLink: PcieLinkInfo | null = null
  /** the twin's design (switch: the host side is tapped too), null for a board or before hello */
  twinMode: TwinMode | null = null
  counters: CounterMeta[] = []
  status: ServerStatus | undefined
  /** the newest interval of the GPU's own PCIe counters (`serve --gpu-counters`) */
  gpuCounters: GpuCounterInterval | undefined
  /** those intervals over the counters' time, with the GPU's runs */
  readonly gpu = new GpuCounterTimeline()
  hostStats: HostLinkStats | null = null
  wsDrops = 0
  /** newest snapshot, and the page time the newest streamed one arrived */
  last: Snapshot | undefined
  lastAt: number | undefined
  snapshotsSeen = 0
  readonly mrdRate = new RingSeries(RATE_POINTS)
  readonly payloadRate = new RingSeries(RATE_POINTS)
  readonly ceilingRate = new RingSeries(RATE_POINTS)
  /** reads in flight on average per interval, and the mean latency (s) of those that completed */
  readonly outstandingAvg = new RingSeries(RATE_POINTS)
  readonly latencyMean = new RingSeries(RATE_POINTS)
  /** the counter deltas behind each rate point: what a selected stretch of time sums (web/time-range.ts) */
  readonly deltas = new Ring<IntervalDelta>(RATE_POINTS)
  /** the time charts' shared x window: null follows the newest point */
  xRange: XRange | null = null
  /** the stretch of time whose figures the page shows, null when none is selected */
  selection: XRange | null = null
  /** every time series above, kept aligned point for point (gaps and resets apply to all) */
  private readonly series = [this.mrdRate, this.payloadRate, this.ceilingRate, this.outstandingAvg, this.latencyMean]
  /**
   * the sampler's interval records (INTERVAL frames via the server): outstanding average and peak
   * per interval, Little's law's prediction for it, at the sampler's period
   */
  readonly intervalAvg = new RingSeries(INTERVAL_POINTS)
  readonly intervalPeak = new RingSeries(INTERVAL_POINTS)
  readonly intervalLittle = new RingSeries(INTERVAL_POINTS)
  private readonly intervalSeries = [this.intervalAvg, this.intervalPeak, this.intervalLittle]
  /** the newest interval and its limit */
  lastInterval: IntervalPoint | undefined
  intervalLimitNow: Limit | undefined
  private intervalNextIndex: number | undefined
  intervalGaps = 0
  tagBudget: number | null = null
  /** the newest HISTOGRAM frame of each kind (first- and last-completion latency) */
  latencyHistograms = noLatencyHistograms<LatencyHistogram>()
  /** the latency card shows a run's reads alone (its id), or every read since the clear (null) */
  latencyOf: number | null = null
  /** the HISTOGRAM frames of each kind so far, each at the probe time of the snapshot before it: a run's reads are the difference of two */
  private readonly latencyHistory = Object.fromEntries(HISTOGRAM_KINDS.map((k) => [k.key, []])) as unknown as Record<
    HistogramKindKey,
    TimedHistogram[]
  >
  /** the switch design's host side (TAP_SNAPSHOT / TAP_HISTOGRAM frames), paired with the GPU side */
  readonly hostSide = new HostSide()

  /** the host-side card shows: the twin runs the switch, or a host-side frame arrived (a board's switch design) */
  get showHostSide(): boolean {
    return this.twinMode === 'switch' || this.hostSide.seen
  }
  gaps = 0
  aboveCeilingCount = 0
  readonly marks: RunMark[] = []
  /** the run in flight, with its baseline snapshot */
  running: RunStart | null = null
  lastRun: RunReport | null = null
  /** a run from the form is pending: demo results leave the result box alone */
  manualPending = false
  runBox: RunBox = { kind: 'idle' }
  /** the runs this page has seen, oldest first (web/run-history.ts) */
  readonly runHistory: RunHistoryEntry[] = []
  /** the run list shows demo runs too, not only the manual ones */
  historyWithDemo = false
  /** the recordings on the server (GET /api/recordings), null until listed */
  recordings: RecordingsListing | null = null
  /** the recording the page shows instead of the device (web/replay.ts), null while live */
  replaying: string | null = null
  /** the last control command's failure, shown in the header until the next command */
  notice = ''
  private prevForRate: Snapshot | undefined
  private lastX: number | undefined
  private gapPending = false

  constructor(readonly token: string) {
    this.auth = token ? 'ok' : 'missing'
  }

  live(now: number): LiveState {
    return liveState({
      auth: this.auth,
      feed: this.feed,
      status: this.status,
      paused: this.paused,
      lastSnapshotAt: this.lastAt,
      now,
      replaying: this.replaying,
    })
  }

  /**
   * Show a recording instead of the device: everything the page knows of the live stream goes,
   * and the recording's messages (web/replay.ts) are applied as a live server's would be. The
   * feed's messages are passed over until `endReplay`.
   */
  replay(name: string, steps: readonly { message: ServerMessage; at: number }[]): void {
    this.replaying = name
    this.forgetRuns()
    for (const s of steps) this.apply(s.message, s.at)
  }

  /** Back to the device: the feed's next hello brings the live page again. */
  endReplay(): void {
    this.replaying = null
    this.forgetRuns()
  }

  private forgetRuns(): void {
    this.paused = false
    this.runHistory.length = 0
    this.lastRun = null
    this.running = null
    this.manualPending = false
    this.runBox = { kind: 'idle' }
    this.latencyHistograms = noLatencyHistograms<LatencyHistogram>()
    this.latencyOf = null
    this.gpuCounters = undefined
    this.aboveCeilingCount = 0
    this.gaps = 0
    this.intervalGaps = 0
  }

  /** Apply one server message; `now` is the page clock (ms). */
  apply(m: ServerMessage, now: number): void {
    switch (m.type) {
      case 'hello':
        this.info = m.info
        this.pcieLink = m.pcieLink
        this.twinMode = m.twinMode
        this.tagBudget = m.tagBudget
        this.counters = m.counters
        this.resetSeries()
        // history from before this page: its age is what the server recorded, not now
        for (const s of m.recent) this.ingest(s, Math.min(now, s.receivedAt))
        this.latencyHistograms = { ...m.latencyHistograms }
        this.hostSide.restore(m.taps?.hostSide, this.latencyHistograms)
        if (m.lastRun) this.setRun(m.lastRun)
        break
      case 'status': {
        const { type: _type, ...st } = m
        // a reconnect or a restart of streaming is a gap, whatever the counters say
        if (this.status && (this.status.connected !== st.connected || !this.status.streaming !== !st.streaming)) this.gapPending = true
        this.status = st
        this.twinMode = st.twinMode
        this.hostStats = st.hostStats
        this.wsDrops = st.wsDrops
        if (st.lastSnapshot && !this.last) this.ingest(st.lastSnapshot, Math.min(now, st.lastSnapshot.receivedAt))
        break
      }
      case 'snapshot':
        for (const s of m.snapshots) this.ingest(s, now)
        // after the snapshots: each names one of them or an earlier one
        for (const t of m.tapSnapshots ?? []) this.hostSide.tapSnapshot(t)
        this.hostStats = m.hostStats
        this.wsDrops = m.wsDrops
        break
      case 'intervals':
        this.ingestIntervals(m.batch)
        break
      case 'latency-histogram':
        this.latencyHistograms[m.histogram.kind] = m.histogram
        this.keepHistogram(m.histogram)
        break
      case 'tap-histogram':
        this.hostSide.tapHistogram(m.histogram, this.latencyHistograms[m.histogram.kind])
        break
      case 'run-start': {
        const { type: _type, ...r } = m
        this.running = r
        this.ingest(r.baseline, now)
        this.gpu.runStarted(r)
        // counters stopped, or the GPU runs it: the probe will see nothing of this run, so no band names it
        if (r.baseline.enabled && r.runner !== 'cuda')
          this.addMark({
            id: r.id,
            origin: r.origin,
            label: workloadLabel(r.workload),
            from: this.t(r.baseline.counters.timestamp),
            to: undefined,
          })
        break
      }
      case 'run':
        if (this.running?.id === m.report.id) this.running = null
        this.gpu.runEnded(m.report)
        this.setRun(m.report)
        if (this.status) this.status.demo = m.demo
        break
      case 'gpu-counters':
        this.gpuCounters = m.interval
        this.gpu.interval(m.interval)
        break
      case 'run-error':
        if (m.origin === 'manual') this.showRunBox({ kind: 'error', text: `${m.error.code}: ${m.error.message}` })
        if (this.running) this.gpu.runFailed(this.running.id)
        this.running = null
        break
    }
  }

  /**
   * The header's demo line: runs so far and the pattern running now, from the newest status. Only
   * while the feed is open: the server's last word about its demo loop says nothing once it is
   * gone, so a dead server leaves no "now: …" behind.
   */
  demoLine(): string {
    const d = this.status?.demo
    if (this.feed !== 'open' || this.auth !== 'ok' || !d?.enabled) return ''
    const lastDemo = this.lastRun?.origin === 'demo' ? ` · last: ${this.lastRun.result.workload.pattern}` : ''
    return `demo loop: ${d.runs} runs${d.current ? ` · now: ${d.current}` : lastDemo}`
  }

  say(notice: string): void {
    this.notice = notice
  }

  /** Pause freezes the view; data still arrives. */
  togglePaused(): void {
    this.paused = !this.paused
  }

  setHistogramMode(mode: HistogramMode): void {
    this.histogramMode = mode
  }

  setRecordings(listing: RecordingsListing): void {
    this.recordings = listing
  }

  /** The WebSocket opened. */
  feedOpened(): void {
    this.feed = 'open'
  }

  /** The server did not answer, or the WebSocket closed. */
  feedLost(): void {
    this.feed = 'unreachable'
  }

  /** GET /api/status answered 401: the token is wrong, and retrying cannot help. */
  tokenRejected(): void {
    this.auth = 'rejected'
  }

  /** A run from the form: the box says so until its own result or error arrives. */
  /** the completer latency the lesson step shown will set before its run (the prediction uses it); null: none */
  stepLatencyCycles: number | null = null

  /** A lesson step is shown that sets this completer latency before its run (null: it sets none). */
  planLatency(cycles: number | null): void {
    this.stepLatencyCycles = cycles
  }

  /** POST /api/latency went through: INFO's completer latency is now `cycles` */
  latencySet(cycles: number): void {
    if (this.info) this.info = { ...this.info, barLatencyCycles: cycles }
  }

  manualStarted(text: string): void {
    this.manualPending = true
    this.showRunBox({ kind: 'pending', text })
  }

  manualFinished(outcome: { report: RunReport } | { error: string }): void {
    this.manualPending = false
    if ('report' in outcome) this.setRun(outcome.report)
    else this.showRunBox({ kind: 'error', text: outcome.error })
  }

  /**
   * The histogram the page shows, with the requested bytes of the same requests: since the last
   * clear, or the current (or last) run alone.
   */
  shownHistogram(): { counts: number[]; bytes: number | undefined; caption: string } {
    if (this.histogramMode === 'run') {
      const r = this.running
      if (r && this.last && this.last.counters.timestamp >= r.baseline.counters.timestamp) {
        const d = counterDeltas(r.baseline, this.last)
        return { counts: histogram(d), bytes: d.mrdBytes, caption: `run #${r.id} ${workloadLabel(r.workload)} (running)` }
      }
      const done = this.lastRun
      if (done)
        return {
          counts: histogram(done.probe),
          bytes: done.probe.mrdBytes,
          caption: `run #${done.id} ${workloadLabel(done.result.workload)}`,
        }
      return { counts: zeroHistogram(), bytes: undefined, caption: 'no run yet' }
    }
    const last = this.last
    return { counts: last ? histogram(last) : zeroHistogram(), bytes: last?.counters.mrdBytes, caption: 'since last clear' }
  }

  /**
   * p50 / p99 of the newest latency histogram of a kind (core/latency-histogram.ts's rule), kept
   * within the smallest and largest latency the newest snapshot counted; null without one
   */
  latencyPercentiles(kind: HistogramKindKey = 'last'): LatencyPercentilesNs | null {
    const shown = this.shownLatency(kind)
    const h = this.latencyHistograms[kind]
    if (!shown || !h || !this.info) return null
    // the counters since the clear bound a run's reads too: they are among them
    const observed = this.last ? observedLatency(this.last.counters, kind, histogramTotal(h.bins)) : undefined
    return latencyPercentilesNs(shown.bins, shown.layout, this.info.clockHz, observed)
  }

  /** Show the latency of one run's reads (its id), or of every read since the clear (null). */
  setLatencyOf(run: number | null): void {
    this.latencyOf = run
  }

  /**
   * The latency histogram the card shows: the newest since the clear, or a run's reads alone: the
   * newest histogram from before the run subtracted from the first one after it (histograms come
   * once a second while streaming, so reads of a neighbouring run within that second count too;
   * `from`/`to` say which stretch of probe time the difference covers). Null while there is none.
   */
  shownLatency(kind: HistogramKindKey): ShownLatency | null {
    const newest = this.latencyHistograms[kind]
    if (this.latencyOf === null) return newest && { bins: newest.bins, layout: newest.layout, from: null, to: null }
    const m = this.marks.find((k) => k.id === this.latencyOf)
    if (!m || m.to === undefined) return null
    const hist = this.latencyHistory[kind]
    const after = hist.find((x) => x.t >= m.to!)
    if (!after) return null
    const before = [...hist].reverse().find((x) => x.t <= m.from && sameLayout(x.h.layout, after.h.layout))
    const bins = after.h.bins.map((n, k) => n - (before?.h.bins[k] ?? 0))
    // a clear between the two: they count different reads
    if (bins.some((n) => n < 0)) return null
    return { bins, layout: after.h.layout, from: before?.t ?? null, to: after.t }
  }

  private keepHistogram(h: LatencyHistogram): void {
    const list = this.latencyHistory[h.kind]
    list.push({ t: this.last ? this.t(this.last.counters.timestamp) : NaN, h })
    if (list.length > LATENCY_HISTORY) list.shift()
  }

  /** Switch mode: the host side next to the GPU side, or null (endpoint mode, or no pair yet). */
  hostSideComparison(): HostSideComparison | null {
    return this.info ? this.hostSide.comparison(this.info.clockHz) : null
  }

  /** Zoom or pan the time charts to `r`; null follows the newest point again. */
  setXRange(r: XRange | null): void {
    this.xRange = r
  }

  /** Select a stretch of time (null: none) to read its figures. */
  select(r: XRange | null): void {
    this.selection = r
  }

  /** Zoom the time charts to a run's band (and select it); false when no band of that run is held. */
  zoomToRun(id: number): boolean {
    const m = this.marks.find((k) => k.id === id)
    const w = m && runWindow(m, this.mrdRate.last()?.x)
    if (!m || !w) return false
    this.xRange = w
    this.selection = { from: m.from, to: m.to ?? w.to }
    return true
  }

  /** What the probe counted in the selected stretch, null when none is selected. */
  selectionFigures(): RangeFigures | null {
    return this.selection ? rangeFigures(this.deltas, this.selection, this.info?.clockHz ?? 0) : null
  }

  staleAfterMs(): number {
    return staleAfterMs(this.status?.streaming?.periodMs ?? COMMANDS.START.args[0].default)
  }

  private t(timestamp: number): number {
    return this.info?.clockHz ? timestamp / this.info.clockHz : 0
  }

  private setRun(r: RunReport): void {
    this.lastRun = r
    const at = this.marks.findIndex((m) => m.id === r.id)
    const mark = this.marks[at]
    if (!r.countersEnabled || (ranOnGpu(r) && !mark)) {
      // the counters were stopped, or the GPU ran it: the probe saw nothing, so no empty band is left named after it
      if (mark) this.marks.splice(at, 1)
    } else if (mark) mark.to = this.t(r.probeWindow.to)
    else
      this.addMark({
        id: r.id,
        origin: r.origin,
        label: workloadLabel(r.result.workload),
        from: this.t(r.probeWindow.from),
        to: this.t(r.probeWindow.to),
      })
    // the WebSocket and the POST reply both bring a manual run's report: listed once
    if (!this.runHistory.some((e) => e.id === r.id)) {
      this.runHistory.push(runHistoryEntry(r, this.info?.clockHz))
      if (this.runHistory.length > RUN_HISTORY_MAX) this.runHistory.shift()
    }
    // a demo result shows only where no manual run's result or error (or pending run) is shown
    if (r.origin === 'manual' || !this.showsManual()) this.showRunBox({ kind: 'report', report: r })
  }

  /** The box holds a run from the form (pending, its result or its error) until dismissed or the next one. */
  private showsManual(): boolean {
    const b = this.runBox
    return this.manualPending || b.kind === 'error' || (b.kind === 'report' && b.report.origin === 'manual')
  }

  /** The user closed a manual run's result: demo results show again. */
  dismissRunBox(): void {
    if (this.manualPending) return
    this.showRunBox(this.lastRun?.origin === 'demo' ? { kind: 'report', report: this.lastRun } : { kind: 'idle' })
  }

  setHistoryWithDemo(on: boolean): void {
    this.historyWithDemo = on
  }

  protected showRunBox(b: RunBox): void {
    this.runBox = b
  }

  private addMark(m: RunMark): void {
    this.marks.push(m)
    if (this.marks.length > MAX_MARKS) this.marks.shift()
  }

  private resetSeries(): void {
    this.last = undefined
    this.lastAt = undefined
    this.prevForRate = undefined
    this.lastX = undefined
    for (const line of this.series) line.clear()
    this.deltas.clear()
    for (const list of Object.values(this.latencyHistory)) list.length = 0
    this.xRange = null
    this.selection = null
    for (const line of this.intervalSeries) line.clear()
    this.lastInterval = undefined
    this.intervalLimitNow = undefined
    this.intervalNextIndex = undefined
    this.marks.length = 0
    this.hostSide.reset()
    this.gapPending = false
  }

  /** One INTERVAL batch: a break in the lines where records are missing, then a point per record. */
  private ingestIntervals(batch: IntervalBatch): void {
    const clockHz = this.info?.clockHz ?? 0
    const { points, gapBefore, nextIndex } = intervalBatchPoints(batch, clockHz, this.pcieLink, this.intervalNextIndex)
    this.intervalNextIndex = nextIndex
    const prev = this.intervalAvg.last()
    const first = points[0]
    if (first && prev && first.t <= prev.x) {
      // time went back: the firmware restarted (TIMESTAMP is never cleared), a new time axis
      for (const line of this.intervalSeries) line.clear()
    } else if (first && prev && gapBefore) {
      // records were lost on the way: a break, not a line across them
      for (const line of this.intervalSeries) line.push({ x: (prev.x + first.t) / 2, y: NaN })
      this.intervalGaps++
    }
    for (const p of points) {
      this.intervalAvg.push({ x: p.t, y: p.avgOutstanding })
      this.intervalPeak.push({ x: p.t, y: p.peakOutstanding })
      this.intervalLittle.push({ x: p.t, y: p.littleOutstanding ?? NaN })
      this.lastInterval = p
      this.intervalLimitNow = intervalLimit(p, this.tagBudget)
    }
  }

  private ingest(s: Snapshot, now: number): void {
    this.snapshotsSeen++
    const last = this.last
    if (last && s.counters.timestamp < last.counters.timestamp) {
      // an older snapshot overtaken by a newer one (a run's on-demand baseline sent after the
      // periodic batch that followed it): nothing new. Only a snapshot the host received after
      // the newest one, with its clock gone back, is a firmware restart.
      if (s.index >= last.index || s.receivedAt <= last.receivedAt) return
      this.resetSeries() // the firmware restarted (board reset, new twin): a new time axis
    }
    this.last = s
    this.hostSide.gpuSnapshot(s)
    // only the periodic stream proves it is flowing; an answer to SNAPSHOT does not
    if (!s.onDemand) this.lastAt = Math.max(this.lastAt ?? 0, now)
    const prev = this.prevForRate
    const clockHz = this.info?.clockHz ?? 0
    if (!prev || !(clockHz > 0)) {
      this.prevForRate = s
      return
    }
    const dc = s.counters.cycles - prev.counters.cycles
    const dt = s.counters.timestamp - prev.counters.timestamp
    // cleared, stopped for part of the interval, or a quiet stream: no rate across it
    const quiet = s.receivedAt - prev.receivedAt > this.staleAfterMs()
    if (dc < 0 || !s.enabled || !prev.enabled || dt > dc + 64 || quiet) {
      this.gapPending = true
      this.prevForRate = s
      return
    }
    if (dc === 0) return // nothing counted since prev: keep it as the baseline
    const r = rateBetween(prev, s, clockHz, this.pcieLink)
    this.prevForRate = s
    if (!r) return
    if (this.gapPending && this.lastX !== undefined && r.t > this.lastX) {
      const x = (this.lastX + r.t) / 2
      for (const line of this.series) line.push({ x, y: NaN })
      this.gaps++
    }
    this.gapPending = false
    this.mrdRate.push({ x: r.t, y: r.mrdPerSec })
    this.payloadRate.push({ x: r.t, y: r.payloadPerSec })
    this.ceilingRate.push({ x: r.t, y: r.ceilingBytesPerSec ?? NaN })
    const f = inflightBetween(prev, s, clockHz)
    this.outstandingAvg.push({ x: r.t, y: f?.avgOutstanding ?? NaN })
    this.latencyMean.push({ x: r.t, y: f?.meanLatency ?? NaN })
    const d = counterDeltas(prev, s)
    this.deltas.push({
      t: r.t,
      seconds: dc / clockHz,
      mrd: SIZE_KEYS.reduce((a, k) => a + d[k], 0),
      payloadBytes: d.cpldBytes,
      outstandingSum: d.outstandingSum,
      trackerCycles: d.trackerCycles,
      latencySum: d.latLastSum,
      latencyCount: d.latLastCount,
    })
    if (aboveCeiling(r)) this.aboveCeilingCount++
    this.lastX = r.t
  }
}

export { workloadLabel }

const zeroHistogram = (): number[] => SIZE_KEYS.map(() => 0)
