/** `pcie-scope serve`: the control server (REST, WebSocket, the page) on the twin or a board, recording what it serves. */
import { Option, type Command } from 'commander'
import { PsError } from '../core/errors.js'
import { DEFAULT_RUN_LIMITS } from '../workload/deadline.js'
import { WS_BATCH_MS } from '../core/wire.js'
import type { TwinSegments } from '../transport/twin.js'
import type { TwinMode } from '../core/twin-mode.js'
import { BAUD_RANGE, parseHostPort, parseIntIn, parseLink, SAMPLE_US_RANGE, twinModeOption } from './args.js'
import { defaultIo, EXIT_OK, type CliIo, type SetCode } from './io.js'
import { DIR_HELP, recordingsDir } from './recordings.js'
import { pickSource, segmentsOption, type SourceOpts } from './source.js'

const MIB = 1024 * 1024

/**
 * The server's timing and queue options: each bounded so that no deadline reaches a timer past
 * Node's 2^31-1 ms (it would fire at once) and the watchdog leaves a healthy twin time to answer
 * (it PINGs after 1 s of quiet).
 */
const SERVE_RANGES = {
  runSlack: { min: 0, max: 3_600_000 },
  runFloor: { min: 1, max: 100_000 },
  runQueue: { min: 0, max: 1_000 },
  wsBatchMs: { min: 1, max: 10_000 },
  hangTimeout: { min: 2_000, max: 600_000 },
} as const
const serveRange = (name: keyof typeof SERVE_RANGES): ((value: string) => number) => {
  const r = SERVE_RANGES[name]
  return parseIntIn(r.min, r.max, name === 'runFloor' ? 'MiB/s' : 'ms')
}

