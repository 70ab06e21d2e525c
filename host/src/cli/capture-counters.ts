/**
 * `capture --gpu --pattern P --counters [--json]`: a workload's kernels on this machine's GPU with
 * the GPU's own PCIe counters sampled around them (docs/gpu-counters.md), no probe: the samples
 * over the timed kernels (placed on the counters' clock by gpu-counters/kernel-window.ts), their
 * totals and what they derive (requests, mean request size) per run and per kernel, beside the
 * kernel's GB/s and, where the model predicts the run, its request count and the difference.
 */
import { PsError } from '../core/errors.js'
import { isGraphWorkload, type AnyWorkload } from '../core/workload.js'
import { derive, defaultSelfWrite, sumWindow, type DerivedRates } from '../gpu-counters/derive.js'
import { clockOffsetNs, samplesWithin, type BatchArrival } from '../gpu-counters/kernel-window.js'
import { GpuCounterSampler } from '../gpu-counters/sampler.js'
import type { GpuCounterSample, GpuCounterSourceInfo } from '../gpu-counters/samples.js'
import type { GpuProgress } from '../native/addon.js'
import { gpuAvailability, GpuWorkloadRunner } from '../workload/gpu-runner.js'
import type { CliDeps, CliIo, SetCode } from './io.js'
import { EXIT_OK } from './io.js'

/** the sampling interval and decode period of a capture: fine samples, a tight clock offset */
const COUNTERS_INTERVAL_US = 100
const COUNTERS_POLL_MS = 10
/** after the run, how long to wait for the samples that cover its end */
const TAIL_MS = 2000

export interface CountersCaptureOptions {
  workload: AnyWorkload
  gpu?: boolean
  port?: string
  twin?: boolean
  out?: string
  jsonl?: boolean
  sampleUs?: number
  json?: boolean
}

/** Totals over samples, and what they derive. */
export interface CounterTotals {
  samples: number
  readBytes: number
  writeBytes: number
  requests: number
  meanRequestBytes: number | null
  readGBps: number
}

/** What `capture --counters --json` prints. */
export interface CountersCaptureReport {
  workload: AnyWorkload
  source: GpuCounterSourceInfo
  /** the kernel as the runner timed it */
  kernel: { repeats: number; medianMs: number | null; gbps: number | null }
  /** the timed kernels on the counters' clock: ns since the source's origin, and the offset's precision */
  window: { startNs: number; endNs: number; hostOffsetNs: number; precisionNs: number }
  /** every sample over the timed kernels */
  series: { startNs: number; endNs: number; readBytes: number; writeBytes: number }[]
  /** over all timed kernels */
  run: CounterTotals
  /** the run's totals divided by the kernels timed */
  perKernel: CounterTotals
  /** the model's MRds per kernel beside the counters' (null where the run has no prediction) */
  model: { requests: number; counterRequests: number; difference: number; ratio: number | null } | null
  lost: number
}

const totals = (samples: readonly GpuCounterSample[], info: GpuCounterSourceInfo, per = 1): CounterTotals => {
  const d: DerivedRates = derive(sumWindow(samples), { selfWriteBytesPerSample: defaultSelfWrite(info.source) })
  const w = sumWindow(samples)
  return {
    samples: samples.length / per,
    readBytes: w.readBytes / per,
    writeBytes: w.writeBytes / per,
    requests: d.requests / per,
    meanRequestBytes: d.meanRequestBytes,
    readGBps: d.readGBps,
  }
}

const hostNs = (): number => (performance.timeOrigin + performance.now()) * 1e6

