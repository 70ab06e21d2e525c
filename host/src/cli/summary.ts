/**
 * `pcie-scope summary RECORDING`: the bench summary of each run a recording holds (the block
 * `capture` prints after a run); `--json` prints the runs with their summaries, `--html FILE`
 * writes them as one self-contained report (core/bench-report.ts).
 */
import type { Command } from 'commander'
import { runLabel } from '../core/compare.js'
import type { CliIo, SetCode } from './io.js'
import { DIR_HELP } from './recordings.js'
import { RUN_ARG_HELP, runsOfArgs, writeReport } from './compare.js'
import { formatSummary } from './run-summary.js'

export const registerSummary = (program: Command, io: CliIo, setCode: SetCode): void => {
  program
    .command('summary')
    .description("each run's bench summary: GB/s, request rate, wire efficiency, reads in flight, latency, the limit it hit")
    .argument('<recording>', RUN_ARG_HELP)
    .option('--dir <folder>', DIR_HELP)
    .option('--json', 'print exactly one JSON object on stdout: {runs}')
    .option('--html <file>', 'also write the runs as one self-contained HTML file (for slides)')
    .action(async (arg: string, o: { dir?: string; json?: boolean; html?: string }) => {
      const runs = await runsOfArgs([arg], o.dir)
      if (o.html !== undefined) await writeReport(io, o.html, runs)
      io.stdout(
        o.json
          ? JSON.stringify({ runs }) + '\n'
          : runs.map((r) => formatSummary(r.summary, `${runLabel(r)}, ${r.source}, ${new Date(r.at).toISOString()}`)).join('\n'),
      )
      setCode(0)
    })
}
