/**
 * VCD export of the interval samples (the probe sampler's records, `interval` records), for
 * waveform viewers (GTKWave, PulseView). One module `pcie_scope`; each sampler record covers the
 * probe clocks (ts - cycles, ts], and its values are written at the interval's start so that a
 * viewer shows each value across the interval it describes. `valid` is 1 while a sample covers
 * the time and 0 over gaps (records dropped by the firmware or the probe's FIFO, time between
 * runs). The timescale is the largest VCD unit that divides the probe's clock period (4 ns at
 * 250 MHz → 1 ns), so times are exact.
 */
import { PsError } from '../core/errors.js'
import type { IntervalRecord } from '../core/probe.js'
import { packageVersion } from '../util/package-root.js'
import type { OpenedRecording } from '../recording/catalog.js'
import type { AnyRecord } from '../recording/format.js'

interface Signal {
  name: string
  /** bits of a vector, or 'real' */
  width: number | 'real'
  value: (s: IntervalRecord, clockHz: number) => number
}

const ns = (cycles: number, clockHz: number): number => (cycles * 1e9) / clockHz

/** The signals after `valid`, in declaration order. */
export const VCD_SIGNALS: readonly Signal[] = [
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
    '$enddefinitions $end',
    '',
  ].join('\n')
  // the header waits for the first interval record: a recording without any is refused, not
  // exported as a header alone
  let started = false

  // clocks of the current probe epoch → VCD time; a probe reset (TIMESTAMP going backwards)
  // carries on from the last end, so that time never goes backwards
  let offset = 0
  let lastEnd: number | undefined
  const time = (clocks: number): string => `#${Math.round((clocks + offset) * ts.perClock)}`
  for await (const r of records) {
    if (r.t !== 'interval') continue
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
    if (!started) yield header
    started = true
    yield out
  }
  if (!started) {
    throw new PsError(
      'PS_RECORDING_NO_INTERVALS',
      `${recording.manifest.name} holds no interval records, which are what a VCD shows: record with \`capture --sample-us N\` or \`serve --sample-us N\``,
    )
  }
  if (lastEnd !== undefined) yield `${time(lastEnd - offset)}\n0${valid}\n`
}
