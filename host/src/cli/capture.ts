/**
 * `pcie-scope capture`: run one workload (or a graph kernel) while the probe counts, print the
 * result (a summary, one JSON object, or the records as JSON lines) and, with --out, save it as a
 * recording.
 */
import { Option, type Command } from 'commander'
import { PsError } from '../core/errors.js'
import { measureRun, type RunResult } from '../measure/run.js'
import { liveRecords } from '../measure/live-records.js'
import { measureAndRecord } from '../measure/recorded-run.js'
import type { Snapshot } from '../core/probe.js'
import type { DeviceSession } from '../device/session.js'
import { gpuAvailability, GpuWorkloadRunner } from '../workload/gpu-runner.js'
import {
  ELEMENT_BYTES,
  GRAPH_GENERATORS,
  GRAPH_ID_BYTES,
  GRAPH_ID_BYTES_DEFAULT,
  GRAPH_KERNELS,
  GRAPH_SCALE,
  isGraphKernel,
  isGraphWorkload,
  L1_LOADS,
  PATTERN_SPECS,
  PATTERNS,
  WORKLOAD_LIMITS,
  type AnyWorkload,
  workloadLabel,
  type GraphKernelName,
  type PatternName,
} from '../core/workload.js'
import { sampleCycles } from '../core/sample-period.js'
import { validateGraphWorkload, validateWorkload } from '../core/workload-schema.js'
import { GRAPH_MEMORIES, type GraphMemory } from '../native/addon.js'
import type { TwinSegments } from '../transport/twin.js'
import type { TwinMode } from '../core/twin-mode.js'
import { checkRecordingDirFree } from '../recording/writer.js'
import { HANG_DEFAULTS, HangWatch, pingOf } from '../device/hang-watch.js'
import { DEFAULT_RUN_LIMITS, deadlineBytes, runDeadlineMs } from '../workload/deadline.js'
import { resolveRecordingArg } from '../recording/names.js'
import {
  BAUD_RANGE,
  parseOneOf,
  parsePeriodMs,
  SAMPLE_US_RANGE,
  START_PERIOD,
  parseCplSplit,
  parseFilter,
  parseIntIn,
  parseLatencyDist,
  parseLink,
  parseSize,
  parseTwinRange,
  requireOptions,
  twinModeOption,
} from './args.js'
import { defaultIo, EXIT_INTERRUPTED, EXIT_OK, type CliDeps, type CliIo, type SetCode } from './io.js'
import { DIR_HELP, RECORDING_ARG_HELP, recordingsDir } from './recordings.js'
import { formatRunResult } from './run-summary.js'
import { captureWithCounters } from './capture-counters.js'
import { pickSource, segmentsOption, type SourceOpts } from './source.js'

const { bytes: BYTES, offset: OFFSET, chunkBytes: CHUNK } = WORKLOAD_LIMITS

/** Unwinds a run the user interrupted; its exit code and message are already set. */
class RunInterrupted extends Error {}

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
    chunkBytes?: number
    l1?: (typeof L1_LOADS)[number]
  },
  bytesGiven: boolean,
): AnyWorkload => {
  const l1 = o.l1 !== undefined ? { l1: o.l1 } : {}
  if (isGraphKernel(o.pattern)) {
    if (o.graph === undefined) throw new PsError('PS_USAGE', `${o.pattern} is a graph kernel: give the graph with --graph, e.g. kron:16`)
    const micro = [
      bytesGiven && '--bytes',
      o.offset !== undefined && '--offset',
      o.elementBytes !== undefined && '--element-bytes',
      o.chunkBytes !== undefined && '--chunk-bytes',
    ]
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
    ...(o.chunkBytes !== undefined ? { chunkBytes: o.chunkBytes } : {}),
    ...l1,
  })
}

