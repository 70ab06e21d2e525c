/**
 * `pcie-scope compare A B [C…]`: runs of recordings side by side, the first the baseline: each
 * metric of the bench summary with its change, the limit each run hit, and one sentence per run
 * on what changed and why (core/compare.ts). `--json` prints the comparison, `--html FILE` writes
 * the self-contained report (core/bench-report.ts).
 */
import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Command } from 'commander'
import { PsError } from '../core/errors.js'
import { changeText, compareRuns, runLabel, type Comparison } from '../core/compare.js'
import { reportHtml } from '../core/bench-report.js'
import { sig, type RunEntry } from '../core/run-summary.js'
import { resolveRecordingArg } from '../recording/names.js'
import { pickRuns, recordingRuns, splitRunArg } from '../recording/run-summaries.js'
import type { CliIo, SetCode } from './io.js'
import { DIR_HELP, recordingsDir, table } from './recordings.js'

export const RUN_ARG_HELP =
  'a recording (name in the recordings folder, or a path with a /): every run it holds; RECORDING#ID: its run ID alone'

/** The runs the arguments name, in their order: each recording's runs, or the one after `#`. */
export async function runsOfArgs(args: string[], dir: string | undefined): Promise<RunEntry[]> {
  const root = recordingsDir(dir)
  const out: RunEntry[] = []
  for (const arg of args) {
    const { recording, id } = splitRunArg(arg)
    out.push(...pickRuns(await recordingRuns(resolveRecordingArg(recording, root)), recording, id))
  }
  return out
}

/** Write a report to a file the user named; says where on stderr. */
export async function writeReport(io: CliIo, file: string, runs: RunEntry[]): Promise<void> {
  const path = resolve(file)
  await writeFile(path, reportHtml(runs)).catch((e: unknown) => {
    throw new PsError('PS_RECORDING_IO', `cannot write ${path}: ${e instanceof Error ? e.message : String(e)}`, { cause: e })
  })
  io.stderr(`pcie-scope: report written to ${path}\n`)
}

/** The comparison as text: the sentences, then one row per metric with each run's value and change. */
export const formatComparison = (c: Comparison): string => {
  const head = ['', ...c.runs.map((r, i) => `${i === 0 ? 'baseline ' : ''}${runLabel(r)}`)]
  const rows = c.metrics.map((m) => [
    `${m.label} (${m.unit})`,
    ...m.values.map((v, i) => (v === null ? '–' : sig(v)) + (i > 0 ? ` (${changeText(m.changes[i] ?? null)})` : '')),
  ])
  return c.sentences.join('\n') + '\n\n' + table([head, ...rows, ['limit', ...c.limits]])
}

export const registerCompare = (program: Command, io: CliIo, setCode: SetCode): void => {
  program
    .command('compare')
    .description('runs of recordings side by side, the first the baseline: every metric, its change, the limit, and why it changed')
    .argument('<runs...>', RUN_ARG_HELP)
    .option('--dir <folder>', DIR_HELP)
    .option('--json', 'print exactly one JSON object on stdout: {runs, metrics, limits, sentences}')
    .option('--html <file>', 'also write the comparison as one self-contained HTML file (for slides)')
    .action(async (args: string[], o: { dir?: string; json?: boolean; html?: string }) => {
      const runs = await runsOfArgs(args, o.dir)
      if (runs.length < 2) throw new PsError('PS_USAGE', `a comparison needs two runs or more; ${args.join(' ')} holds ${runs.length}`)
      const c = compareRuns(runs)
      if (o.html !== undefined) await writeReport(io, o.html, runs)
      io.stdout(o.json ? JSON.stringify(c) + '\n' : formatComparison(c))
      setCode(0)
    })
}
