/**
 * `pcie-scope bench --gpu|--twin --suite micro|graph`: every kernel of a suite on one runner, with the
 * traffic model's predicted MRd count and size mix beside what was measured. --gpu: the CUDA
 * kernel's GB/s, its ratio to cudaMemcpy and to the link's 128-B ceiling. --twin: the MRds the
 * twin's probe counted against the prediction. A progress bar on a terminal's stderr; a table or
 * one JSON object on stdout.
 */
import { Option, type Command } from 'commander'
import { PsError, isPsError } from '../core/errors.js'
import { SIZE_CLASSES, sameMrdCounts, type BySize, type MrdCounts } from '../core/size-classes.js'
import {
  cudaVersionName,
  GRAPH_ID_BYTES,
  GRAPH_ID_BYTES_DEFAULT,
  type GraphIdBytes,
  type GpuDeviceInfo,
  type GpuRunSummary,
  type Workload,
} from '../core/workload.js'
import { validateWorkload } from '../core/workload-schema.js'
import { measureRun } from '../measure/run.js'
import type { GpuMultiRunResult, Prediction } from '../native/addon.js'
import { GpuWorkloadRunner } from '../workload/gpu-runner.js'
import { SUITES, suiteKernels, type SuiteKernel, type SuiteName } from '../workload/suite.js'
import { parseIntIn, parseSize, twinModeOption } from './args.js'
import type { TwinMode } from '../core/twin-mode.js'
import { GRAPH_MEMORIES, type GraphMemory } from '../native/addon.js'
import { DEFAULT_GRAPH, runGraphBench, twinSessionOptions, type GraphBenchReport } from './bench-graph.js'
import { createProgressBar } from './progress-bar.js'
import { checkOptionScopes } from './source.js'
import type { CliDeps, CliIo, SetCode } from './io.js'

const MiB = 1024 * 1024
/** Defaults: enough bytes for a GPU's timing to settle; a Verilator twin is a million times slower. */
const DEFAULT_BYTES = { gpu: 256 * MiB, twin: 1 * MiB }

type Measured = MrdCounts

export interface BenchRow {
  kernel: string
  workload: Workload
  /** the traffic model's MRds, and the bandwidth model's GB/s on the spec's GPU host (docs/gpu-model.md) */
  predicted: Measured & { gbps?: number }
  /** --gpu: what the GPU did */
  gpu?: GpuRunSummary
  /** --twin: what the twin's probe counted, and whether it equals the prediction */
  probe?: Measured & { matchesPrediction: boolean }
  /** this kernel failed; the suite went on */
  error?: { code: string; message: string }
}

export interface BenchReport {
  suite: SuiteName
  source: 'gpu' | 'twin'
  bytes: number
  device: GpuDeviceInfo | null
  rows: BenchRow[]
}

/** "96:8192 32:8192": the non-zero size classes, largest first. */
const sizeMix = (b: BySize): string =>
  [...SIZE_CLASSES]
    .reverse()
    .filter((c) => b[c.key] > 0)
    .map((c) => `${c.key}:${b[c.key]}`)
    .join(' ') || '-'

const f2 = (n: number | null | undefined): string => (n === null || n === undefined ? '-' : n.toFixed(2))

const table = (head: string[], rows: string[][]): string => {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(w[i]!))
      .join('  ')
      .trimEnd()
  return [line(head), line(w.map((n) => '-'.repeat(n))), ...rows.map(line)].join('\n') + '\n'
}

