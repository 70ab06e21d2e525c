/**
 * `pcie-scope watch --gpu [--device N] [--interval-us N] [--duration S] [--source S] [--json]`:
 * the GPU's own PCIe counters, device-wide (whichever process makes the traffic), sampled by the
 * addon on a thread of its own: a line every 0.5 s of GPU time (GB/s read and write, read
 * requests per second, mean request size, reads in flight by Little's law) and a summary at the
 * end (with --json one JSON object on stdout, the lines then on stderr). Ctrl-C or --duration
 * stops it. Lost samples are counted in every line and in the summary. docs/gpu-counters.md.
 */
import { InvalidArgumentError, Option, type Command } from 'commander'
import { PsError } from '../core/errors.js'
import {
  derive,
  defaultSelfWrite,
  IDLE_ROUND_TRIP_NS,
  sumWindow,
  WindowAccumulator,
  type CounterWindow,
  type DerivedRates,
} from '../gpu-counters/derive.js'
import { GpuCounterSampler, type GpuCountersSummary } from '../gpu-counters/sampler.js'
import type { GpuCounterSourceInfo } from '../gpu-counters/samples.js'
import { parseIntIn } from './args.js'
import type { CliDeps, CliIo, SetCode } from './io.js'

/** GPU time a live line covers */
const WATCH_LINE_NS = 500e6

interface WatchOptions {
  gpu?: boolean
  device: number
  intervalUs: number
  duration?: number
  source: 'auto' | 'pm-sampling' | 'nvml'
  rttNs: number
  selfWriteBytes?: number
  json?: boolean
}

/** The summary `watch --gpu --json` prints. */
export interface WatchSummary {
  source: GpuCounterSourceInfo | null
  samples: number
  lost: number
  overflow: boolean
  /** GPU time the samples cover */
  seconds: number
  samplesPerSecond: number
  /** the sampling thread's CPU, its set-up included */
  threadCpuSeconds: number
  /** the sampling thread's CPU between its first and last batch over the time sampled (1 = one core) */
  cpuShare: number
  totals: { readBytes: number; writeBytes: number }
  /** over the whole watch */
  derived: DerivedRates
  /** the largest of the live lines */
  peak: { readGBps: number; writeGBps: number; requestsPerSecond: number }
  roundTripNs: number
  selfWriteBytesPerSample: number
}

/** A positive number (fractions allowed: seconds, ns) up to max, refused with its bounds. */
const parsePositiveUpTo =
  (max: number): ((v: string) => number) =>
  (v) => {
    const n = Number(v)
    if (!Number.isFinite(n) || n <= 0 || n > max) throw new InvalidArgumentError(`expected a number in (0, ${max}]`)
    return n
  }

const fmt = (v: number, digits = 2): string => v.toFixed(digits)

/** One live line: window end on the GPU clock, rates, requests, mean size, in flight, samples and lost. */
export const formatWatchLine = (d: DerivedRates, lost: number): string =>
  [
    `t=${fmt(d.endNs / 1e9, 1).padStart(6)}s`,
    `read ${fmt(d.readGBps).padStart(6)} GB/s`,
    `write ${fmt(d.writeGBps).padStart(6)} GB/s`,
    `MRd ${fmt(d.requestsPerSecond / 1e6, 1).padStart(6)} M/s`,
    `mean ${d.meanRequestBytes === null ? '     -' : fmt(d.meanRequestBytes, 1).padStart(6)} B`,
    `in flight ~${Math.round(d.inFlight)}`,
    `[${d.samples} samples, ${lost} lost]`,
  ].join('  ')

const describeSource = (i: GpuCounterSourceInfo): string =>
  `${i.source} on ${i.chip}: ${i.metrics.map((m) => m.name).join(', ')} every ${i.intervalNs / 1000} us` +
  (i.trigger === 'sysclk' ? ' (sys clocks: the samples show the real interval)' : '') +
  (i.fallbackReason ? `; PM sampling refused: ${i.fallbackReason}` : '')

export const registerWatch = (program: Command, io: CliIo, setCode: SetCode, deps: CliDeps): void => {
  program
    .command('watch')
    .description("the GPU's own PCIe counters, device-wide, live (CUPTI PM sampling, or NVML where it is refused)")
    .option('--gpu', 'sample the GPU (the only source of watch today)')
    .option('--device <n>', 'CUDA device ordinal, 0..63', parseIntIn(0, 63), 0)
    .option(
      '--interval-us <n>',
      'sampling interval in µs, 1..1000000 (PM sampling on an H200 keeps up with 10 µs)',
      parseIntIn(1, 1_000_000),
      100,
    )
    .option('--duration <s>', 'stop after this many seconds of sampling, at most 86400 (default: at Ctrl-C)', parsePositiveUpTo(86_400))
    .addOption(new Option('--source <s>', 'counter source').choices(['auto', 'pm-sampling', 'nvml']).default('auto'))
    .option(
      '--rtt-ns <n>',
      "round trip for Little's law in ns, at most 1e9 (default: an idle H200's, a lower bound under load)",
      parsePositiveUpTo(1e9),
      IDLE_ROUND_TRIP_NS,
    )
    .option(
      '--self-write-bytes <n>',
      'bytes a sample adds to the write counter itself, 0..65536 (default: 92 for PM sampling, 0 for NVML)',
      parseIntIn(0, 65_536),
    )
    .option('--json', 'print exactly one JSON object (the summary) on stdout; the live lines go to stderr')
    .action(async (o: WatchOptions) => {
      if (!o.gpu) throw new PsError('PS_USAGE', 'watch needs --gpu (the probe is watched with serve)')
      const summary = await watchGpu(o, io, deps)
      if (o.json) io.stdout(JSON.stringify(summary) + '\n')
      else io.stdout(formatSummary(summary))
      setCode(0)
    })
}

