/**
 * The export formats. Text formats stream (a capture in, text chunks out: the CLI's stdout, the
 * server's downloads); file formats are binary and written whole to a file (export-parquet.ts).
 */
import type { OpenedCapture } from './catalog.js'
import { exportCsv } from './export-csv.js'
import { exportJsonl } from './export-jsonl.js'
import { exportPerfetto } from './export-perfetto.js'
import { exportVcd } from './export-vcd.js'
import { readRecords, type ReadStats } from './reader.js'

export const EXPORT_FORMATS = ['csv', 'jsonl', 'perfetto', 'vcd'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]
export const FILE_EXPORT_FORMATS = ['parquet', 'pcapng'] as const
export type FileExportFormat = (typeof FILE_EXPORT_FORMATS)[number]
export const ALL_EXPORT_FORMATS = [...EXPORT_FORMATS, ...FILE_EXPORT_FORMATS] as const

export const isFileFormat = (f: string): f is FileExportFormat => (FILE_EXPORT_FORMATS as readonly string[]).includes(f)

/** The capture's records in a format, as text chunks; `stats` says what was skipped on the way. */
export const exportCapture = (capture: OpenedCapture, format: ExportFormat, stats?: ReadStats): AsyncGenerator<string> => {
  const records = readRecords(capture.dir, stats ? { stats } : {})
  switch (format) {
    case 'csv':
      return exportCsv(capture, records)
    case 'jsonl':
      return exportJsonl(records)
    case 'perfetto':
      return exportPerfetto(capture, records)
    case 'vcd':
      return exportVcd(capture, records)
  }
}
