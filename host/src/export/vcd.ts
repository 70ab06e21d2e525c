/**
 * VCD export of the interval samples (the probe sampler's records, `interval` records), for
 * waveform viewers (GTKWave, PulseView). One module `pcie_scope`; each sampler record covers the
 * probe clocks (ts - cycles, ts], and its values are written at the interval's start so that a
 * viewer shows each value across the interval it describes. `valid` is 1 while a sample covers
 * the time and 0 over gaps (records dropped by the firmware or the probe's FIFO, time between
 * runs). The timescale is the largest VCD unit that divides the probe's clock period (4 ns at
 * 250 MHz → 1 ns), so times are exact.
 *
 * The GPU's own PCIe counters (gpu-counters records, `serve --gpu-counters`) are module
 * `gpu_counters`: its own `valid` and the rates of each interval from its start. Their clock is the
 * counter source's, not the probe's, and a VCD has one time axis: the first of the two kinds in the
 * recording takes it, and records of the other kind are left out, counted in a closing $comment.
 */
import { PsError } from '../core/errors.js'
import type { IntervalRecord } from '../core/probe.js'
import { packageVersion } from '../util/package-root.js'
import type { OpenedRecording } from '../recording/catalog.js'
import type { AnyRecord, GpuCountersRecord } from '../recording/format.js'

interface Signal {
  name: string
  /** bits of a vector, or 'real' */
  width: number | 'real'
  value: (s: IntervalRecord, clockHz: number) => number
}

const ns = (cycles: number, clockHz: number): number => (cycles * 1e9) / clockHz

/** The signals after `valid`, in declaration order. */
const VCD_SIGNALS: readonly Signal[] = [
  { name: 'mrd_count', width: 32, value: (s) => s.mrdCount },
  { name: 'mrd_bytes', width: 64, value: (s) => s.mrdBytes },
  { name: 'cpld_count', width: 32, value: (s) => s.cpldCount },
  { name: 'cpld_bytes', width: 64, value: (s) => s.cpldBytes },
  // reads in flight averaged over the interval's clocks, and the most at once
  { name: 'outstanding_avg', width: 'real', value: (s) => (s.cycles > 0 ? s.occSum / s.cycles : 0) },
  { name: 'outstanding_peak', width: 32, value: (s) => s.occPeak },
  // first-completion latency of the reads that completed in the interval (0 when none did)
  { name: 'latency_avg_ns', width: 'real', value: (s, hz) => (s.latCount > 0 ? ns(s.latSum / s.latCount, hz) : 0) },
  { name: 'latency_count', width: 32, value: (s) => s.latCount },
]

/** The signals of module `gpu_counters` after its `valid`, all real. */
const VCD_GPU_SIGNALS: readonly { name: string; value: (r: GpuCountersRecord) => number }[] = [
  { name: 'read_gbps', value: (r) => r.readGBps },
  { name: 'write_gbps', value: (r) => r.writeGBps },
  { name: 'requests_per_s', value: (r) => r.requestsPerSecond },
  { name: 'mean_request_bytes', value: (r) => r.meanRequestBytes ?? 0 },
]

const UNITS = ['s', 'ms', 'us', 'ns', 'ps', 'fs'] as const

/** The VCD timescale for a clock: `[magnitude, unit, timescale units per clock]`. */
export const timescaleFor = (clockHz: number): { text: string; perClock: number } => {
  const periodFs = 1e15 / clockHz
  for (let u = 0; u < UNITS.length; u++) {
    for (const mag of [100, 10, 1]) {
      const unitFs = mag * 10 ** (15 - 3 * u)
      const perClock = periodFs / unitFs
      if (perClock >= 1 && Math.abs(perClock - Math.round(perClock)) < 1e-9) {
        return { text: `${mag} ${UNITS[u]}`, perClock: Math.round(perClock) }
      }
    }
  }
  // a clock whose period is no whole number of femtoseconds: rounded to the femtosecond
  return { text: '1 fs', perClock: periodFs }
}

/** VCD identifier codes: printable ASCII from '!', one character each for our few signals. */
const idOf = (i: number): string => String.fromCharCode(33 + i)

const valueText = (sig: Signal, v: number, id: string): string =>
  sig.width === 'real' ? `r${v} ${id}` : `b${Math.max(0, Math.round(v)).toString(2)} ${id}`