export const captureWithCounters = async (o: CountersCaptureOptions, io: CliIo, setCode: SetCode, deps: CliDeps): Promise<void> => {
  if (!o.gpu) throw new PsError('PS_USAGE', '--counters samples the GPU around its kernel: it needs --gpu')
  const other = [o.port && '--port', o.twin && '--twin', o.out && '--out', o.jsonl && '--jsonl', o.sampleUs !== undefined && '--sample-us']
  const given = other.filter((x): x is string => typeof x === 'string')
  if (given.length)
    throw new PsError('PS_USAGE', `--counters runs the kernel on this machine's GPU without a probe: ${given.join(', ')} does not apply`)
  // a graph kernel's runner reports its levels, not timed kernels to place on the counters' clock
  if (isGraphWorkload(o.workload))
    throw new PsError('PS_USAGE', '--counters takes a micro pattern (strided, merged-aligned, merged-misaligned), not a graph kernel')
  const gpu = await gpuAvailability(deps.loadAddon)
  if (!gpu.available) throw new PsError(gpu.code === 'PS_NATIVE_NOT_BUILT' ? 'PS_NATIVE_NOT_BUILT' : 'PS_GPU_UNAVAILABLE', gpu.reason)
  const addon = deps.loadAddon()
  const progress = (m: string) => io.stderr(`pcie-scope: ${m}\n`)

  const sampler = GpuCounterSampler.start(addon, { intervalUs: COUNTERS_INTERVAL_US, pollMs: COUNTERS_POLL_MS })
  const samples: GpuCounterSample[] = []
  const arrivals: BatchArrival[] = []
  let lost = 0
  sampler.subscribe((e) => {
    if (e.type !== 'samples' || e.samples.length === 0) return
    samples.push(...e.samples)
    arrivals.push({ hostNs: hostNs(), lastEndNs: e.samples.at(-1)!.endNs })
    lost = e.lost
  })
  let info: GpuCounterSourceInfo
  try {
    info = await sampler.started()
  } catch (e) {
    await sampler.stop().catch(() => {})
    throw e
  }
  progress(`GPU counters: ${info.source} on ${info.chip}, every ${info.intervalNs / 1000} µs`)

  // the timed kernels on the host's clock: the runner's first and last `kernel` reports
  let from: number | undefined
  let to: number | undefined
  let repeats = 0
  const onProgress = (p: GpuProgress) => {
    if (p.phase !== 'kernel') return
    if (p.done === 0) from = hostNs()
    if (p.done === p.total) {
      to = hostNs()
      repeats = p.total
    }
  }
  let result
  try {
    result = await new GpuWorkloadRunner(addon, { onProgress }).run(o.workload)
    // the samples that cover the kernels' end arrive within a decode period or two
    const until = Date.now() + TAIL_MS
    while (Date.now() < until && !(arrivals.length > 0 && to !== undefined && arrivals.at(-1)!.hostNs > to + 2 * COUNTERS_POLL_MS * 1e6))
      await new Promise((r) => setTimeout(r, COUNTERS_POLL_MS))
  } finally {
    await sampler.stop().catch(() => {})
  }
  const offset = clockOffsetNs(arrivals)
  if (from === undefined || to === undefined || offset === null || repeats === 0)
    throw new PsError('PS_GPU_COUNTERS_FAILED', 'the run reported no timed kernels, or no samples arrived while it ran.')
  const over = samplesWithin(samples, offset, from, to)
  const run = totals(over, info)
  const perKernel = totals(over, info, repeats)
  const predicted = result.issued.count
  const report: CountersCaptureReport = {
    workload: result.workload,
    source: info,
    kernel: { repeats, medianMs: result.gpu?.kernel.medianMs ?? null, gbps: result.gpu?.kernelGbps ?? null },
    window: { startNs: from - offset, endNs: to - offset, hostOffsetNs: offset, precisionNs: COUNTERS_POLL_MS * 1e6 },
    series: over.map((s) => ({ startNs: s.startNs, endNs: s.endNs, readBytes: s.readBytes, writeBytes: s.writeBytes })),
    run,
    perKernel,
    model: {
      requests: predicted,
      counterRequests: perKernel.requests,
      difference: perKernel.requests - predicted,
      ratio: predicted > 0 ? perKernel.requests / predicted : null,
    },
    lost,
  }
  io.stdout(o.json ? JSON.stringify(report) + '\n' : formatCountersReport(report))
  setCode(EXIT_OK)
}

const f = (v: number | null, digits = 2): string => (v === null ? '-' : v.toFixed(digits))

const formatCountersReport = (r: CountersCaptureReport): string =>
  `${r.kernel.repeats} kernels, ${f(r.kernel.medianMs, 3)} ms median, ${f(r.kernel.gbps)} GB/s; ` +
  `counters (${r.source.source}): ${r.run.samples} samples over them, ${r.lost} lost\n` +
  `per kernel: read ${Math.round(r.perKernel.readBytes)} B, write ${Math.round(r.perKernel.writeBytes)} B, ` +
  `${Math.round(r.perKernel.requests)} requests, mean ${f(r.perKernel.meanRequestBytes, 1)} B, read ${f(r.run.readGBps)} GB/s\n` +
  (r.model
    ? `model: ${r.model.requests} requests per kernel; counters ${Math.round(r.model.counterRequests)} (${r.model.difference >= 0 ? '+' : ''}${Math.round(r.model.difference)})\n`
    : '')
