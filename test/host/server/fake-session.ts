/**
 * A fake DeviceSession for the server's unit tests: the contract of docs/contracts.md §4 on an
 * EventEmitter, with counters that a fake workload runner advances.
 */
import { EventEmitter } from 'node:events'
import type {
  Counters,
  HostLinkStats,
  IntervalBatch,
  IntervalRecord,
  LatencyHistogram,
  ProbeInfo,
  Snapshot,
  TapHistogram,
  TapSnapshot,
} from '../../../host/src/core/probe.js'
import {
  generatedGraph,
  idBytesOf,
  isGraphWorkload,
  type AnyWorkload,
  type WorkloadResult,
  type WorkloadRunner,
} from '../../../host/src/core/workload.js'
import { PsError } from '../../../host/src/core/errors.js'
import { zeroBySize } from '../../../host/src/core/size-classes.js'
import { COUNTERS, HISTOGRAM_KINDS, HISTOGRAM_WORDS, type CounterKey } from '../../../host/src/core/generated.js'
import type { ServerSession } from '../../../host/src/server/index.js'
import type { SupervisionStatus } from '../../../host/src/core/wire.js'
import { sleep } from '../../../host/src/util/sleep.js'
import { binOf, SPEC_HISTOGRAM_LAYOUT } from '../../../host/src/core/latency-histogram.js'

export const CLOCK_HZ = 250_000_000

export const fakeInfo = (): ProbeInfo => ({
  protocolVersion: 1,
  firmwareVersion: 0x0100,
  probeId: 0x50435343,
  regVersion: 1,
  clockHz: CLOCK_HZ,
  counterCount: COUNTERS.length,
  streaming: false,
  periodMs: 100,
  barLatencyCycles: 250,
})

/** the switch's traversal both ways on the twin: the GPU side's latency is the host side's plus this */
export const SWITCH_CLOCKS = 2
/** a fake read's latency on the GPU side in switch mode: 252 clocks, 1008 ns at 250 MHz */
export const FAKE_LATENCY_CLOCKS = 252

/**
 * The host side of the same reads: each read is outstanding SWITCH_CLOCKS fewer clocks there (the
 * request leaves the switch later, its completion enters it earlier).
 */
export const hostSideCounters = (c: Readonly<Counters>): Counters => ({
  ...c,
  latFirstSum: c.latFirstSum - SWITCH_CLOCKS * c.latFirstCount,
  latLastSum: c.latLastSum - SWITCH_CLOCKS * c.latLastCount,
  outstandingSum: c.outstandingSum - SWITCH_CLOCKS * c.latLastCount,
})

/** Every read of `c` in the bin of `latencyClocks`. */
const fakeBins = (count: number, latencyClocks: number): number[] => {
  const bins = Array<number>(HISTOGRAM_WORDS).fill(0)
  bins[binOf(SPEC_HISTOGRAM_LAYOUT, latencyClocks)] = count
  return bins
}

export class FakeClient extends EventEmitter {
  counters = Object.fromEntries(COUNTERS.map((c) => [c.key, 0])) as Record<CounterKey, number>
  /**
   * switch mode: while counting, each tick completes 100 reads of FAKE_LATENCY_CLOCKS with 40 in
   * flight, and is followed by the host side's TAP_SNAPSHOT; every tenth brings the histograms of
   * both taps (as the firmware's once a second at 100 ms)
   */
  switchMode = false
  private ticks = 0
  enabled = false
  index = 0
  calls: string[] = []
  closed = false
  private timer: NodeJS.Timeout | undefined