const formatBench = (r: BenchReport): string => {
  const d = r.device
  const title =
    r.source === 'gpu'
      ? `suite ${r.suite} on ${d ? `${d.name} (PCIe gen${d.pcieGen} x${d.pcieWidth}, driver ${d.nvidiaDriver ?? 'unknown'}, CUDA ${cudaVersionName(d.driverVersion)} driver API, runtime ${cudaVersionName(d.runtimeVersion)})` : 'the GPU'}, ${r.bytes} B per kernel`
      : `suite ${r.suite} on the twin, ${r.bytes} B per kernel`
  const err = (row: BenchRow) => (row.error ? `FAILED [${row.error.code}] ${row.error.message}` : '')
  if (r.source === 'gpu') {
    const rows = r.rows.map((row) => {
      const g = row.gpu
      return [
        row.kernel,
        String(row.predicted.count),
        sizeMix(row.predicted.bySize),
        f2(row.predicted.gbps),
        g ? f2(g.kernelGbps) : '-',
        g ? f2(g.memcpyGbps) : '-',
        g ? f2(g.ratioToMemcpy) : '-',
        g ? f2(g.ratioToCeiling128) : '-',
        g ? (g.checksum.ok ? 'ok' : 'BAD') : err(row),
      ]
    })
    return `${title}\n\n${table(['kernel', 'predicted MRd', 'predicted sizes', 'predicted GB/s', 'GB/s', 'memcpy GB/s', 'x memcpy', 'x 128-B ceiling', 'checksum'], rows)}`
  }
  const rows = r.rows.map((row) => [
    row.kernel,
    String(row.predicted.count),
    sizeMix(row.predicted.bySize),
    row.probe ? String(row.probe.count) : '-',
    row.probe ? sizeMix(row.probe.bySize) : '-',
    row.probe ? (row.probe.matchesPrediction ? 'yes' : 'NO') : err(row),
  ])
  return `${title}\n\n${table(['kernel', 'predicted MRd', 'predicted sizes', 'probe MRd', 'probe sizes', 'match'], rows)}`
}

const f1 = (n: number): string => n.toFixed(1)

const formatGraphBench = (r: GraphBenchReport): string => {
  const d = r.device
  const g = `${r.graph} (${r.vertices ?? '?'} vertices, ${r.edges ?? '?'} directed edges, ${r.idBytes}-B ids, BFS/SSSP source ${r.bfsSource ?? '?'})`
  const err = (row: GraphBenchReport['rows'][number]) => (row.error ? `FAILED [${row.error.code}] ${row.error.message}` : '')
  if (r.source === 'gpu') {
    const title = `suite graph on ${d ? `${d.name} (PCIe gen${d.pcieGen} x${d.pcieWidth})` : 'the GPU'}: graph kernels on ${g}`
    const rows = r.rows.map((row) => {
      const x = row.gpu
      return [
        row.kernel,
        row.memory ?? '-',
        String(row.predicted.count),
        sizeMix(row.predicted.bySize),
        x ? x.bfs.medianMs.toFixed(2) : '-',
        x ? f2(x.gteps) : '-',
        row.predicted.edgeGbps !== undefined && row.memory === 'zerocopy' ? f1(row.predicted.edgeGbps) : '-',
        x ? f1(x.edgeGbps) : '-',
        x ? (x.levels.ok ? 'ok' : `BAD (${x.levels.mismatches})`) : err(row),
      ]
    })
    return `${title}\n\n${table(['kernel', 'edge list', 'predicted MRd', 'predicted sizes', 'run ms', 'GTEPS', 'predicted GB/s', 'edge GB/s', 'answer'], rows)}`
  }
  const rows = r.rows.map((row) => [
    row.kernel,
    String(row.predicted.launches),
    String(row.predicted.count),
    sizeMix(row.predicted.bySize),
    row.probe ? String(row.probe.count) : '-',
    row.probe ? sizeMix(row.probe.bySize) : '-',
    row.probe ? (row.probe.matchesPrediction ? 'yes' : 'NO') : err(row),
  ])
  return `suite graph on the twin: graph kernels on ${g}\n\n${table(['kernel', 'launches', 'predicted MRd', 'predicted sizes', 'probe MRd', 'probe sizes', 'match'], rows)}`
}