const formatSummary = (s: WatchSummary): string => {
  const d = s.derived
  return (
    `${s.samples} samples in ${fmt(s.seconds, 3)} s (${Math.round(s.samplesPerSecond)}/s), ${s.lost} lost${s.overflow ? ', hardware buffer overflowed' : ''}; ` +
    `sampler thread ${fmt(s.cpuShare * 100, 1)} % of a core\n` +
    `read ${fmt(d.readGBps)} GB/s (payload ${fmt(d.payloadGBps)}), write ${fmt(d.writeGBps)} GB/s, ` +
    `${fmt(d.requestsPerSecond / 1e6, 1)} M MRd/s, mean request ${d.meanRequestBytes === null ? '-' : fmt(d.meanRequestBytes, 1)} B, ` +
    `in flight ~${Math.round(d.inFlight)} (round trip ${s.roundTripNs} ns); peak read ${fmt(s.peak.readGBps)} GB/s\n`
  )
}

/** Samples until --duration or Ctrl-C; prints a line per 0.5 s of GPU time; returns the summary. */
export const watchGpu = async (o: WatchOptions, io: CliIo, deps: CliDeps): Promise<WatchSummary> => {
  const addon = deps.loadAddon()
  const live = o.json ? io.stderr : io.stdout
  const sampler = GpuCounterSampler.start(addon, { device: o.device, intervalUs: o.intervalUs, source: o.source })
  const lines = new WindowAccumulator(WATCH_LINE_NS)
  const windows: CounterWindow[] = []
  const peak = { readGBps: 0, writeGBps: 0, requestsPerSecond: 0 }
  let selfWrite = o.selfWriteBytes ?? 0
  let lost = 0
  // the thread's CPU from the first batch on: setting CUPTI up (0.5 s idle, ~9 s on a busy H200) is not sampling
  let cpuAtFirst: number | undefined
  let cpuAtLast = 0
  let timer: NodeJS.Timeout | undefined
  const opts = () => ({ selfWriteBytesPerSample: selfWrite, roundTripNs: o.rttNs })
  const show = (w: CounterWindow) => {
    windows.push(w)
    const d = derive(w, opts())
    peak.readGBps = Math.max(peak.readGBps, d.readGBps)
    peak.writeGBps = Math.max(peak.writeGBps, d.writeGBps)
    peak.requestsPerSecond = Math.max(peak.requestsPerSecond, d.requestsPerSecond)
    live(formatWatchLine(d, lost) + '\n')
  }
  sampler.subscribe((e) => {
    if (e.type === 'start') {
      selfWrite = o.selfWriteBytes ?? defaultSelfWrite(e.info.source)
      io.stderr(`pcie-scope: watching ${describeSource(e.info)}\n`)
      // the duration counts from the first samples: setting the counters up takes ~0.5 s
      if (o.duration !== undefined) timer = setTimeout(() => void sampler.stop(), o.duration * 1000)
      return
    }
    lost = e.lost
    cpuAtFirst ??= e.threadCpuSeconds
    cpuAtLast = e.threadCpuSeconds
    for (const w of lines.push(e.samples)) show(w)
  })
  const offInterrupt = io.onInterrupt?.(() => {
    io.stderr('pcie-scope: interrupted: stopping\n')
    void sampler.stop()
  })
  let end: GpuCountersSummary
  try {
    end = await sampler.done
  } finally {
    offInterrupt?.()
    if (timer) clearTimeout(timer)
  }
  const last = lines.flush()
  if (last) show(last)
  const whole = windows.length > 0 ? { ...sumWindow([]), startNs: windows[0]!.startNs, endNs: windows.at(-1)!.endNs } : sumWindow([])
  for (const w of windows) {
    whole.samples += w.samples
    whole.readBytes += w.readBytes
    whole.writeBytes += w.writeBytes
  }
  const derived = derive(whole, opts())
  return {
    source: end.info ?? null,
    samples: end.samples,
    lost: end.lost,
    overflow: end.overflow,
    seconds: derived.seconds,
    samplesPerSecond: derived.seconds > 0 ? whole.samples / derived.seconds : 0,
    threadCpuSeconds: end.threadCpuSeconds,
    cpuShare: derived.seconds > 0 ? (cpuAtLast - (cpuAtFirst ?? cpuAtLast)) / derived.seconds : 0,
    totals: { readBytes: whole.readBytes, writeBytes: whole.writeBytes },
    derived,
    peak,
    roundTripNs: o.rttNs,
    selfWriteBytesPerSample: selfWrite,
  }
}
