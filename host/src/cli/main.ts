/**
 * pcie-scope command line.
 *
 *   pcie-scope capture [--twin | --gpu --port PATH] --pattern NAME [--bytes N] [--offset B] [--element-bytes E] [--l1 ideal|bypass] [--latency-cycles N | --latency-ns N | --latency-dist D] [--cpl-split B] [--segments 1|2|4] [--tags N]
 *                      [--sample-us N] [--filter BASE:LIMIT] [--out DIR [--frames]] [--json | --jsonl]
 *   pcie-scope capture [--twin | --gpu --port PATH [--memory M]] --pattern KERNEL --graph G [--id-bytes 4|8] [--source-vertex V] [same options]
 *   pcie-scope bench   --gpu | --twin [--suite micro] [--bytes N] [--repeats N] [--json]
 *   pcie-scope bench   --gpu | --twin --suite graph [--graph G] [--id-bytes 4|8] [--memory M] [--json]
 *   pcie-scope serve   [--twin | --port PATH] [--http HOST:PORT] [--token T] [--demo] [--segments 1|2|4] [--sample-us N] [--dir ROOT | --no-record] [--record-frames]
 *   pcie-scope ls      [--dir ROOT] [--json]
 *   pcie-scope info    CAPTURE [--dir ROOT] [--json]
 *   pcie-scope export  CAPTURE --format csv|jsonl|perfetto|vcd [-o FILE] [--dir ROOT]
 *   pcie-scope export  CAPTURE --format parquet [--table NAME] | pcapng  -o FILE [--dir ROOT]
 *   pcie-scope query   CAPTURE SQL [--json] [--dir ROOT]
 *   pcie-scope topology --twin [--json]
 *
 * stdout carries results only (one JSON object with --json); progress and diagnostics go to
 * stderr. Exit codes: 0 ok, 1 failure, 2 usage error.
 */
import { Command, CommanderError, Option } from 'commander'
import { PsError, isPsError } from '../core/errors.js'
import { runCapture, type CaptureResult } from '../capture/capture.js'
import { liveRecords } from '../capture/live-records.js'
import type { Snapshot } from '../core/probe.js'
import { openSession, type DeviceSession, type OpenSessionOptions } from '../device/session.js'
import { loadAddon, type NativeAddon } from '../native/addon.js'
import { gpuAvailability, GpuWorkloadRunner } from '../workload/gpu-runner.js'
import { addBenchCommand } from './bench.js'
import { addTopologyCommand } from './topology.js'
import { addWatchCommand } from './watch.js'
import {
  ELEMENT_BYTES,
  elementBytesOf,
  GRAPH_GENERATORS,
  GRAPH_ID_BYTES,
  GRAPH_ID_BYTES_DEFAULT,
  GRAPH_KERNELS,
  GRAPH_SCALE,
  isGraphKernel,
  isGraphWorkload,
  L1_LOADS,
  l1Of,
  PATTERN_SPECS,
  PATTERNS,
  WORKLOAD_LIMITS,
  type AnyWorkload,
  type GraphKernelName,
  type PatternName,
} from '../core/workload.js'
import { COMMANDS } from '../core/generated.js'
import { sampleCycles } from '../core/sample-period.js'
import { packageVersion } from '../util/package-root.js'
import { validateGraphWorkload, validateWorkload } from '../core/workload-schema.js'
import { GRAPH_MEMORIES, type GraphMemory } from '../native/addon.js'
import { SIZE_CLASSES } from '../core/size-classes.js'
import { parseCplSplit, parseFilter, parseHostPort, parseIntArg, parseLatencyDist, parseLink, parseSize, twinModeOption } from './args.js'
import { runRecordedCapture } from '../capture/recorded.js'
import { checkCaptureDirFree } from '../capture/writer.js'
import { resolveCaptureArg } from '../capture/names.js'
import { DEFAULT_RUN_LIMITS } from '../server/runs.js'
import { WS_BATCH_MS } from '../core/wire.js'
import { addRecordingCommands, CAPTURE_ARG_HELP, captureRoot, ROOT_HELP } from './recordings.js'
import { TWIN_SEGMENTS, type TwinSegments } from '../transport/twin.js'
import type { TwinMode } from '../core/twin-mode.js'

export interface CliIo {
  stdout: (s: string) => void
  stderr: (s: string) => void
  /** stdout for bulk output (exports): resolves once the stream can take more; default: stdout */
  writeOut?: (s: string) => Promise<void>
  /** resolves when the user asks a long-running command (serve) to stop */
  untilSignal?: () => Promise<string>
  /** Calls `handler` on each Ctrl-C (SIGINT) until the returned function is called. */
  onInterrupt?: (handler: () => void) => () => void
  /** stderr is a terminal: progress bars are drawn (default: false) */
  stderrIsTTY?: boolean
  /** how long a command runs before its progress bar appears (default 1000 ms; tests pass 0) */
  progressDelayMs?: number
}

