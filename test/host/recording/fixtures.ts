/**
 * Recordings for the recording tests: temporary roots, made-up probe data, and a writer that
 * leaves behind what a killed process would (a `recording` manifest, a torn last line).
 */
import { spawnSync } from 'node:child_process'
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { COUNTERS, type CounterKey } from '../../../host/src/core/generated.js'
import type { IntervalRecord, LatencyHistogram, ProbeInfo, Snapshot, TapSnapshot } from '../../../host/src/core/probe.js'
import { MANIFEST_FILE, segmentName, type RecordingManifest } from '../../../host/src/recording/format.js'
import { RecordingWriter, type RecordingWriterOptions } from '../../../host/src/recording/writer.js'
import type { Workload } from '../../../host/src/core/workload.js'
import { binOf, SPEC_HISTOGRAM_LAYOUT } from '../../../host/src/core/latency-histogram.js'

export const CLOCK_HZ = 250_000_000

const roots: string[] = []
/** A fresh temporary recordings folder; removeRoots() (afterEach) deletes them. */
export const tempRoot = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'ps-recordings-'))
  roots.push(d)
  return d
}
export const removeRoots = (): void => {
  for (const d of roots.splice(0)) rmSync(d, { recursive: true, force: true })
}

export const probeInfo = (): ProbeInfo => ({
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

export const WORKLOAD: Workload = { pattern: 'merged-aligned', bytes: 65536, offset: 0 }

/** A snapshot with every counter at 0 except those given. */
export const snap = (index: number, counters: Partial<Record<CounterKey, number>>, extra: Partial<Snapshot> = {}): Snapshot => ({
  seq: index & 0xffff,
  index,
  onDemand: false,
  enabled: true,
  counters: { ...(Object.fromEntries(COUNTERS.map((c) => [c.key, 0])) as Record<CounterKey, number>), ...counters },
  firmware: { rxFrames: index, rxBadFrames: 0, rxOverflows: 0, unknownCommands: 0, txDropped: 0 },
  receivedAt: 1_700_000_000_000 + index * 100,
  ...extra,
})

export const newWriter = (dir: string, opts: RecordingWriterOptions = {}): RecordingWriter =>
  RecordingWriter.create(dir, { source: 'twin', path: '/dev/pts/test', probe: probeInfo(), link: null, workloads: [WORKLOAD] }, opts)

/** switch design: the GPU side's reads take this long in the fixtures, the host side's 2 clocks less */
export const GPU_LATENCY_CLOCKS = 252
export const SWITCH_CLOCKS = 2
/** the host side's TIMESTAMP trails the GPU side's by the few bus clocks between their CMD.SNAPSHOT writes */
export const TAP_SNAPSHOT_SKEW = 3

/** The host side's TAP_SNAPSHOT taken with `s`: the same reads, each SWITCH_CLOCKS shorter there. */
export const hostSideOf = (s: Snapshot): TapSnapshot => {
  const c = s.counters
  return {
    seq: (s.seq + 1) & 0xffff,
    tap: 'hostSide',
    snapshotIndex: s.index,
    counters: { ...c, timestamp: c.timestamp + TAP_SNAPSHOT_SKEW, latLastSum: c.latLastSum - SWITCH_CLOCKS * c.latLastCount },
    receivedAt: s.receivedAt,
  }
}

/** A last-completion histogram of `s` with every read in the bin of `latency` clocks (the spec's layout). */
export const histogramOf = (s: Snapshot, latency: number): LatencyHistogram => {
  const bins = Array<number>(SPEC_HISTOGRAM_LAYOUT.bins + 1).fill(0)
  bins[binOf(SPEC_HISTOGRAM_LAYOUT, latency)] = s.counters.latLastCount
  return { seq: 0, reason: 'final', kind: 'last', snapshotIndex: s.index, layout: SPEC_HISTOGRAM_LAYOUT, bins, receivedAt: s.receivedAt }
}

/**
 * One scripted run of 8 snapshots, 512 128-B reads spread evenly over 7 intervals of 1000 cycles
 * after the baseline, as the CLI records it. With `hostSide` (the switch design) every read
 * completes after GPU_LATENCY_CLOCKS, each snapshot is followed by its host side's TAP_SNAPSHOT,
 * and the last by both taps' last-completion histograms.
 */
export const writeRun = (w: RecordingWriter, opts: { hostSide?: boolean } = {}): Snapshot[] => {
  const snaps: Snapshot[] = []
  const base = snap(0, { timestamp: 10_000 }, { onDemand: true, enabled: false })
  snaps.push(base)
  w.append({ t: 'device', at: base.receivedAt - 1, event: 'connect', info: probeInfo(), error: null })
  w.append({ t: 'snapshot', at: base.receivedAt, snapshot: base })
  if (opts.hostSide) w.append({ t: 'tap-snapshot', at: base.receivedAt, tapSnapshot: hostSideOf(base) })
  w.append({ t: 'run-start', at: base.receivedAt, id: 1, origin: 'capture', workload: WORKLOAD, baseline: base })
  for (let i = 1; i <= 7; i++) {
    const n = Math.round((512 * i) / 7)
    const latency = opts.hostSide ? { latLastCount: n, latLastSum: n * GPU_LATENCY_CLOCKS } : {}
    const s = snap(i, {
      timestamp: 10_000 + 1000 * i,
      cycles: 1000 * i,
      mrd128: n,
      mrdBytes: n * 128,
      cpldCount: n,
      cpldBytes: n * 128,
      ...latency,
    })
    snaps.push(s)
    w.append({ t: 'snapshot', at: s.receivedAt, snapshot: s })
    if (opts.hostSide) w.append({ t: 'tap-snapshot', at: s.receivedAt, tapSnapshot: hostSideOf(s) })
  }
  const last = snaps.at(-1)!
  if (opts.hostSide) {
    w.append({ t: 'histogram', at: last.receivedAt, histogram: histogramOf(last, GPU_LATENCY_CLOCKS) })
    const host = { ...histogramOf(last, GPU_LATENCY_CLOCKS - SWITCH_CLOCKS), tap: 'hostSide' as const }
    w.append({ t: 'tap-histogram', at: last.receivedAt, histogram: host })
  }
  w.append({
    t: 'run',
    at: last.receivedAt,
    id: 1,
    origin: 'capture',
    workload: WORKLOAD,
    probeWindow: { from: last.counters.timestamp - last.counters.cycles, to: last.counters.timestamp },
    error: null,
    result: { ok: true },
  })
  return snaps
}

/** The pid of a process that has exited: a writer that is certainly gone. */
export const deadPid = (): number => {
  const r = spawnSync(process.execPath, ['-e', ''])
  return r.pid!
}

/**
 * What `kill -9` mid-recording leaves: records up to a point, a torn half line after them, and the
 * manifest still `recording`, naming a writer that no longer runs.
 */
export const killWriter = (dir: string, w: RecordingWriter, segment = 1): void => {
  appendFileSync(join(dir, segmentName(segment)), '{"t":"snapshot","at":17000000')
  const m = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as RecordingManifest
  expectRecording(m)
  writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify({ ...m, writer: { ...m.writer, pid: deadPid() } }))
  void w // the writer object is abandoned, never closed, as by a killed process
}

const expectRecording = (m: RecordingManifest): void => {
  if (m.status !== 'recording') throw new Error(`fixture: the manifest says ${m.status}, not recording`)
}

/** Two INTERVAL frames of sampler records (5 and 3) after a run: first index 100, varied values. */
export const writeIntervals = (w: RecordingWriter): IntervalRecord[] => {
  const samples: IntervalRecord[] = Array.from({ length: 8 }, (_, i) => ({
    ts: 20_000 + 2000 * (i + 1),
    cycles: 2000,
    mrdCount: 10 + i,
    mrdBytes: (10 + i) * 128,
    cpldCount: 9 + i,
    cpldBytes: (9 + i) * 128,
    occSum: 2000 * (3 + i),
    occPeak: 5 + i,
    latSum: 250 * (9 + i) + i,
    latCount: 9 + i,
  }))
  const batch = (seq: number, first: number, records: IntervalRecord[]) => ({
    t: 'interval' as const,
    at: 1_700_000_001_000 + seq,
    batch: { seq, firstIndex: 100 + first, dropped: 0, overflow: 0, records, receivedAt: 1_700_000_001_000 + seq },
  })
  w.append(batch(40, 0, samples.slice(0, 5)))
  w.append(batch(41, 5, samples.slice(5)))
  return samples
}