const workloadOf = (k: SuiteKernel): Workload =>
  validateWorkload({
    pattern: k.pattern,
    bytes: k.bytes,
    offset: k.offset,
    ...(k.elementBytes !== undefined ? { elementBytes: k.elementBytes } : {}),
  })

/** Errors that make every further kernel pointless: stop the suite. */
const FATAL = new Set([
  'PS_GPU_UNAVAILABLE',
  'PS_NATIVE_NOT_BUILT',
  'PS_TWIN_NOT_BUILT',
  'PS_TWIN_START',
  'PS_TWIN_EXITED',
  'PS_GPU_CANCELLED',
])

interface BenchOptions {
  /** --gpu --suite micro: every listed GPU at once ("all" or "0,1") */
  devices?: string
  gpu?: boolean
  twin?: boolean
  suite: SuiteName
  bytes?: number
  repeats?: number
  json?: boolean
  graph?: string
  /** one of GRAPH_ID_BYTES, as typed */
  idBytes: string
  memory?: GraphMemory
  /** --twin: the twin's design (its default: switch) */
  mode?: TwinMode
}

const benchGraph = async (
  o: BenchOptions,
  source: 'gpu' | 'twin',
  io: CliIo,
  setCode: (c: number) => void,
  deps: CliDeps,
): Promise<void> => {
  if (o.bytes !== undefined) throw new PsError('PS_USAGE', '--bytes does not apply to --suite graph: the graph sets the bytes')
  if (source === 'twin' && o.memory !== undefined) throw new PsError('PS_USAGE', '--memory only applies with --gpu')
  const memories = o.memory ? [o.memory] : GRAPH_MEMORIES
  const jobs = source === 'gpu' ? 3 * memories.length : 3
  const bar = createProgressBar(io.stderr, !o.json && (io.stderrIsTTY ?? false), jobs)
  let report: GraphBenchReport
  try {
    report = await runGraphBench(deps, {
      source,
      graph: o.graph ?? DEFAULT_GRAPH[source],
      idBytes: Number(o.idBytes) as GraphIdBytes,
      ...(o.mode !== undefined ? { mode: o.mode } : {}),
      memories,
      ...(o.repeats !== undefined ? { repeats: o.repeats } : {}),
      bar,
    })
  } finally {
    bar.clear()
  }
  io.stdout(o.json ? JSON.stringify(report) + '\n' : formatGraphBench(report))
  const bad = report.rows.some((r) => r.error || r.probe?.matchesPrediction === false || r.gpu?.levels.ok === false)
  setCode(bad ? 1 : 0)
}

/** One kernel on several GPUs at once. */
export interface DevicesRow {
  kernel: string
  workload: Workload
  result?: GpuMultiRunResult
  error?: { code: string; message: string }
}

/** `--devices`: the device ordinals of "all" or "0,1", checked against the GPUs present before any run. */
const deviceList = async (text: string, deps: CliDeps): Promise<number[]> => {
  const present = await deps
    .loadAddon()
    .gpuDevices()
    .then((d) => d.length)
    .catch((e: { code?: string; message?: string }) => {
      if (e.code === 'PS_GPU_NOT_BUILT' || e.code === 'PS_GPU_NO_DEVICE') throw new PsError('PS_GPU_UNAVAILABLE', String(e.message))
      throw e
    })
  if (present === 0) throw new PsError('PS_GPU_UNAVAILABLE', 'no CUDA device is usable on this machine')
  if (text === 'all') return [...Array(present).keys()]
  const list = text.split(',').map((x) => (/^\d+$/.test(x.trim()) ? Number(x) : NaN))
  if (!list.length || list.some((d) => !Number.isInteger(d)))
    throw new PsError('PS_USAGE', `--devices needs all or device ordinals such as 0,1, not ${text}`)
  const missing = list.filter((d) => d >= present)
  if (missing.length)
    throw new PsError(
      'PS_USAGE',
      `--devices ${text}: no device ${missing.join(', ')} here (this machine has ${present} CUDA device${present === 1 ? '' : 's'}: 0..${present - 1})`,
    )
  if (new Set(list).size !== list.length) throw new PsError('PS_USAGE', `--devices ${text} names a device twice`)
  return list
}

