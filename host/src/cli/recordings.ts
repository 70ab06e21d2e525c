/**
 * The recording commands: `ls`, `info`, `export` and `query`. Results on stdout (one JSON object with
 * --json; an export's bytes), notes on stderr.
 */
import { resolve } from 'node:path'
import { Option, type Command } from 'commander'
import { PsError } from '../core/errors.js'
import { RECORD_TYPES } from '../recording/format.js'
import { describeRecording, listRecordings, openRecording, type RecordingDescription, type RecordingSummary } from '../recording/catalog.js'
import { ALL_EXPORT_FORMATS, exportRecording, isFileFormat, type ExportFormat, type FileExportFormat } from '../export/formats.js'
import { DEFAULT_PARQUET_TABLE, TABLE_NAMES } from '../recording/tables.js'
import { defaultRecordingsDir, resolveRecordingArg } from '../recording/names.js'
import { newReadStats, type ReadStats } from '../recording/reader.js'
import { exportToFile, writeFileFrom } from '../export/file.js'
import { idBytesOf, isGraphWorkload, type AnyWorkload } from '../core/workload.js'
import { requireOptions } from './args.js'
import type { CliIo, SetCode } from './io.js'
import { watchReadProgress } from './read-progress.js'

// DuckDB's native binding is loaded only by the commands that use it: every other command starts
// without it (it adds about a second to a cold start)
const duckdb = () => import('../recording/duckdb.js')

export const DIR_HELP = 'recordings folder (default: $PCIE_SCOPE_RECORDINGS, else ./recordings)'
export const RECORDING_ARG_HELP = 'a recording name in the recordings folder, or a path to a recording directory (with a /)'

export const recordingsDir = (dir: string | undefined): string => (dir !== undefined ? resolve(dir) : defaultRecordingsDir())

const workloadText = (w: AnyWorkload): string =>
  isGraphWorkload(w) ? `${w.pattern} on ${w.graph}, ${idBytesOf(w)}-B ids` : `${w.pattern} ${w.bytes} B @${w.offset}`

const workloadsText = (s: Pick<RecordingSummary, 'workloads' | 'runs'>): string => {
  if (s.workloads.length === 0) return s.runs === 0 ? '-' : `${s.runs} runs`
  if (s.workloads.length === 1 && s.runs <= 1) return workloadText(s.workloads[0]!)
  const patterns = [...new Set(s.workloads.map((w) => w.pattern))].join(', ')
  return `${patterns} (${s.runs} run${s.runs === 1 ? '' : 's'})`
}

const seconds = (s: number | null): string => (s === null ? '-' : s < 10 ? `${s.toFixed(2)} s` : `${s.toFixed(0)} s`)

/** 0.0335 → "33.56 ms": four significant digits in the unit that fits */
const probeSpan = (s: number): string => {
  const [scale, unit] = s < 1e-3 ? [1e6, 'µs'] : s < 1 ? [1e3, 'ms'] : [1, 's']
  return `${Number((s * scale).toPrecision(4))} ${unit}`
}

export const table = (rows: string[][]): string => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n') + '\n'
}

const formatList = (root: string, recordings: RecordingSummary[]): string => {
  if (recordings.length === 0) return `no recordings in ${root}\n`
  const head = ['NAME', 'STATUS', 'START', 'DURATION', 'RECORDS', 'WORKLOAD']
  return table([
    head,
    ...recordings.map((c) => [c.name, c.status, c.startedAt, seconds(c.durationSeconds), String(c.records), workloadsText(c)]),
  ])
}

const skippedText = (r: Pick<ReadStats, 'torn' | 'invalid' | 'unknown'>): string | undefined => {
  const parts = [
    r.torn ? `${r.torn} torn line${r.torn === 1 ? '' : 's'}` : '',
    r.invalid ? `${r.invalid} invalid line${r.invalid === 1 ? '' : 's'}` : '',
    r.unknown ? `${r.unknown} record${r.unknown === 1 ? '' : 's'} of unknown type` : '',
  ].filter(Boolean)
  return parts.length ? parts.join(', ') : undefined
}

const formatInfo = (d: RecordingDescription): string => {
  const m = d.manifest
  const p = m.probe
  const hex = (n: number, w: number) => `0x${n.toString(16).padStart(w, '0')}`
  const rows: [string, string][] = [
    ['name', d.name],
    ['status', d.note ? `${d.status} (${d.note})` : d.status],
    ['source', `${m.source} (${m.path}) on ${m.writer.host}, pcie-scope ${m.pcieScopeVersion}`],
    [
      'probe',
      `probe id ${hex(p.probeId, 8)}, firmware ${hex(p.firmwareVersion, 4)}, protocol ${p.protocolVersion}, ${p.clockHz / 1e6} MHz`,
    ],
    ['link', m.link?.name ?? 'unknown'],
    ['started', m.startedAt],
    ['stopped', m.stoppedAt ?? '-'],
    [
      'duration',
      `${seconds(d.durationSeconds)} host` +
        (d.probeTime ? `, ${probeSpan(d.probeTime.lastSeconds - d.probeTime.firstSeconds)} of probe time` : ''),
    ],
    ['records', `${d.records}: ${RECORD_TYPES.map((t) => `${d.byType[t]} ${t}`).join(', ')}`],
    ['runs', d.runs === 0 ? '0' : `${d.runs}: ${d.workloads.map(workloadText).join('; ')}`],
    ['segments', `${d.read.segments} (${d.read.bytes} B)`],
    ['skipped', skippedText(d.read) ?? 'nothing'],
    ['directory', d.dir],
  ]
  const w = Math.max(...rows.map(([k]) => k.length))
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n') + '\n'
}