export const registerCapture = (program: Command, io: CliIo, setCode: SetCode, deps: CliDeps): void => {
  program
    .command('capture')
    .description(
      "run one workload and print the probe counters (from the FPGA, over the UART); on the twin the FPGA is by default the switch between the GPU and the host, tapped on both sides (hostSide), and --mode endpoint makes it the GPU's BAR endpoint",
    )
    .option('--twin', 'use the twin (Verilated RTL + firmware + GPU traffic model); the default without --port')
    .option('--port <path>', 'serial device of a board; needs --gpu, which runs the workload')
    .option('--gpu', "with --port: run the workload as a CUDA kernel on this machine's GPU while the board's probe counts")
    .option(
      '--baud <n>',
      `baud rate with --port, ${BAUD_RANGE.min}..${BAUD_RANGE.max} (default 115200)`,
      parseIntIn(BAUD_RANGE.min, BAUD_RANGE.max),
    )
    .addOption(new Option('--pattern <name>', 'access pattern, or a graph kernel (with --graph)').choices([...PATTERNS, ...GRAPH_KERNELS]))
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
      parseIntIn(0, 2 ** 32 - 1),
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
      parseIntIn(OFFSET.min, OFFSET.max),
    )
    .option(
      '--element-bytes <n>',
      `bytes per lane load: ${ELEMENT_BYTES.join(', ')} (default ${ELEMENT_BYTES[0]}); bytes and offset must be multiples of it`,
      parseOneOf(ELEMENT_BYTES),
    )
    .option(
      '--chunk-bytes <n>',
      `merged-chunked: bytes each warp walks, a multiple of ${CHUNK.multipleOf} in ${CHUNK.min}..${CHUNK.max} (default ${CHUNK.default})`,
      parseIntIn(CHUNK.min, CHUNK.max),
    )
    .addOption(new Option('--l1 <mode>', 'ideal: default loads cached in L1; bypass: ld.global.cg loads (default ideal)').choices(L1_LOADS))
    .option(
      '--latency-cycles <n>',
      "twin only: the completer's latency in clock cycles, the host model's in switch mode, the BAR responder's with --mode endpoint (twin default 250)",
      parseTwinRange('latencyCycles'),
    )
    .option(
      '--latency-ns <n>',
      'twin only: the same in nanoseconds at the probe clock (1000 = 250 cycles at 250 MHz)',
      parseTwinRange('latencyNs'),
    )
    .option(
      '--latency-dist <d>',
      'twin only: completion latency per read, fixed (default) or uniform:LO:HI in ns, drawn per read with a fixed seed (not with --latency-cycles/-ns)',
      parseLatencyDist,
    )
    .option('--link <genGxL>', 'twin only: PCIe link between GPU and FPGA, e.g. gen3x16 (default), gen4x8, or ideal', parseLink)
    .addOption(twinModeOption())
    .addOption(segmentsOption())
    .option('--tags <n>', "twin only: the GPU model's outstanding-read budget, 1..256 (default 256)", parseTwinRange('tags'))
    .option(
      '--cpl-split <bytes>',
      "twin only: split each read's completions at 64- or 128-B boundaries as a root complex does (0: one CplD)",
      parseCplSplit,
    )
    .addOption(
      new Option('--period-ms <n>', `snapshot streaming period during the run, ${START_PERIOD.min}..${START_PERIOD.max} ms`)
        .argParser(parsePeriodMs)
        .default(0, '0 = the firmware default'),
    )
    .option(
      '--sample-us <n>',
      `interval sampler: one record of counts, outstanding and latency every N microseconds of probe clock, ${SAMPLE_US_RANGE.min}..${SAMPLE_US_RANGE.max} (JSON: intervals)`,
      parseIntIn(SAMPLE_US_RANGE.min, SAMPLE_US_RANGE.max),
    )
    .option('--filter <base:limit>', 'count only reads whose address lies in [BASE, LIMIT] (byte addresses, 0x hex allowed)', parseFilter)
    .option('--out <dir>', `save the run as a recording in this directory (${RECORDING_ARG_HELP}); it must not exist or be empty`)
    .option('--frames', 'with --out: also record every raw frame of the UART link (for export --format pcapng)')
    .option('--dir <folder>', DIR_HELP)
    .option('--json', 'print exactly one JSON object on stdout')
    .option(
      '--counters',
      "with --gpu and no board: the kernel with the GPU's own PCIe counters sampled around it (per run and per kernel, beside the model's requests)",
    )
    .option('--jsonl', 'stream each record (device, snapshot, interval, run-start, run) as one JSON line while the recording runs')
    .hook('preAction', requireOptions('pattern'))
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
          counters?: boolean
        },
        cmd: Command,
      ) => {
        if (o.counters)
          return captureWithCounters(
            { ...o, workload: captureWorkload(o, cmd.getOptionValueSource('bytes') !== 'default') },
            io,
            setCode,
            deps,
          )
        const source = pickSource(o)
        if (o.latencyDist !== undefined && (o.latencyNs !== undefined || o.latencyCycles !== undefined))
          throw new PsError('PS_USAGE', '--latency-dist sets the latency too: give it alone, not with --latency-cycles or --latency-ns')
        if (o.latencyNs !== undefined && o.latencyCycles !== undefined)
          throw new PsError('PS_USAGE', '--latency-cycles and --latency-ns set the same latency: give one')
        const workload = captureWorkload(o, cmd.getOptionValueSource('bytes') !== 'default')
        if (o.memory !== undefined && !(o.gpu && isGraphWorkload(workload)))
          throw new PsError('PS_USAGE', '--memory only applies to a graph kernel run with --gpu')
        if ('port' in source && !o.gpu) {
          throw new PsError(
            'PS_WORKLOAD_UNSUPPORTED',
            `capture on a board (${source.port}) needs something to run the workload: add --gpu to run it as a CUDA kernel on this machine (\`pcie-scope serve --port ${source.port}\` watches a board live)`,
          )
        }
        if (o.dir !== undefined && o.out === undefined) throw new PsError('PS_USAGE', '--dir only applies with --out')
        if (o.frames && o.out === undefined) throw new PsError('PS_USAGE', '--frames only applies with --out')
        if (o.json && o.jsonl) throw new PsError('PS_USAGE', '--json and --jsonl both claim stdout: give one')
        const outDir = o.out === undefined ? undefined : resolveRecordingArg(o.out, recordingsDir(o.dir))
        if (outDir !== undefined) checkRecordingDirFree(outDir) // before the twin starts
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
          // The twin's watchdog, as serve has one: a twin that stops answering (a SIGSTOP, a
          // deadlock), or a run past the server's deadline for its size, ends the run with that
          // cause; the recording is kept and closed as interrupted with it.
          const watchdog = new AbortController()
          const stopWatchdog = 'twin' in source ? watchTwin(session, workload, watchdog) : () => {}
          const opts = {
            periodMs: o.periodMs,
            signal: AbortSignal.any([interrupt.signal, watchdog.signal]),
            onProgress: progress,
            ...(o.sampleUs !== undefined ? { samplePeriodCycles: sampleCycles(o.sampleUs, session.info.clockHz) } : {}),
            ...(o.filter !== undefined ? { filter: o.filter } : {}),
            ...(live ? { onRunStart: (baseline: Snapshot) => live.runStart(workload, baseline) } : {}),
          }
          const summary = (result: RunResult) => {
            if (live) live.runDone(workload, { probeWindow: result.probeWindow, result })
            else io.stdout(o.json ? JSON.stringify(result) + '\n' : formatRunResult(result, session.path))
          }
          const run = async <T>(go: () => Promise<T>): Promise<T> => {
            try {
              return await go()
            } catch (e) {
              const cause: unknown = watchdog.signal.aborted && watchdog.signal.reason instanceof PsError ? watchdog.signal.reason : e
              live?.runDone(workload, { error: cause })
              if (watchdog.signal.aborted && cause instanceof PsError) {
                progress(outDir === undefined ? cause.message : `${cause.message}; what was recorded is kept in ${outDir}`)
                throw cause
              }
              if (interrupt.signal.aborted) {
                progress(outDir === undefined ? 'interrupted: nothing recorded' : `interrupted: what was recorded is kept in ${outDir}`)
                setCode(EXIT_INTERRUPTED)
                throw new RunInterrupted()
              }
              throw e
            } finally {
              live?.stop()
              stopWatching()
              stopWatchdog()
            }
          }
          if (outDir === undefined) {
            summary(await run(() => measureRun(session, workload, opts)))
            setCode(EXIT_OK)
            return
          }
          progress(`recording into ${outDir}`)
          const rc = await run(() => measureAndRecord(session, workload, outDir, { ...opts, frames: o.frames === true }))
          summary(rc.result)
          // the measurement stands; a recording that failed on the way is still a failure
          if (rc.recordingError) throw rc.recordingError
          progress(`recorded ${rc.records} records into ${outDir}`)
          setCode(EXIT_OK)
        } catch (e) {
          if (!(e instanceof RunInterrupted)) throw e
        } finally {
          await session.close()
        }
      },
    )
}

