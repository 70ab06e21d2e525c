/** `pcie-scope serve`: the control server (REST, WebSocket, the page) on the twin or a board, recording what it serves. */
import { Option, type Command } from 'commander'
import { DEFAULT_RUN_LIMITS } from '../server/runs.js'
import { WS_BATCH_MS } from '../core/wire.js'
import type { TwinSegments } from '../transport/twin.js'
import type { TwinMode } from '../core/twin-mode.js'
import { parseHostPort, parseIntArg, parseLink, twinModeOption } from './args.js'
import { defaultIo, EXIT_OK, type CliIo, type SetCode } from './io.js'
import { DIR_HELP, recordingsDir } from './recordings.js'
import { pickSource, segmentsOption, type SourceOpts } from './source.js'

const MIB = 1024 * 1024

export const registerServe = (program: Command, io: CliIo, setCode: SetCode): void => {
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
    .addOption(segmentsOption())
    .option('--token <token>', 'access token (default: a random one per run)')
    .option('--demo', 'demo mode of the server')
    .option(
      '--sample-us <n>',
      "interval sampler: one record every N microseconds of probe clock, drawn on the page's in-flight chart",
      parseIntArg,
    )
    .option('--dir <folder>', `${DIR_HELP}: the session is recorded into a new recording there`)
    .option('--no-record', 'do not record the session (recordings are still listed)')
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
}