const benchDevices = async (o: BenchOptions, io: CliIo, setCode: (c: number) => void, deps: CliDeps): Promise<void> => {
  const addon = deps.loadAddon()
  if (!addon.gpuRunMulti)
    throw new PsError('PS_NATIVE_NOT_BUILT', 'this build of the addon cannot run several GPUs: run npm run build:native')
  const devices = await deviceList(o.devices!, deps)
  const bytes = o.bytes ?? DEFAULT_BYTES.gpu
  const kernels = suiteKernels('micro', bytes, addon.model.elementBytes)
  const rows: DevicesRow[] = []
  for (const k of kernels) {
    const w = workloadOf(k)
    try {
      const result = await addon.gpuRunMulti({ ...w, devices, ...(o.repeats !== undefined ? { repeats: o.repeats } : {}) })
      rows.push({ kernel: k.name, workload: w, result })
    } catch (e) {
      const err = e as { code?: string; message?: string }
      if (err.code === 'PS_GPU_NOT_BUILT' || err.code === 'PS_GPU_NO_DEVICE') throw new PsError('PS_GPU_UNAVAILABLE', String(err.message))
      rows.push({ kernel: k.name, workload: w, error: { code: err.code ?? 'PS_GPU_FAILED', message: String(err.message) } })
    }
  }
  if (o.json) io.stdout(JSON.stringify({ suite: 'micro', source: 'gpu', bytes, devices, rows }) + '\n')
  else {
    const body = rows.map((r) => {
      const x = r.result
      return [
        r.kernel,
        x ? x.devices.map((d) => f2(d.alone.kernelGbps)).join(' / ') : '-',
        x ? x.devices.map((d) => f2(d.together.kernelGbps)).join(' / ') : '-',
        x ? f2(x.totalGbps) : '-',
        x ? f2(x.sumAloneGbps) : '-',
        x
          ? x.devices.every((d) => d.alone.checksum.ok && d.together.checksum.ok)
            ? 'ok'
            : 'BAD'
          : `FAILED [${r.error!.code}] ${r.error!.message}`,
      ]
    })
    io.stdout(
      `suite micro on GPUs ${devices.join(', ')} at once, ${bytes} B per kernel per GPU\n\n${table(['kernel', 'GB/s alone (each)', 'GB/s together (each)', 'total GB/s', 'sum alone', 'checksum'], body)}`,
    )
  }
  setCode(rows.some((r) => r.error || r.result?.devices.some((d) => !d.together.checksum.ok)) ? 1 : 0)
}