/** What the commands reach outside the process through; tests pass fakes. */
export interface CliDeps {
  loadAddon: () => NativeAddon
  openSession: (o: OpenSessionOptions) => Promise<DeviceSession>
}

const defaultDeps: CliDeps = { loadAddon: () => loadAddon(), openSession }

const EXIT_OK = 0
const EXIT_FAILURE = 1
const EXIT_USAGE = 2
/** a run the user interrupted with Ctrl-C (128 + SIGINT, as a shell reports it) */
const EXIT_INTERRUPTED = 130
const MIB = 1024 * 1024

const { bytes: BYTES, offset: OFFSET } = WORKLOAD_LIMITS

/** --segments: the twin's design (BAR top or switch top) with that many TLP segments per beat; a fresh Option per command */
const SEGMENTS_OPTION = () =>
  new Option(
    '--segments <n>',
    'twin only, either mode: TLP segments per 512-bit beat of the design (the BAR top or the switch and its host model), up to that many MRds and completions per clock (default 1)',
  )
    .choices(TWIN_SEGMENTS.map(String))
    .argParser((v) => Number(v) as TwinSegments)

const USAGE_CODES = new Set(['PS_USAGE', 'PS_WORKLOAD_INVALID', 'PS_REQUEST_INVALID', 'PS_CAPTURE_NAME_INVALID'])

const defaultIo = (): CliIo => ({
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  stderrIsTTY: process.stderr.isTTY,
  writeOut: (s) =>
    new Promise((resolve, reject) => {
      if (process.stdout.write(s)) return resolve()
      const settle = (err?: Error) => {
        process.stdout.off('drain', settle)
        process.stdout.off('error', settle)
        if (err) reject(new PsError('PS_CAPTURE_IO', `stdout: ${err.message}`, { cause: err }))
        else resolve()
      }
      process.stdout.on('drain', settle)
      process.stdout.on('error', settle)
    }),
  onInterrupt: (handler) => {
    process.on('SIGINT', handler)
    return () => process.off('SIGINT', handler)
  },
  untilSignal: () =>
    new Promise((resolve) => {
      const on = (sig: string) => {
        process.off('SIGINT', on)
        process.off('SIGTERM', on)
        resolve(sig)
      }
      process.once('SIGINT', on)
      process.once('SIGTERM', on)
    }),
})

/** Unwinds a capture the user interrupted; its exit code and message are already set. */
class CaptureInterrupted extends Error {}

interface SourceOpts {
  twin?: boolean
  gpu?: boolean
  port?: string
  baud?: number
}

/** The twin's own default: a misaligned pattern starts 32 B into a line. */

const pickSource = (o: SourceOpts): { twin: true } | { port: string; baudRate?: number } => {
  if (o.twin && o.port) throw new PsError('PS_USAGE', 'use either --twin or --port PATH, not both')
  if (o.gpu && !o.port) throw new PsError('PS_USAGE', '--gpu runs the kernel while a board counts: it needs --port PATH')
  if (o.port) return { port: o.port, ...(o.baud !== undefined ? { baudRate: o.baud } : {}) }
  if (o.baud !== undefined) throw new PsError('PS_USAGE', '--baud only applies with --port PATH')
  return { twin: true }
}

const fmt = (n: number, digits = 3): string => (Number.isInteger(n) ? String(n) : n.toPrecision(digits))

const workloadRow = (w: AnyWorkload): string =>
  isGraphWorkload(w)
    ? `${w.pattern} on ${w.graph}${w.l1 !== undefined ? `, L1 ${l1Of(w)}` : ''}`
    : `${w.pattern}, ${w.bytes} B, offset ${w.offset} B${w.elementBytes !== undefined || w.l1 !== undefined ? `, ${elementBytesOf(w)}-B loads, L1 ${l1Of(w)}` : ''}`

