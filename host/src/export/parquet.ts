/**
 * Parquet export: one table of the recording (tables.ts; `snapshots` unless asked otherwise) as a
 * Parquet file written by DuckDB. Parquet is a file format, not a stream: it is written to a
 * temporary name beside the target and renamed, so a failed export leaves no file that looks whole.
 */
import { rename, rm } from 'node:fs/promises'
import { PsError } from '../core/errors.js'
import type { OpenedRecording } from '../recording/catalog.js'
import { copyToParquet, loadRecording } from '../recording/duckdb.js'
import type { ReadStats } from '../recording/reader.js'
import { TABLE_NAMES } from '../recording/tables.js'

/** Write `table` of the recording to `file`; the number of rows written. */
export const exportParquet = async (recording: OpenedRecording, table: string, file: string, stats?: ReadStats): Promise<number> => {
  if (!TABLE_NAMES.includes(table)) {
    throw new PsError('PS_USAGE', `no table ${table}: one of ${TABLE_NAMES.join(', ')}`)
  }
  const loaded = await loadRecording(recording, stats, [table])
  const temp = `${file}.${process.pid}.tmp`
  try {
    await copyToParquet(loaded, table, temp)
    await rename(temp, file)
    return loaded.rows[table]!
  } catch (e) {
    await rm(temp, { force: true })
    if (e instanceof PsError) throw e
    throw new PsError('PS_RECORDING_IO', `cannot write ${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e })
  } finally {
    loaded.close()
  }
}
