/**
 * The export formats. Text formats stream (a recording in, text chunks out: the CLI's stdout, the
 * server's downloads); file formats are binary and written whole to a file (export-parquet.ts).
 */
import type { OpenedRecording } from '../recording/catalog.js'
import { exportCsv } from './csv.js'
import { exportJsonl } from './jsonl.js'
import { exportPerfetto } from './perfetto.js'
import { exportVcd } from './vcd.js'
import { readRecords, type ReadStats } from '../recording/reader.js'

export const EXPORT_FORMATS = ['csv', 'jsonl', 'perfetto', 'vcd'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]
export const FILE_EXPORT_FORMATS = ['parquet', 'pcapng'] as const
export type FileExportFormat = (typeof FILE_EXPORT_FORMATS)[number]
export const ALL_EXPORT_FORMATS = [...EXPORT_FORMATS, ...FILE_EXPORT_FORMATS] as const

export const isFileFormat = (f: string): f is FileExportFormat => (FILE_EXPORT_FORMATS as readonly string[]).includes(f)

/** The recording's records in a format, as text chunks; `stats` says what was skipped on the way. */
export const exportRecording = (recording: OpenedRecording, format: ExportFormat, stats?: ReadStats): AsyncGenerator<string> => {
  const records = readRecords(recording.dir, stats ? { stats } : {})
  switch (format) {
    case 'csv':
      return exportCsv(recording, records)
    case 'jsonl':
      return exportJsonl(records)
    case 'perfetto':
      return exportPerfetto(recording, records)
    case 'vcd':
      return exportVcd(recording, records)
  }
}