export const registerServe = (program: Command, io: CliIo, setCode: SetCode): void => {
  program
    .command('serve')
    .description(
      "start the control server (REST + WebSocket + web UI) on one probe; the twin runs the switch between the GPU and the host by default (the page adds the host side), --mode endpoint the GPU's BAR endpoint",
    )
    .option('--twin', 'serve the twin (the default without --port)')
    .option('--port <path>', 'serial device of a board')
    .option(
      '--baud <n>',
      `baud rate with --port, ${BAUD_RANGE.min}..${BAUD_RANGE.max} (default 115200)`,
      parseIntIn(BAUD_RANGE.min, BAUD_RANGE.max),
    )
    .addOption(
      new Option('--http <host:port>', 'address to listen on')
        .argParser(parseHostPort)
        .default({ host: '127.0.0.1', port: 8737 }, '127.0.0.1:8737'),
    )
    .option('--link <genGxL>', 'twin only: PCIe link between GPU and FPGA, e.g. gen3x16 (default), gen4x8, or ideal', parseLink)
    .addOption(twinModeOption())
    .addOption(segmentsOption())
    .option('--token <token>', 'access token (default: a random one per run)')
    .option('--demo', 'demo mode of the server')
    .option(
      '--sample-us <n>',
      `interval sampler: one record every N microseconds of probe clock, ${SAMPLE_US_RANGE.min}..${SAMPLE_US_RANGE.max}, drawn on the page's in-flight chart`,
      parseIntIn(SAMPLE_US_RANGE.min, SAMPLE_US_RANGE.max),
    )
    .option('--dir <folder>', `${DIR_HELP}: the session is recorded into a new recording there`)
    .option('--no-record', 'do not record the session (recordings are still listed)')
    .option('--record-frames', 'recordings also keep every raw frame of the UART link (for export --format pcapng)')
    .option(
      '--lessons <folder>',
      "the page's lessons (docs/lessons.md), each checked at start; default: the lessons/ shipped with pcie-scope",
    )
    .option(
      '--run-slack <ms>',
      `a run's deadline: this much time plus its bytes at --run-floor, ${SERVE_RANGES.runSlack.min}..${SERVE_RANGES.runSlack.max} ms`,
      serveRange('runSlack'),
      DEFAULT_RUN_LIMITS.slackMs,
    )
    .option(
      '--run-floor <MiB/s>',
      `a run's deadline: the slowest rate a healthy twin runs at, ${SERVE_RANGES.runFloor.min}..${SERVE_RANGES.runFloor.max} (a run past its deadline is aborted, 504)`,
      serveRange('runFloor'),
      DEFAULT_RUN_LIMITS.floorBytesPerSecond / MIB,
    )
    .option(
      '--run-queue <n>',
      `runs that may wait behind the one in flight, ${SERVE_RANGES.runQueue.min}..${SERVE_RANGES.runQueue.max}; more are refused (503, Retry-After)`,
      serveRange('runQueue'),
      DEFAULT_RUN_LIMITS.maxQueued,
    )
    .option(
      '--ws-batch-ms <ms>',
      `snapshots reach WebSocket clients in batches at most this often, ${SERVE_RANGES.wsBatchMs.min}..${SERVE_RANGES.wsBatchMs.max} ms: lower is fresher, higher is fewer messages`,
      serveRange('wsBatchMs'),
      WS_BATCH_MS,
    )
    .option(
      '--gpu-counters',
      "sample this host's GPU's own PCIe counters beside the probe (PM sampling, NVML where refused): streamed to the page and recorded",
    )
    .option('--device <n>', 'with --gpu-counters: CUDA device ordinal, 0..63', parseIntIn(0, 63), 0)
    .option('--interval-us <n>', 'with --gpu-counters: sampling interval in µs, 1..1000000', parseIntIn(1, 1_000_000), 100)
    .option(
      '--hang-timeout <ms>',
      `twin only: silent this long since it last spoke, a PING's answer included, the twin counts as hung and is killed and restarted, ${SERVE_RANGES.hangTimeout.min}..${SERVE_RANGES.hangTimeout.max} ms`,
      serveRange('hangTimeout'),
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
          lessons?: string
          hangTimeout: number
          wsBatchMs: number
          runSlack: number
          runFloor: number
          runQueue: number
          gpuCounters?: boolean
          device: number
          intervalUs: number
        },
        cmd: Command,
      ) => {
        const source = pickSource(o)
        const counterOnly = ['device', 'intervalUs'].filter((k) => cmd.getOptionValueSource(k) === 'cli')
        if (!o.gpuCounters && counterOnly.length)
          throw new PsError(
            'PS_USAGE',
            `${counterOnly.map((k) => (k === 'device' ? '--device' : '--interval-us')).join(' and ')} only ${counterOnly.length > 1 ? 'apply' : 'applies'} with --gpu-counters`,
          )
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
          recordings: { dir: recordingsDir(o.dir), record: o.record, frames: o.recordFrames === true },
          ...(o.lessons !== undefined ? { lessonsDir: o.lessons } : {}),
          supervision: { hangTimeoutMs: o.hangTimeout },
          ws: { batchMs: o.wsBatchMs },
          runs: { slackMs: o.runSlack, floorBytesPerSecond: o.runFloor * MIB, maxQueued: o.runQueue },
          notify: (line) => io.stderr(`pcie-scope: ${line}\n`),
          ...(o.gpuCounters ? { gpuCounters: { device: o.device, intervalUs: o.intervalUs } } : {}),
        })
        io.stdout(`${server.url}\n`)
        if (server.gpuCounters) io.stderr(`pcie-scope: GPU counters: ${server.gpuCounters}\n`)
        if (server.recording) io.stderr(`pcie-scope: recording the session into ${server.recording}\n`)
        io.stderr('pcie-scope: serving; press Ctrl-C to stop\n')
        const sig = await (io.untilSignal ?? defaultIo().untilSignal!)()
        io.stderr(`pcie-scope: ${sig}: stopping\n`)
        await server.close()
        setCode(EXIT_OK)
      },
    )
}
