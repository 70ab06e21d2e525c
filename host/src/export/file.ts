/**
 * Exports written whole to a file: text chunks or binary blocks go to a temporary name beside
 * the target and are renamed at the end, so a failed export never leaves a file that looks whole.
 * The binary formats (Parquet through DuckDB, pcapng of the raw frames) exist only as files; the
 * CLI's `-o` and the server's downloads both come through here.
 */
import { createWriteStream } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { PsError } from '../core/errors.js'
import type { OpenedRecording } from '../recording/catalog.js'
import type { FileExportFormat } from './formats.js'
import { exportPcapng } from './pcapng.js'
import { readRecords, type ReadStats } from '../recording/reader.js'
import { DEFAULT_PARQUET_TABLE } from '../recording/tables.js'

export const writeFileFrom = async (file: string, chunks: AsyncIterable<string | Buffer>): Promise<void> => {
  const temp = `${file}.${process.pid}.tmp`
  try {
    await pipeline(Readable.from(chunks), createWriteStream(temp))
    await rename(temp, file)
  } catch (e) {
    await rm(temp, { force: true })
    if (e instanceof PsError) throw e
    throw new PsError('PS_RECORDING_IO', `cannot write ${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e })
  }
}

/** Write a binary export of the recording to `file`. */
export const exportToFile = async (
  recording: OpenedRecording,
  format: FileExportFormat,
  file: string,
  opts: { table?: string; stats?: ReadStats } = {},
): Promise<void> => {
  if (format === 'parquet') {
    // DuckDB's binding loads only when a Parquet export is asked for
    const { exportParquet } = await import('./parquet.js')
    await exportParquet(recording, opts.table ?? DEFAULT_PARQUET_TABLE, file, opts.stats)
    return
  }
  const counts = { frames: 0 }
  await writeFileFrom(file, exportPcapng(recording, readRecords(recording.dir, opts.stats ? { stats: opts.stats } : {}), counts))
  if (counts.frames === 0) {
    await rm(file, { force: true })
    throw new PsError(
      'PS_RECORDING_NO_FRAMES',
      `${recording.manifest.name} holds no raw frames: record with \`pcie-scope capture --out DIR --frames\` or \`serve --record-frames\``,
    )
  }
}