/**
 * Watch a twin session through one run: the hang rule of `serve` (device/hang-watch.ts) and the
 * server's deadline for the workload's size (workload/deadline.ts). Either aborts `watchdog` with
 * its cause. Returns the function that stops watching.
 */
const watchTwin = (session: DeviceSession, workload: AnyWorkload, watchdog: AbortController): (() => void) => {
  const { client } = session
  const watch = new HangWatch(pingOf(client), HANG_DEFAULTS, (message) => watchdog.abort(new PsError('PS_TWIN_HUNG', message)))
  const spoke = () => watch.progress()
  client.on('snapshot', spoke)
  client.on('interval', spoke)
  const ms = runDeadlineMs(deadlineBytes(workload), DEFAULT_RUN_LIMITS)
  const deadline = setTimeout(
    () =>
      watchdog.abort(
        new PsError(
          'PS_WORKLOAD_TIMEOUT',
          `${workloadLabel(workload)} passed its deadline of ${ms} ms (${DEFAULT_RUN_LIMITS.slackMs} ms + its bytes at ${DEFAULT_RUN_LIMITS.floorBytesPerSecond} B/s) and was aborted`,
        ),
      ),
    ms,
  )
  deadline.unref()
  return () => {
    watch.stop()
    clearTimeout(deadline)
    client.off('snapshot', spoke)
    client.off('interval', spoke)
  }
}