const formatCapture = (r: CaptureResult, path: string): string => {
  const b = r.requests.bySize
  const g = r.graph
  const gg = r.model.gpuGraph
  const rows: [string, string][] = [
    ['workload', workloadRow(r.workload)],
    ...(r.twinMode
      ? [
          [
            'design',
            r.twinMode === 'switch'
              ? 'switch between the GPU and the host model (the twin default; --mode endpoint for the BAR endpoint)'
              : "the GPU's BAR endpoint (--mode endpoint)",
          ] as [string, string],
        ]
      : []),
    ...(g
      ? ([
          [
            'graph',
            `${g.vertices} vertices, ${g.edges} directed edges, ${g.idBytes}-B ids, BFS from ${g.sourceVertex} in ${g.launches} launches (levels)`,
          ],
        ] as [string, string][])
      : []),
    ['source', `${r.source} (${path})`],
    ['MRd requests', `${r.requests.count}  [${SIZE_CLASSES.map((c) => `${c.label}: ${b[c.key]}`).join('  ')}]`],
    ['requested bytes', String(r.bytes.requested)],
    ['completions', `${r.completions.count} with data (${r.bytes.completed} B), ${r.completions.withoutData} without`],
    ['MWr requests', `${r.writes.count} (${r.writes.bytes} B)`],
    [
      'time',
      `${r.cycles} cycles = ${fmt(r.seconds * 1e6, 4)} µs at ${fmt(r.clockHz / 1e6)} MHz${r.source === 'twin' ? ' (simulated)' : ''}`,
    ],
    ['rates', `${(r.rates.mrdPerSecond / 1e6).toFixed(2)} million MRd/s, ${fmt(r.rates.gbPerSecond)} GB/s of requested data`],
    [
      'outstanding',
      `${fmt(r.outstanding.avg)} average, ${r.outstanding.peak} peak` +
        (r.outstanding.tagBudget !== null
          ? ` of ${r.outstanding.tagBudget} tags (${fmt((100 * r.outstanding.avg) / r.outstanding.tagBudget)} %)`
          : ''),
    ],
    ...(['first', 'last'] as const).map((kind): [string, string] => {
      const l = r.latencyNs[kind]
      return [
        `latency, ${kind} completion`,
        l.count > 0
          ? `${fmt(l.min ?? 0)} / ${fmt(l.mean ?? 0)} / ${fmt(l.max ?? 0)} ns (min / mean / max)` +
            (l.p50 !== null && l.p99 !== null
              ? `, p50 ${fmt(l.p50)} / p99 ${r.latencyHistograms[kind]?.overflow ? '≥ ' : ''}${fmt(l.p99)} ns`
              : '')
          : 'no read completed',
      ]
    }),
    ...(r.hostSide
      ? [
          [
            'host side',
            `${r.hostSide.requests.count} MRd; last-completion latency ${fmt(r.hostSide.latencyNs.last.mean ?? 0)} ns mean` +
              ` (GPU side ${fmt((r.latencyNs.last.mean ?? 0) - (r.hostSide.latencyNs.last.mean ?? 0))} ns more: the switch, both ways);` +
              ` outstanding ${fmt(r.hostSide.outstanding.avg)} average, ${r.hostSide.outstanding.peak} peak`,
          ] as [string, string],
        ]
      : []),
    [
      "Little's law",
      r.littlesLaw
        ? `rate × latency = ${fmt(r.littlesLaw.rateTimesLatency)} outstanding, measured ${fmt(r.littlesLaw.measuredOutstanding)} (${fmt(r.littlesLaw.errorPercent, 2)} %)`
        : '–',
    ],
    [
      'completion errors',
      `UR ${r.completions.byStatus.ur}, CA ${r.completions.byStatus.ca}, other ${r.completions.byStatus.other}, unexpected ${r.completions.unexpected}, byte-count mismatch ${r.completions.mismatch}, timed out ${r.completions.timeouts}`,
    ],
    ['poisoned TLPs', String(r.poisoned)],
    [
      'ceiling',
      r.pcie.ceilingGbPerSecond === null
        ? `${r.pcie.link ?? 'unknown link'}: no wire limit`
        : `${fmt(r.pcie.ceilingGbPerSecond)} GB/s on ${r.pcie.link} for this completion mix`,
    ],
    [
      'model check',
      r.model.matchesProbe
        ? `model issued ${r.model.issued.count} MRd: matches the probe`
        : `MISMATCH: model issued ${r.model.issued.count} MRd / ${r.model.issued.bytes} B, probe counted ${r.requests.count} / ${r.bytes.requested} B`,
    ],
    [
      'link errors',
      `host bad ${r.link.host.badFrames}, crc ${r.link.host.crcErrors}, overflow ${r.link.host.overflows}, lost ${r.link.host.lostFrames} in ${r.link.host.seqGaps} gaps; ` +
        `firmware bad ${r.link.firmware.rxBadFrames}, overflow ${r.link.firmware.rxOverflows}, dropped ${r.link.firmware.txDropped}`,
    ],
    ...(r.linkInfo
      ? ([
          [
            'probe',
            `PCIe gen ${r.linkInfo.linkGen} x${r.linkInfo.linkWidth}, MPS ${r.linkInfo.mps} B, MRRS ${r.linkInfo.mrrs} B, RCB ${r.linkInfo.rcb || 'none'}, ` +
              `${r.linkInfo.tagBits}-bit tags, ${fmt(r.linkInfo.clockHz / 1e6)} MHz, build ${r.linkInfo.buildId}`,
          ],
        ] as [string, string][])
      : []),
    ...(r.filter
      ? ([['filter', `reads in [0x${r.filter.base.toString(16)}, 0x${r.filter.limit.toString(16)}] only`]] as [string, string][])
      : []),
    ...(r.intervals
      ? ([
          [
            'intervals',
            `${r.intervals.count} of ${fmt(r.intervals.periodNs)} ns (${r.intervals.totals.mrdCount} MRd), ${r.intervals.dropped} dropped on the UART, ${r.intervals.overflow} on the probe`,
          ],
        ] as [string, string][])
      : []),
    ...(gg
      ? ([
          [
            'GPU BFS',
            `${gg.device.name}, edge list ${gg.memory}: ${fmt(gg.bfs.medianMs)} ms (median), ${fmt(gg.gteps)} GTEPS, ${fmt(gg.edgeGbps)} GB/s of edges, levels ${gg.levels.ok ? 'ok' : `BAD (${gg.levels.mismatches} differ)`}`,
          ],
        ] as [string, string][])
      : []),
    ...(r.model.gpu
      ? ([
          [
            'GPU',
            `${r.model.gpu.device.name}: kernel ${fmt(r.model.gpu.kernelGbps)} GB/s (median of ${fmt(r.model.gpu.kernel.medianMs)} ms), ${fmt(r.model.gpu.ratioToMemcpy)} x cudaMemcpy, checksum ${r.model.gpu.checksum.ok ? 'ok' : 'BAD'}`,
          ],
        ] as [string, string][])
      : []),
    ['wall time', `${r.wallSeconds.toFixed(2)} s`],
  ]
  const w = Math.max(...rows.map(([k]) => k.length))
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n') + '\n'
}