export const registerBench = (program: Command, io: CliIo, setCode: SetCode, deps: CliDeps): void => {
  program
    .command('bench')
    .description("run a suite of kernels on a GPU or on the twin, with the traffic model's prediction beside each measurement")
    .option('--gpu', 'run the CUDA kernels on this machine’s GPU (native addon built with CUDA)')
    .option('--twin', "run the workloads on the twin and compare its probe's MRd counts with the prediction")
    .addOption(
      new Option(
        '--suite <name>',
        'kernels to run: micro = every pattern (x lane width); graph = every graph kernel (BFS, SSSP, CC, PageRank) on --graph',
      )
        .choices(SUITES)
        .default('micro'),
    )
    .option(
      '--graph <spec>',
      `suite graph: kron:S[:SEED], urand:S[:SEED] or file:PATH (default ${DEFAULT_GRAPH.gpu} on a GPU, ${DEFAULT_GRAPH.twin} on the twin)`,
    )
    .addOption(
      new Option('--id-bytes <n>', 'suite graph: bytes per neighbour id')
        .choices(GRAPH_ID_BYTES.map(String))
        .default(String(GRAPH_ID_BYTES_DEFAULT)),
    )
    .addOption(new Option('--memory <m>', 'suite graph, --gpu: one edge-list memory (default: each of them)').choices(GRAPH_MEMORIES))
    .option(
      '--bytes <n>',
      `useful bytes per kernel, suffixes K, M, G binary (default ${DEFAULT_BYTES.gpu / MiB}M on a GPU, ${DEFAULT_BYTES.twin / MiB}M on the twin)`,
      parseSize,
    )
    .option('--repeats <n>', 'GPU: timed runs per kernel, median reported, 1..1000 (default 10)', parseIntIn(1, 1_000))
    .addOption(twinModeOption())
    .option(
      '--devices <list>',
      '--gpu --suite micro: all, or device ordinals 0,1,…: every listed GPU runs each kernel at once on one host buffer, against each alone',
    )
    .option('--json', 'print exactly one JSON object on stdout, no progress bar')
    .action(async (o: BenchOptions) => {
      if (o.gpu === o.twin) throw new PsError('PS_USAGE', 'give exactly one of --gpu and --twin')
      const source = o.gpu ? 'gpu' : 'twin'
      checkOptionScopes(source, o)
      if (o.devices !== undefined) {
        if (source !== 'gpu' || o.suite !== 'micro') throw new PsError('PS_USAGE', '--devices goes with --gpu --suite micro')
        return benchDevices(o, io, setCode, deps)
      }
      if (o.suite === 'graph') return benchGraph(o, source, io, setCode, deps)
      if (o.graph !== undefined || o.memory !== undefined) throw new PsError('PS_USAGE', '--graph and --memory only apply to --suite graph')
      const bytes = o.bytes ?? DEFAULT_BYTES[source]
      const addon = deps.loadAddon()
      const kernels = suiteKernels(o.suite, bytes, addon.model.elementBytes)
      const workloads = kernels.map(workloadOf) // every kernel valid before anything runs
      const bar = createProgressBar(io.stderr, !o.json && (io.stderrIsTTY ?? false), kernels.length)
      const report: BenchReport = { suite: o.suite, source, bytes, device: null, rows: [] }
      const session = source === 'twin' ? await deps.openSession(twinSessionOptions(o.mode)) : undefined
      try {
        for (const [i, k] of kernels.entries()) {
          const w = workloads[i]!
          bar.update(i, k.name)
          const predicted: Prediction = await addon.predict({ ...w })
          const row: BenchRow = {
            kernel: k.name,
            workload: w,
            predicted: {
              count: predicted.count,
              bySize: predicted.bySize,
              bytes: predicted.bytes,
              ...(predicted.predictedGbps !== undefined ? { gbps: predicted.predictedGbps } : {}),
            },
          }
          try {
            if (session) {
              const c = await measureRun(session, w)
              const probe = { count: c.requests.count, bySize: c.requests.bySize, bytes: c.bytes.requested }
              row.probe = { ...probe, matchesPrediction: sameMrdCounts(probe, row.predicted) }
            } else {
              const runner = new GpuWorkloadRunner(addon, {
                ...(o.repeats !== undefined ? { repeats: o.repeats } : {}),
                onProgress: (p) => bar.update(i + (p.total > 0 ? p.done / p.total : 0), `${k.name} ${p.phase} ${p.done}/${p.total}`),
              })
              const r = await runner.run(w)
              row.gpu = r.gpu!
              report.device ??= r.gpu!.device
            }
          } catch (e) {
            if (!isPsError(e) || FATAL.has(e.code)) throw e
            row.error = { code: e.code, message: e.message }
          }
          report.rows.push(row)
        }
      } finally {
        bar.clear()
        await session?.close()
      }
      io.stdout(o.json ? JSON.stringify(report) + '\n' : formatBench(report))
      const bad = report.rows.some((r) => r.error || r.probe?.matchesPrediction === false || r.gpu?.checksum.ok === false)
      setCode(bad ? 1 : 0)
    })
}
