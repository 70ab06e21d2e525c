/**
 * pcie-scope command line.
 *
 *   pcie-scope capture [--twin | --gpu --port PATH] --pattern NAME [--bytes N] [--offset B] [--element-bytes E] [--l1 ideal|bypass] [--latency-cycles N | --latency-ns N | --latency-dist D] [--cpl-split B] [--segments 1|2|4] [--tags N]
 *                      [--sample-us N] [--filter BASE:LIMIT] [--out DIR [--frames]] [--json | --jsonl]
 *   pcie-scope capture [--twin | --gpu --port PATH [--memory M]] --pattern KERNEL --graph G [--id-bytes 4|8] [--source-vertex V] [same options]
 *   pcie-scope bench   --gpu | --twin [--suite micro] [--bytes N] [--repeats N] [--json]
 *   pcie-scope bench   --gpu | --twin --suite graph [--graph G] [--id-bytes 4|8] [--memory M] [--json]
 *   pcie-scope serve   [--twin | --port PATH] [--http HOST:PORT] [--token T] [--demo] [--segments 1|2|4] [--sample-us N] [--dir FOLDER | --no-record] [--record-frames]
 *   pcie-scope ls      [--dir FOLDER] [--json]
 *   pcie-scope info    RECORDING [--dir FOLDER] [--json]
 *   pcie-scope export  RECORDING --format csv|jsonl|perfetto|vcd [-o FILE] [--dir FOLDER]
 *   pcie-scope export  RECORDING --format parquet [--table NAME] | pcapng  -o FILE [--dir FOLDER]
 *   pcie-scope query   RECORDING SQL [--json] [--dir FOLDER]
 *   pcie-scope summary RECORDING[#ID] [--json] [--html FILE] [--dir FOLDER]
 *   pcie-scope compare RECORDING[#ID] RECORDING[#ID] [...] [--json] [--html FILE] [--dir FOLDER]
 *   pcie-scope topology --twin [--json]
 *   pcie-scope trace   --twin --pattern NAME [--bytes N] [--offset B] [--trigger force|latency>T|addr=BASE:LIMIT] [--pre N] [--mode M] [--latency-cycles N] [--json] [--out DIR]
 *   pcie-scope watch   --gpu [--device N] [--interval-us N] [--duration S] [--json]
 *
 * stdout carries results only (one JSON object with --json); progress and diagnostics go to
 * stderr. Exit codes: 0 ok, 1 failure, 2 usage error. Each command is a module of its own
 * (capture.ts, serve.ts, bench.ts, recordings.ts for ls/info/export/query, summary.ts, compare.ts, topology.ts, trace.ts, watch.ts); this one
 * composes them and turns errors into exit codes.
 */
import { Command, CommanderError } from 'commander'
import { isPsError } from '../core/errors.js'
import { packageVersion } from '../util/package-root.js'
import { registerBench } from './bench.js'
import { registerCapture } from './capture.js'
import { registerCompare } from './compare.js'
import { defaultDeps, defaultIo, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliDeps, type CliIo, type SetCode } from './io.js'
import { registerRecordings } from './recordings.js'
import { registerServe } from './serve.js'
import { registerSummary } from './summary.js'
import { registerTopology } from './topology.js'
import { registerTrace } from './trace.js'
import { registerWatch } from './watch.js'

const USAGE_CODES = new Set(['PS_USAGE', 'PS_WORKLOAD_INVALID', 'PS_REQUEST_INVALID', 'PS_RECORDING_NAME_INVALID'])

const buildProgram = (io: CliIo, setCode: SetCode, deps: CliDeps): Command => {
  const program = new Command('pcie-scope')
  program
    .description('PCIe traffic monitor: measure what a GPU workload puts on the wire, from the FPGA probe or its Verilator twin')
    .version(packageVersion(), '-V, --version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
  registerCapture(program, io, setCode, deps)
  registerServe(program, io, setCode)
  registerBench(program, io, setCode, deps)
  registerRecordings(program, io, setCode)
  registerSummary(program, io, setCode)
  registerCompare(program, io, setCode)
  registerTopology(program, io, setCode)
  registerTrace(program, io, setCode, deps)
  registerWatch(program, io, setCode, deps)
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