const applies = (options: string[]): string => (options.length === 1 ? 'applies' : 'apply')

/**
 * The workload of `capture`: a micro pattern (bytes, offset, lane width) or a graph kernel
 * (--graph, --id-bytes, --source-vertex); options of the other kind are a usage error.
 */
const captureWorkload = (
  o: {
    pattern: PatternName | GraphKernelName
    graph?: string
    idBytes?: string
    sourceVertex?: number
    bytes: number
    offset?: number
    elementBytes?: number
    l1?: (typeof L1_LOADS)[number]
  },
  bytesGiven: boolean,
): AnyWorkload => {
  const l1 = o.l1 !== undefined ? { l1: o.l1 } : {}
  if (isGraphKernel(o.pattern)) {
    if (o.graph === undefined) throw new PsError('PS_USAGE', `${o.pattern} is a graph kernel: give the graph with --graph, e.g. kron:16`)
    const micro = [bytesGiven && '--bytes', o.offset !== undefined && '--offset', o.elementBytes !== undefined && '--element-bytes']
    const given = micro.filter((x): x is string => typeof x === 'string')
    if (given.length)
      throw new PsError('PS_USAGE', `${given.join(', ')} ${applies(given)} to access patterns only, not to the graph kernel ${o.pattern}`)
    return validateGraphWorkload({
      pattern: o.pattern,
      graph: o.graph,
      ...(o.idBytes !== undefined ? { idBytes: Number(o.idBytes) } : {}),
      ...(o.sourceVertex !== undefined ? { sourceVertex: o.sourceVertex } : {}),
      ...l1,
    })
  }
  const graphOnly = [
    o.graph !== undefined && '--graph',
    o.idBytes !== undefined && '--id-bytes',
    o.sourceVertex !== undefined && '--source-vertex',
  ]
  const given = graphOnly.filter((x): x is string => typeof x === 'string')
  if (given.length)
    throw new PsError(
      'PS_USAGE',
      `${given.join(', ')} ${applies(given)} to graph kernels only (${GRAPH_KERNELS.join(', ')}), not to ${o.pattern}`,
    )
  return validateWorkload({
    pattern: o.pattern,
    bytes: o.bytes,
    ...(o.offset !== undefined ? { offset: o.offset } : {}),
    ...(o.elementBytes !== undefined ? { elementBytes: o.elementBytes } : {}),
    ...l1,
  })
}

