/**
 * GET /api/recordings, GET /api/recordings/:name and GET /api/recordings/:name/export?format=csv|jsonl|
 * perfetto|vcd|parquet[&table=]|pcapng (a download, as `pcie-scope export` writes it): the recordings in the server's
 * recordings folder. A name is one checked path component (400 PS_RECORDING_NAME_INVALID otherwise), so a
 * request can never read outside the root; an unknown one is 404 PS_RECORDING_NOT_FOUND.
 */
import express from 'express'
import { PsError } from '../core/errors.js'
import { describeRecording, listRecordings, openRecording, type OpenedRecording } from '../recording/catalog.js'
import { createReadStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { ALL_EXPORT_FORMATS, exportRecording, isFileFormat, type ExportFormat, type FileExportFormat } from '../export/formats.js'
import { exportToFile } from '../export/file.js'
import { DEFAULT_PARQUET_TABLE, TABLE_NAMES } from '../recording/tables.js'
import { recordingDirOf, validateRecordingName } from '../recording/names.js'
import { ApiError } from './http-errors.js'

/** What each export is served as; a download, named after the recording. */
const EXPORT_TYPES: Record<ExportFormat, { type: string; ext: string }> = {
  csv: { type: 'text/csv; charset=utf-8', ext: 'csv' },
  jsonl: { type: 'application/x-ndjson; charset=utf-8', ext: 'jsonl' },
  perfetto: { type: 'application/json; charset=utf-8', ext: 'perfetto.json' },
  vcd: { type: 'text/x-vcd; charset=utf-8', ext: 'vcd' },
}
const FILE_EXPORT_TYPES: Record<FileExportFormat, string> = {
  parquet: 'application/vnd.apache.parquet',
  pcapng: 'application/x-pcapng',
}

/**
 * Send a stream as the response body. pipeline() ends the source with the response, on its last
 * byte, its close or its error: a client that goes away mid-body stops the export and closes the
 * files it reads. A client gone is nothing to answer; a failed export ends the response abruptly,
 * so the client sees it cut instead of complete.
 */
const sendStream = async (res: express.Response, body: Readable): Promise<void> => {
  try {
    await pipeline(body, res)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return
    throw e
  }
}

/** A binary export: written to a private temporary file first (they exist only as files), then sent. */
const sendFileExport = async (res: express.Response, recording: OpenedRecording, format: FileExportFormat, table: string) => {
  const dir = await mkdtemp(join(tmpdir(), 'ps-export-'))
  try {
    const file = join(dir, 'export')
    await exportToFile(recording, format, file, { table })
    const name = recording.manifest.name
    // attachment() sets a type from the file name; ours comes after it
    res.attachment(format === 'parquet' ? `${name}.${table}.parquet` : `${name}.pcapng`).type(FILE_EXPORT_TYPES[format])
    await sendStream(res, createReadStream(file))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

export interface RecordingsDeps {
  /** the recordings folder; null when the server was started without one */
  dir: string | null
  /** the name of the recording this server is recording into, if any */
  recording(): string | null
}

export function recordingsRouter({ dir, recording }: RecordingsDeps): express.Router {
  const r = express.Router()
  r.get('/recordings', async (_req, res) => {
    const listing = dir === null ? { root: null, recordings: [], skipped: [] } : await listRecordings(dir)
    res.json({ ...listing, recording: recording() })
  })
  r.get('/recordings/:name', async (req, res) => {
    const name = validateRecordingName(req.params.name)
    if (dir === null) throw new PsError('PS_RECORDING_NOT_FOUND', `no recording ${name}: this server has no recordings folder`)
    res.json(await describeRecording(recordingDirOf(dir, name)))
  })
  // the exports of `pcie-scope export`, streamed as a download (a recording in progress too)
  r.get('/recordings/:name/export', async (req, res) => {
    const name = validateRecordingName(req.params.name)
    const format = req.query['format']
    if (typeof format !== 'string' || !(ALL_EXPORT_FORMATS as readonly string[]).includes(format)) {
      throw new ApiError('PS_REQUEST_INVALID', `format must be one of ${ALL_EXPORT_FORMATS.join(', ')}`)
    }
    const table = req.query['table'] ?? DEFAULT_PARQUET_TABLE
    if (typeof table !== 'string' || !TABLE_NAMES.includes(table)) {
      throw new ApiError('PS_REQUEST_INVALID', `table must be one of ${TABLE_NAMES.join(', ')}`)
    }
    if (dir === null) throw new PsError('PS_RECORDING_NOT_FOUND', `no recording ${name}: this server has no recordings folder`)
    const recording = await openRecording(recordingDirOf(dir, name))
    if (isFileFormat(format)) return sendFileExport(res, recording, format, table)
    const { type, ext } = EXPORT_TYPES[format as ExportFormat]
    res.type(type).attachment(`${name}.${ext}`)
    await sendStream(res, Readable.from(exportRecording(recording, format as ExportFormat)))
  })
  return r
}