/** Chunks to stdout in blocks of about 64 KiB, waiting for the stream where the io can. */
const writeStdoutFrom = async (io: CliIo, chunks: AsyncIterable<string>): Promise<void> => {
  const write = io.writeOut ?? (async (s: string) => io.stdout(s))
  let block = ''
  for await (const c of chunks) {
    block += c
    if (block.length >= 1 << 16) {
      await write(block)
      block = ''
    }
  }
  if (block) await write(block)
}

/** A bar on a terminal's stderr, never with --json. */
const progressOf = (io: CliIo, json = false) => ({
  write: io.stderr,
  enabled: !json && (io.stderrIsTTY ?? false),
  ...(io.progressDelayMs !== undefined ? { delayMs: io.progressDelayMs } : {}),
})

export const registerRecordings = (program: Command, io: CliIo, setCode: SetCode): void => {
  program
    .command('ls')
    .description('list the recordings under the recordings folder')
    .option('--dir <folder>', DIR_HELP)
    .option('--json', 'print exactly one JSON object on stdout')
    .action(async (o: { dir?: string; json?: boolean }) => {
      const listing = await listRecordings(recordingsDir(o.dir))
      for (const s of listing.skipped) io.stderr(`pcie-scope: skipped ${s.name}: [${s.code}] ${s.message}\n`)
      io.stdout(o.json ? JSON.stringify(listing) + '\n' : formatList(listing.root, listing.recordings))
      setCode(0)
    })

  program
    .command('info')
    .description('describe one recording: manifest, status, records by type, what was skipped')
    .argument('<recording>', RECORDING_ARG_HELP)
    .option('--dir <folder>', DIR_HELP)
    .option('--json', 'print exactly one JSON object on stdout')
    .action(async (arg: string, o: { dir?: string; json?: boolean }) => {
      const dir = resolveRecordingArg(arg, recordingsDir(o.dir))
      const stats = newReadStats()
      const stop = await watchReadProgress(dir, stats, 'read', progressOf(io, o.json))
      let d
      try {
        d = await describeRecording(dir, stats)
      } finally {
        stop()
      }
      io.stdout(o.json ? JSON.stringify(d) + '\n' : formatInfo(d))
      setCode(0)
    })

  program
    .command('export')
    .description(
      'export a recording: csv (a row per snapshot), jsonl (the records), perfetto (trace-event JSON), vcd (interval samples); parquet (one table) and pcapng (raw frames, with wireshark/pcie_scope.lua) need -o',
    )
    .argument('<recording>', RECORDING_ARG_HELP)
    .addOption(new Option('--format <format>', 'output format').choices(ALL_EXPORT_FORMATS))
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .addOption(new Option('--table <name>', 'parquet: the table to write').choices(TABLE_NAMES).default(DEFAULT_PARQUET_TABLE))
    .option('--dir <folder>', DIR_HELP)
    .hook('preAction', requireOptions('format'))
    .action(async (arg: string, o: { format: ExportFormat | FileExportFormat; output?: string; table: string; dir?: string }) => {
      const recording = await openRecording(resolveRecordingArg(arg, recordingsDir(o.dir)))
      if (isFileFormat(o.format) && o.output === undefined) {
        throw new PsError('PS_USAGE', `${o.format} is a binary file format: give -o FILE`)
      }
      const stats = newReadStats()
      const stop = await watchReadProgress(recording.dir, stats, 'read', progressOf(io))
      try {
        if (isFileFormat(o.format)) await exportToFile(recording, o.format, resolve(o.output!), { table: o.table, stats })
        else {
          const chunks = exportRecording(recording, o.format, stats)
          if (o.output !== undefined) await writeFileFrom(resolve(o.output), chunks)
          else await writeStdoutFrom(io, chunks)
        }
      } finally {
        stop()
      }
      const skipped = skippedText(stats)
      if (skipped) io.stderr(`pcie-scope: ${recording.manifest.name} (${recording.status}): skipped ${skipped}\n`)
      setCode(0)
    })

  program
    .command('query')
    .description(`run SQL over a recording with DuckDB; tables: ${TABLE_NAMES.join(', ')} (docs/contracts.md §5.2)`)
    .argument('<recording>', RECORDING_ARG_HELP)
    .argument('<sql>', 'one SQL statement, e.g. "select count(*) from snapshots"')
    .option('--dir <folder>', DIR_HELP)
    .option('--json', 'print exactly one JSON object on stdout: {columns, types, rows}')
    .action(async (arg: string, sql: string, o: { dir?: string; json?: boolean }) => {
      const recording = await openRecording(resolveRecordingArg(arg, recordingsDir(o.dir)))
      const stats = newReadStats()
      const { loadRecording, runQuery } = await duckdb()
      const stop = await watchReadProgress(recording.dir, stats, 'loaded', progressOf(io, o.json))
      let loaded
      try {
        loaded = await loadRecording(recording, stats)
      } finally {
        stop()
      }
      try {
        const r = await runQuery(loaded, sql)
        io.stdout(o.json ? JSON.stringify(r) + '\n' : formatQuery(r.columns, r.rows))
      } finally {
        loaded.close()
      }
      const skipped = skippedText(stats)
      if (skipped) io.stderr(`pcie-scope: ${recording.manifest.name} (${recording.status}): skipped ${skipped}\n`)
      setCode(0)
    })
}

const cellText = (v: unknown): string => (v === null || v === undefined ? 'NULL' : typeof v === 'object' ? JSON.stringify(v) : String(v))

/** A query's result as an aligned table, with the row count below it. */
const formatQuery = (columns: string[], rows: unknown[][]): string =>
  (columns.length ? table([columns, ...rows.map((r) => r.map(cellText))]) : '') + `(${rows.length} row${rows.length === 1 ? '' : 's'})\n`