  makeSnapshot(onDemand = false): Snapshot {
    return {
      seq: this.index & 0xffff,
      index: this.index++,
      onDemand,
      enabled: this.enabled,
      counters: { ...this.counters },
      firmware: { rxFrames: 1, rxBadFrames: 0, rxOverflows: 0, unknownCommands: 0, txDropped: 0 },
      receivedAt: Date.now(),
    }
  }
  /** emits one streamed snapshot after advancing the clock by `cycles` (and, while sampling, an INTERVAL batch) */
  tick(cycles = 25_000_000): Snapshot {
    const from = this.counters.timestamp
    this.counters.cycles += cycles
    this.counters.timestamp += cycles
    if (this.switchMode && this.enabled) {
      const c = this.counters
      c.trackerCycles += cycles
      c.outstandingSum += 40 * cycles
      for (const k of ['latFirst', 'latLast'] as const) {
        c[`${k}Count`] += 100
        c[`${k}Sum`] += 100 * FAKE_LATENCY_CLOCKS
      }
    }
    if (this.samplePeriod > 0 && this.enabled) this.emitIntervals(from, cycles)
    const s = this.makeSnapshot()
    this.emit('snapshot', s)
    if (this.switchMode) {
      this.emit('tap-snapshot', this.tapSnapshotOf(s))
      if (++this.ticks % 10 === 0) this.emitHistograms(s)
    }
    return s
  }
  /** the host side's TAP_SNAPSHOT taken with `s` */
  tapSnapshotOf(s: Snapshot): TapSnapshot {
    return {
      seq: (s.seq + 1) & 0xffff,
      tap: 'hostSide',
      snapshotIndex: s.index,
      counters: hostSideCounters(s.counters),
      receivedAt: s.receivedAt,
    }
  }
  /** both taps' histograms of `s`, tap 0's first (as the firmware sends them) */
  emitHistograms(s: Snapshot): { gpu: LatencyHistogram[]; host: TapHistogram[] } {
    const of = (kind: (typeof HISTOGRAM_KINDS)[number]['key'], latency: number): LatencyHistogram => ({
      seq: 0,
      reason: 'periodic',
      kind,
      snapshotIndex: s.index,
      layout: SPEC_HISTOGRAM_LAYOUT,
      bins: fakeBins(s.counters[kind === 'last' ? 'latLastCount' : 'latFirstCount'], latency),
      receivedAt: Date.now(),
    })
    const gpu = HISTOGRAM_KINDS.map((k) => of(k.key, FAKE_LATENCY_CLOCKS))
    const host = HISTOGRAM_KINDS.map((k): TapHistogram => ({ ...of(k.key, FAKE_LATENCY_CLOCKS - SWITCH_CLOCKS), tap: 'hostSide' }))
    for (const h of gpu) this.emit('histogram', h)
    for (const h of host) this.emit('tap-histogram', h)
    return { gpu, host }
  }
  private intervalIndex = 0
  /** the last few sampler records of `cycles` clocks from `from`: 100 reads in flight at 10 µs (Little: 0.04 reads a clock × 2500 clocks) */
  private emitIntervals(from: number, cycles: number) {
    const p = this.samplePeriod
    const n = Math.min(16, Math.floor(cycles / p))
    const records: IntervalRecord[] = []
    for (let i = n; i >= 1; i--) {
      const reads = Math.round(p / 25)
      records.push({
        ts: from + cycles - (i - 1) * p - 1,
        cycles: p,
        mrdCount: reads,
        mrdBytes: reads * 128,
        cpldCount: reads,
        cpldBytes: reads * 128,
        occSum: 100 * p,
        occPeak: 120,
        latSum: reads * 2500,
        latCount: reads,
      })
    }
    const batch: IntervalBatch = { seq: 0, firstIndex: this.intervalIndex, dropped: 0, overflow: 0, records, receivedAt: Date.now() }
    this.intervalIndex += records.length
    this.emit('interval', batch)
  }
  private stoppedAt: number | undefined
  async start(periodMs?: number) {
    this.calls.push(`start:${periodMs ?? ''}`)
    // TIMESTAMP runs on while the counters are stopped, as on the probe
    if (this.stoppedAt !== undefined) this.counters.timestamp += Math.round(((Date.now() - this.stoppedAt) / 1000) * CLOCK_HZ)
    this.stoppedAt = undefined
    this.enabled = true
    clearInterval(this.timer)
    this.timer = setInterval(() => this.tick(), periodMs ?? 100)
    this.timer.unref()
  }
  /** the sampler period asked for; `emitIntervals` sends batches as the firmware would */
  samplePeriod = 0
  async setSamplePeriod(cycles: number) {
    this.calls.push(`sample:${cycles}`)
    this.samplePeriod = cycles
  }
  /** the completer latency SET_BAR_LATENCY asked for */
  barLatency: number | undefined
  async setBarLatency(cycles: number) {
    this.calls.push(`latency:${cycles}`)
    this.barLatency = cycles
  }
  async stop() {
    this.calls.push('stop')
    this.stoppedAt ??= Date.now()
    this.enabled = false
    clearInterval(this.timer)
  }
  async clear() {
    this.calls.push('clear')
    for (const c of COUNTERS) if (c.key !== 'timestamp') this.counters[c.key] = 0
  }
  async snapshot() {
    this.calls.push('snapshot')
    return this.makeSnapshot(true)
  }
  hostStats(): HostLinkStats {
    return {
      frames: this.index,
      badFrames: 0,
      crcErrors: 0,
      overflows: 0,
      seqGaps: 0,
      lostFrames: 0,
      unknownFrames: 0,
      bytes: this.index * 120,
    }
  }
  /** what lastSnapshot() answers: a snapshot the client saw before the server started */
  seed: Snapshot | undefined
  lastSnapshot(): Snapshot | undefined {
    return this.seed
  }
  async close() {
    clearInterval(this.timer)
    this.closed = true
  }
  /** the stream goes quiet without a STOP (a hung device): no more snapshots */
  stall() {
    clearInterval(this.timer)
  }
  disconnect(code: 'PS_TWIN_EXITED' | 'PS_SERIAL_DISCONNECTED' = 'PS_TWIN_EXITED') {
    clearInterval(this.timer)
    this.emit('disconnect', new PsError(code, 'twin exited (test)'))
  }
}