export async function* exportVcd(recording: OpenedRecording, records: AsyncIterable<AnyRecord>): AsyncGenerator<string> {
  const clockHz = recording.manifest.probe.clockHz
  const ts = timescaleFor(clockHz)
  const valid = idOf(0)
  const gpuValid = idOf(VCD_SIGNALS.length + 1)
  const gpuId = (i: number): string => idOf(VCD_SIGNALS.length + 2 + i)
  const header = [
    `$date ${recording.manifest.startedAt} $end`,
    `$version pcie-scope ${packageVersion()} (recording ${recording.manifest.name}) $end`,
    `$comment probe clock ${clockHz} Hz: ${ts.perClock} x ${ts.text} per clock $end`,
    `$timescale ${ts.text} $end`,
    '$scope module pcie_scope $end',
    `$var wire 1 ${valid} valid $end`,
    ...VCD_SIGNALS.map((s, i) =>
      s.width === 'real'
        ? `$var real 64 ${idOf(i + 1)} ${s.name} $end`
        : `$var wire ${s.width} ${idOf(i + 1)} ${s.name} [${s.width - 1}:0] $end`,
    ),
    '$upscope $end',
    '$scope module gpu_counters $end',
    `$var wire 1 ${gpuValid} valid $end`,
    ...VCD_GPU_SIGNALS.map((s, i) => `$var real 64 ${gpuId(i)} ${s.name} $end`),
    '$upscope $end',
    '$enddefinitions $end',
    '',
  ].join('\n')
  // the header waits for the first interval (the probe's or the GPU counters'): a recording
  // without any is refused, not exported as a header alone
  let started = false
  const begin = function* (): Generator<string> {
    if (!started) yield header
    started = true
  }

  // clocks of the current probe epoch → VCD time; a probe reset (TIMESTAMP going backwards)
  // carries on from the last end, so that time never goes backwards
  let offset = 0
  let lastEnd: number | undefined
  const time = (clocks: number): string => `#${Math.round((clocks + offset) * ts.perClock)}`
  // the axis: the first of the probe's intervals and the GPU counters; the other kind is left out
  let axis: 'probe' | 'gpu' | undefined
  let leftOut = 0
  let gpuEnd: number | undefined
  const unitNs = 1e9 / clockHz / ts.perClock
  const gpuTime = (ns: number): string => `#${Math.round(ns / unitNs)}`
  for await (const r of records) {
    if (r.t === 'gpu-counters') {
      axis ??= 'gpu'
      if (axis !== 'gpu') {
        leftOut++
        continue
      }
      let out = gpuEnd !== undefined && r.startNs > gpuEnd ? `${gpuTime(gpuEnd)}\n0${gpuValid}\n` : ''
      out += `${gpuTime(r.startNs)}\n1${gpuValid}\n`
      VCD_GPU_SIGNALS.forEach((sig, i) => (out += `r${sig.value(r)} ${gpuId(i)}\n`))
      gpuEnd = Math.max(gpuEnd ?? 0, r.endNs)
      yield* begin()
      yield out
      continue
    }
    if (r.t !== 'interval') continue
    axis ??= 'probe'
    if (axis !== 'probe') {
      leftOut += r.batch.records.length
      continue
    }
    let out = ''
    for (const s of r.batch.records) {
      const start = s.ts - s.cycles
      if (lastEnd !== undefined && start + offset < lastEnd) offset = lastEnd - start
      if (lastEnd !== undefined && start + offset > lastEnd) out += `${time(lastEnd - offset)}\n0${valid}\n`
      out += `${time(start)}\n1${valid}\n`
      VCD_SIGNALS.forEach((sig, i) => (out += valueText(sig, sig.value(s, clockHz), idOf(i + 1)) + '\n'))
      lastEnd = s.ts + offset
    }
    if (!out) continue
    yield* begin()
    yield out
  }
  if (!started) {
    throw new PsError(
      'PS_RECORDING_NO_INTERVALS',
      `${recording.manifest.name} holds no interval records, which are what a VCD shows: record with \`capture --sample-us N\` or \`serve --sample-us N\` (or \`serve --gpu-counters\`)`,
    )
  }
  if (lastEnd !== undefined) yield `${time(lastEnd - offset)}\n0${valid}\n`
  if (gpuEnd !== undefined) yield `${gpuTime(gpuEnd)}\n0${gpuValid}\n`
  if (leftOut > 0) {
    const what = axis === 'probe' ? 'GPU counter intervals' : 'probe interval samples'
    yield `$comment ${leftOut} ${what} left out: their clock is not this file's (export csv, jsonl, parquet or perfetto has them) $end\n`
  }
}
