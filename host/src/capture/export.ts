/** The export formats and the one entry point the CLI uses: a capture in, text chunks out. */
import type { OpenedCapture } from './catalog.js'
import { exportCsv } from './export-csv.js'
import { exportJsonl } from './export-jsonl.js'
import { exportPerfetto } from './export-perfetto.js'
import { readRecords, type ReadStats } from './reader.js'

export const EXPORT_FORMATS = ['csv', 'jsonl', 'perfetto'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

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
  }
}