const buildProgram = (io: CliIo, setCode: (c: number) => void, deps: CliDeps): Command => {
  const program = new Command('pcie-scope')
  program
    .description('PCIe traffic monitor: capture what a GPU workload puts on the wire, from the FPGA probe or its Verilator twin')
    .version(packageVersion(), '-V, --version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })

  program
    .command('capture')
    .description(
      "run one workload and print the probe counters (from the FPGA, over the UART); on the twin the FPGA is by default the switch between the GPU and the host, tapped on both sides (hostSide), and --mode endpoint makes it the GPU's BAR endpoint",
    )
    .option('--twin', 'use the twin (Verilated RTL + firmware + GPU traffic model); the default without --port')
    .option('--port <path>', 'serial device of a board; needs --gpu, which runs the workload')
    .option('--gpu', "with --port: run the workload as a CUDA kernel on this machine's GPU while the board's probe counts")
    .option('--baud <n>', 'baud rate with --port (default 115200)', parseIntArg)
    .addOption(
      new Option('--pattern <name>', 'access pattern, or a graph kernel (with --graph)')
        .choices([...PATTERNS, ...GRAPH_KERNELS])
        .makeOptionMandatory(),
    )
    .option(
      '--graph <spec>',
      `graph kernels: the graph, ${GRAPH_GENERATORS.map((g) => `${g}:S[:SEED]`).join(', ')} (S ${GRAPH_SCALE.min}..${GRAPH_SCALE.max}) or file:PATH (.mtx or an edge list)`,
    )
    .addOption(
      new Option('--id-bytes <n>', `graph kernels: bytes per vertex id in the edge list (default ${GRAPH_ID_BYTES_DEFAULT})`).choices(
        GRAPH_ID_BYTES.map(String),
      ),
    )
    .option(
      '--source-vertex <v>',
      'graph kernels: the BFS root (default: the first vertex of largest degree among the first 1024)',
      parseIntArg,
    )
    .addOption(new Option('--memory <m>', 'graph kernels with --gpu: where the edge list lives (default zerocopy)').choices(GRAPH_MEMORIES))
    .option(
      '--bytes <n>',
      `useful bytes to read: a multiple of ${BYTES.multipleOf}, at most ${BYTES.max / 2 ** 30}G; suffixes K, M, G are binary`,
      parseSize,
      1024 * 1024,
    )
    .option(
      '--offset <bytes>',
      `start of the data within a 128-B line: a multiple of ${OFFSET.multipleOf} in ${OFFSET.min}..${OFFSET.max} (default: the pattern's, ${PATTERN_SPECS.map((p) => `${p.name} ${p.defaultOffset}`).join(', ')})`,
      parseIntArg,
    )
    .option(
      '--element-bytes <n>',
      `bytes per lane load: ${ELEMENT_BYTES.join(', ')} (default ${ELEMENT_BYTES[0]}); bytes and offset must be multiples of it`,
      parseIntArg,
    )
    .addOption(new Option('--l1 <mode>', 'ideal: default loads cached in L1; bypass: ld.global.cg loads (default ideal)').choices(L1_LOADS))
    .option(
      '--latency-cycles <n>',
      "twin only: the completer's latency in clock cycles, the host model's in switch mode, the BAR responder's with --mode endpoint (twin default 250)",
      parseIntArg,
    )
    .option('--latency-ns <n>', 'twin only: the same in nanoseconds at the probe clock (1000 = 250 cycles at 250 MHz)', parseIntArg)
    .option(
      '--latency-dist <d>',
      'twin only: completion latency per read, fixed (default) or uniform:LO:HI in ns, drawn per read with a fixed seed (not with --latency-cycles/-ns)',
      parseLatencyDist,
    )
    .option('--link <genGxL>', 'twin only: PCIe link between GPU and FPGA, e.g. gen3x16 (default), gen4x8, or ideal', parseLink)
    .addOption(twinModeOption())
    .addOption(SEGMENTS_OPTION())
    .option('--tags <n>', "twin only: the GPU model's outstanding-read budget, 1..256 (default 256)", parseIntArg)
    .option(
      '--cpl-split <bytes>',
      "twin only: split each read's completions at 64- or 128-B boundaries as a root complex does (0: one CplD)",
      parseCplSplit,
    )
    .addOption(
      new Option('--period-ms <n>', 'snapshot streaming period during the run')
        .argParser(parseIntArg)
        .default(0, '0 = the firmware default'),
    )
    .option(
      '--sample-us <n>',
      'interval sampler: one record of counts, outstanding and latency every N microseconds of probe clock (JSON: intervals)',
      parseIntArg,
    )
    .option('--filter <base:limit>', 'count only reads whose address lies in [BASE, LIMIT] (byte addresses, 0x hex allowed)', parseFilter)
    .option('--out <dir>', `record the capture into this directory (${CAPTURE_ARG_HELP}); it must not exist or be empty`)
    .option('--frames', 'with --out: also record every raw frame of the UART link (for export --format pcapng)')
    .option('--dir <root>', ROOT_HELP)
    .option('--json', 'print exactly one JSON object on stdout')
    .option('--jsonl', 'stream each record (device, snapshot, interval, run-start, run) as one JSON line while the capture runs')
    .action(
      async (
        o: SourceOpts & {
          pattern: PatternName | GraphKernelName
          graph?: string
          idBytes?: string
          sourceVertex?: number
          memory?: GraphMemory
          bytes: number
          offset?: number
          elementBytes?: number
          l1?: (typeof L1_LOADS)[number]
          latencyCycles?: number
          link?: string
          mode?: TwinMode
          segments?: TwinSegments
          tags?: number
          cplSplit?: 0 | 64 | 128
          latencyNs?: number
          latencyDist?: string
          periodMs: number
          sampleUs?: number
          filter?: { base: number; limit: number }
          out?: string
          frames?: boolean
          dir?: string
          json?: boolean
          jsonl?: boolean
        },
        cmd: Command,
      ) => {
        const source = pickSource(o)
        if ('port' in source && o.latencyCycles !== undefined) throw new PsError('PS_USAGE', '--latency-cycles only applies to the twin')
        if ('port' in source && o.link !== undefined) throw new PsError('PS_USAGE', '--link only applies to the twin')
        if ('port' in source && o.mode !== undefined) throw new PsError('PS_USAGE', '--mode only applies to the twin')
        if ('port' in source && o.cplSplit !== undefined) throw new PsError('PS_USAGE', '--cpl-split only applies to the twin')
        if ('port' in source && o.segments !== undefined) throw new PsError('PS_USAGE', '--segments only applies to the twin')
        if ('port' in source && o.tags !== undefined) throw new PsError('PS_USAGE', '--tags only applies to the twin')
        if (o.tags !== undefined && !(o.tags >= 1 && o.tags <= 256)) throw new PsError('PS_USAGE', '--tags must be 1..256')
        if ('port' in source && o.latencyNs !== undefined) throw new PsError('PS_USAGE', '--latency-ns only applies to the twin')
        if ('port' in source && o.latencyDist !== undefined) throw new PsError('PS_USAGE', '--latency-dist only applies to the twin')
        if (o.latencyDist !== undefined && (o.latencyNs !== undefined || o.latencyCycles !== undefined))
          throw new PsError('PS_USAGE', '--latency-dist sets the latency too: give it alone, not with --latency-cycles or --latency-ns')
        if (o.latencyNs !== undefined && o.latencyCycles !== undefined)
          throw new PsError('PS_USAGE', '--latency-cycles and --latency-ns set the same latency: give one')
        const period = COMMANDS.START.args[0]
        if (o.periodMs !== 0 && (o.periodMs < period.min || o.periodMs > period.max)) {
          throw new PsError('PS_USAGE', `--period-ms must be 0 (the firmware default, ${period.default}) or ${period.min}..${period.max}`)
        }
        const workload = captureWorkload(o, cmd.getOptionValueSource('bytes') !== 'default')
        if (o.memory !== undefined && !(o.gpu && isGraphWorkload(workload)))
          throw new PsError('PS_USAGE', '--memory only applies to a graph kernel run with --gpu')
        if ('port' in source && !o.gpu) {
          throw new PsError(
            'PS_WORKLOAD_UNSUPPORTED',
            `a board capture on ${source.port} needs something to run the workload: add --gpu to run it as a CUDA kernel on this machine (\`pcie-scope serve --port ${source.port}\` watches a board live)`,
          )
        }
        if (o.dir !== undefined && o.out === undefined) throw new PsError('PS_USAGE', '--dir only applies with --out')
        if (o.frames && o.out === undefined) throw new PsError('PS_USAGE', '--frames only applies with --out')
        if (o.json && o.jsonl) throw new PsError('PS_USAGE', '--json and --jsonl both claim stdout: give one')
        const outDir = o.out === undefined ? undefined : resolveCaptureArg(o.out, captureRoot(o.dir))
        if (outDir !== undefined) checkCaptureDirFree(outDir) // before the twin starts
        const progress = (m: string) => io.stderr(`pcie-scope: ${m}\n`)
        // the GPU is checked before the port opens: no addon, no CUDA or no device fails fast
        let gpuRunner: GpuWorkloadRunner | undefined
        if ('port' in source) {
          const gpu = await gpuAvailability(deps.loadAddon)
          if (!gpu.available)
            throw new PsError(gpu.code === 'PS_NATIVE_NOT_BUILT' ? 'PS_NATIVE_NOT_BUILT' : 'PS_GPU_UNAVAILABLE', gpu.reason)
          gpuRunner = new GpuWorkloadRunner(deps.loadAddon(), o.memory !== undefined ? { graphMemory: o.memory } : {})
        }
        progress('port' in source ? `opening ${source.port}; the workload runs on the GPU` : 'starting the twin')
        const session: DeviceSession = await deps.openSession(
          'port' in source
            ? { ...source, ...(gpuRunner ? { runner: gpuRunner } : {}) }
            : {
                twin: true,
                ...(o.latencyCycles !== undefined ? { latencyCycles: o.latencyCycles } : {}),
                twinOptions: {
                  ...(o.link !== undefined ? { link: o.link } : {}),
                  ...(o.mode !== undefined ? { mode: o.mode } : {}),
                  ...(o.cplSplit !== undefined ? { cplSplit: o.cplSplit } : {}),
                  ...(o.segments !== undefined ? { segments: o.segments } : {}),
                  ...(o.tags !== undefined ? { tags: o.tags } : {}),
                  ...(o.latencyNs !== undefined ? { latencyNs: o.latencyNs } : {}),
                  ...(o.latencyDist !== undefined ? { latencyDist: o.latencyDist } : {}),
                },
              },
        )
        try {
          progress(
            `probe on ${session.path}: protocol ${session.info.protocolVersion}, firmware ${session.info.firmwareVersion}, ${session.info.clockHz} Hz`,
          )
          // --jsonl: the records as they happen on stdout, instead of the summary at the end
          const live = o.jsonl ? liveRecords(session.client, (r) => io.stdout(JSON.stringify(r) + '\n')) : undefined
          live?.connected(session.info)
          // Ctrl-C cancels the run (the twin runs in a process group of its own, so the terminal's
          // SIGINT reaches this process alone): no more reads, what was recorded is kept, exit 130.
          // A second Ctrl-C quits at once.
          const interrupt = new AbortController()
          const stopWatching = (io.onInterrupt ?? defaultIo().onInterrupt!)(() => {
            if (interrupt.signal.aborted) process.exit(EXIT_INTERRUPTED)
            progress('interrupted: cancelling the run (Ctrl-C again to quit at once)')
            interrupt.abort(new PsError('PS_RUN_CANCELLED', 'interrupted (Ctrl-C): the run was cancelled'))
          })
          const opts = {
            periodMs: o.periodMs,
            signal: interrupt.signal,
            onProgress: progress,
            ...(o.sampleUs !== undefined ? { samplePeriodCycles: sampleCycles(o.sampleUs, session.info.clockHz) } : {}),
            ...(o.filter !== undefined ? { filter: o.filter } : {}),
            ...(live ? { onRunStart: (baseline: Snapshot) => live.runStart(workload, baseline) } : {}),
          }
          const summary = (result: CaptureResult) => {
            if (live) live.runDone(workload, { probeWindow: result.probeWindow, result })
            else io.stdout(o.json ? JSON.stringify(result) + '\n' : formatCapture(result, session.path))
          }
          const run = async <T>(go: () => Promise<T>): Promise<T> => {
            try {
              return await go()
            } catch (e) {
              live?.runDone(workload, { error: e })
              if (interrupt.signal.aborted) {
                progress(outDir === undefined ? 'interrupted: nothing recorded' : `interrupted: what was recorded is kept in ${outDir}`)
                setCode(EXIT_INTERRUPTED)
                throw new CaptureInterrupted()
              }
              throw e
            } finally {
              live?.stop()
              stopWatching()
            }
          }
          if (outDir === undefined) {
            summary(await run(() => runCapture(session, workload, opts)))
            setCode(EXIT_OK)
            return
          }
          progress(`recording into ${outDir}`)
          const rc = await run(() => runRecordedCapture(session, workload, outDir, { ...opts, frames: o.frames === true }))
          summary(rc.result)
          // the measurement stands; a recording that failed on the way is still a failure
          if (rc.recordingError) throw rc.recordingError
          progress(`recorded ${rc.records} records into ${outDir}`)
          setCode(EXIT_OK)
        } catch (e) {
          if (!(e instanceof CaptureInterrupted)) throw e
        } finally {
          await session.close()
        }
      },
    )

  program
    .command('serve')
    .description(
      "start the control server (REST + WebSocket + web UI) on one probe; the twin runs the switch between the GPU and the host by default (the page adds the host side), --mode endpoint the GPU's BAR endpoint",
    )
    .option('--twin', 'serve the twin (the default without --port)')
    .option('--port <path>', 'serial device of a board')
    .option('--baud <n>', 'baud rate with --port (default 115200)', parseIntArg)
    .addOption(
      new Option('--http <host:port>', 'address to listen on')
        .argParser(parseHostPort)
        .default({ host: '127.0.0.1', port: 8737 }, '127.0.0.1:8737'),
    )
    .option('--link <genGxL>', 'twin only: PCIe link between GPU and FPGA, e.g. gen3x16 (default), gen4x8, or ideal', parseLink)
    .addOption(twinModeOption())
    .addOption(SEGMENTS_OPTION())
    .option('--token <token>', 'access token (default: a random one per run)')
    .option('--demo', 'demo mode of the server')
    .option(
      '--sample-us <n>',
      "interval sampler: one record every N microseconds of probe clock, drawn on the page's in-flight chart",
      parseIntArg,
    )
    .option('--dir <root>', `${ROOT_HELP}: the session is recorded into a new capture there`)
    .option('--no-record', 'do not record the session (captures are still listed)')
    .option('--record-frames', 'recordings also keep every raw frame of the UART link (for export --format pcapng)')
    .option('--run-slack <ms>', "a run's deadline: this much time plus its bytes at --run-floor", parseIntArg, DEFAULT_RUN_LIMITS.slackMs)
    .option(
      '--run-floor <MiB/s>',
      "a run's deadline: the slowest rate a healthy twin runs at (a run past its deadline is aborted, 504)",
      parseIntArg,
      DEFAULT_RUN_LIMITS.floorBytesPerSecond / MIB,
    )
    .option(
      '--run-queue <n>',
      'runs that may wait behind the one in flight; more are refused (503, Retry-After)',
      parseIntArg,
      DEFAULT_RUN_LIMITS.maxQueued,
    )
    .option(
      '--ws-batch-ms <ms>',
      'snapshots reach WebSocket clients in batches at most this often: lower is fresher, higher is fewer messages',
      parseIntArg,
      WS_BATCH_MS,
    )
    .option(
      '--hang-timeout <ms>',
      'twin only: a PING unanswered this long means the twin hung; it is killed and restarted',
      parseIntArg,
      5000,
    )
    .action(
      async (
        o: SourceOpts & {
          http: { host: string; port: number }
          token?: string
          demo?: boolean
          sampleUs?: number
          link?: string
          mode?: TwinMode
          segments?: TwinSegments
          dir?: string
          record: boolean
          recordFrames?: boolean
          hangTimeout: number
          wsBatchMs: number
          runSlack: number
          runFloor: number
          runQueue: number
        },
      ) => {
        const source = pickSource(o)
        if ('port' in source && o.link !== undefined) throw new PsError('PS_USAGE', '--link only applies to the twin')
        if ('port' in source && o.mode !== undefined) throw new PsError('PS_USAGE', '--mode only applies to the twin')
        if ('port' in source && o.segments !== undefined) throw new PsError('PS_USAGE', '--segments only applies to the twin')
        // loaded here so that `capture` never pays for express and ws
        const { startServer } = await import('../server/index.js')
        const server = await startServer({
          twin: 'twin' in source,
          ...(o.link !== undefined ? { link: o.link } : {}),
          ...(o.mode !== undefined ? { mode: o.mode } : {}),
          ...(o.segments !== undefined ? { segments: o.segments } : {}),
          ...('port' in source ? { port: source.port } : {}),
          ...('port' in source && source.baudRate !== undefined ? { baudRate: source.baudRate } : {}),
          http: o.http,
          ...(o.demo ? { demo: true } : {}),
          ...(o.sampleUs !== undefined ? { sampleUs: o.sampleUs } : {}),
          ...(o.token !== undefined ? { token: o.token } : {}),
          captures: { root: captureRoot(o.dir), record: o.record, frames: o.recordFrames === true },
          supervision: { hangTimeoutMs: o.hangTimeout },
          ws: { batchMs: o.wsBatchMs },
          runs: { slackMs: o.runSlack, floorBytesPerSecond: o.runFloor * MIB, maxQueued: o.runQueue },
          notify: (line) => io.stderr(`pcie-scope: ${line}\n`),
        })
        io.stdout(`${server.url}\n`)
        if (server.recording) io.stderr(`pcie-scope: recording the session into ${server.recording}\n`)
        io.stderr('pcie-scope: serving; press Ctrl-C to stop\n')
        const sig = await (io.untilSignal ?? defaultIo().untilSignal!)()
        io.stderr(`pcie-scope: ${sig}: stopping\n`)
        await server.close()
        setCode(EXIT_OK)
      },
    )

  addBenchCommand(program, io, setCode, deps)
  addRecordingCommands(program, io, setCode)
  addTopologyCommand(program, io, setCode)
  addWatchCommand(program, io, setCode, deps)
  return program
}

/** Run the CLI; resolves with the exit code (never calls process.exit). */
export const main = async (argv: string[] = process.argv, io: CliIo = defaultIo(), deps: Partial<CliDeps> = {}): Promise<number> => {
  let code = EXIT_OK
  const program = buildProgram(io, (c) => (code = c), { ...defaultDeps, ...deps })
  try {
    await program.parseAsync(argv)
    return code
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT_OK : EXIT_USAGE
    if (isPsError(e)) {
      io.stderr(`pcie-scope: error [${e.code}]: ${e.message}\n`)
      return USAGE_CODES.has(e.code) ? EXIT_USAGE : EXIT_FAILURE
    }
    io.stderr(`pcie-scope: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
    return EXIT_FAILURE
  }
}