export class FakeRunner implements WorkloadRunner {
  readonly kind = 'twin' as const
  runs: AnyWorkload[] = []
  /** runs stopped by their signal, with the reason they were given */
  cancelled: unknown[] = []
  constructor(
    private readonly client: FakeClient,
    private readonly delayMs = 20,
  ) {}
  async run(workload: AnyWorkload, signal?: AbortSignal): Promise<WorkloadResult> {
    this.runs.push(workload)
    // like the twin's runner: an abort stops the run at once, with the signal's reason
    await sleep(this.delayMs, signal).catch((e: unknown) => {
      this.cancelled.push(e)
      throw e
    })
    const size = workload.pattern === 'strided' ? 32 : 128
    // a graph kernel: a fixed 100 reads over a graph of 2^S vertices
    const graph = isGraphWorkload(workload)
    const count = graph ? 100 : Math.ceil(workload.bytes / size)
    if (this.client.enabled) {
      this.client.counters[size === 32 ? 'mrd32' : 'mrd128'] += count
      this.client.counters.mrdBytes += count * size
      this.client.counters.cpldCount += count
      this.client.counters.cpldBytes += count * size
      // every read takes FAKE_LATENCY_CLOCKS, four clocks apart: FAKE_LATENCY_CLOCKS / 4 in flight
      // (Little's law); in switch mode the ticks model the tracker instead
      const c = this.client.counters
      if (!this.client.switchMode) {
        c.trackerCycles += count * 4
        c.outstandingSum += count * FAKE_LATENCY_CLOCKS
        c.outstandingPeak = Math.max(c.outstandingPeak, Math.ceil(FAKE_LATENCY_CLOCKS / 4))
        for (const k of ['latFirst', 'latLast'] as const) {
          c[`${k}Count`] += count
          c[`${k}Sum`] += count * FAKE_LATENCY_CLOCKS
        }
      }
    }
    const bySize = zeroBySize()
    bySize[size === 32 ? '32' : '128'] = count
    return {
      workload,
      issued: { count, bySize, bytes: count * size },
      completions: count,
      payloadErrors: 0,
      simCycles: count * 4,
      wallSeconds: this.delayMs / 1000,
      ...(graph
        ? {
            graph: {
              graph: workload.graph,
              vertices: 2 ** (generatedGraph(workload.graph)?.scale ?? 0),
              edges: 1000,
              idBytes: idBytesOf(workload),
              sourceVertex: workload.sourceVertex ?? 0,
              launches: 3,
            },
          }
        : {}),
    }
  }
}

/** A supervisor that is always up (the real one is tested in test/host/device/supervisor.test.ts). */
export class FakeSupervisor extends EventEmitter {
  supervision(): SupervisionStatus {
    return {
      state: 'up',
      restarts: 0,
      lastFailure: null,
      nextAttemptAt: null,
      backoffMs: 0,
      hangTimeoutMs: 5000,
      upSince: 0,
    }
  }
}

export function fakeSession(
  opts: { runner?: boolean; runDelayMs?: number; switchMode?: boolean } = {},
): ServerSession & { client: FakeClient; closed: boolean; supervisor: FakeSupervisor } {
  const client = new FakeClient()
  client.switchMode = opts.switchMode ?? false
  const runner = opts.runner === false ? undefined : new FakeRunner(client, opts.runDelayMs)
  return {
    source: 'twin',
    path: '/dev/pts/fake',
    info: fakeInfo(),
    // the fake's design: the BAR endpoint unless asked for the switch's two taps
    twinMode: client.switchMode ? 'switch' : 'endpoint',
    client,
    runner,
    supervisor: new FakeSupervisor(),
    closed: false,
    async close() {
      this.closed = true
      await client.close()
    },
  }
}
