/**
 * GET /api/captures, GET /api/captures/:name and GET /api/captures/:name/export?format=csv|jsonl|
 * perfetto|vcd (a download, as `pcie-scope export` writes it): the recordings under the server's capture
 * root. A name is one checked path component (400 PS_CAPTURE_NAME_INVALID otherwise), so a
 * request can never read outside the root; an unknown one is 404 PS_CAPTURE_NOT_FOUND.
 */
import express from 'express'
import { PsError } from '../core/errors.js'
import { describeCapture, listCaptures, openCapture } from '../capture/catalog.js'
import { EXPORT_FORMATS, exportCapture, type ExportFormat } from '../capture/export.js'
import { captureDirOf, validateCaptureName } from '../capture/names.js'
import { ApiError } from './http-errors.js'

/** What each export is served as; a download, named after the capture. */
const EXPORT_TYPES: Record<ExportFormat, { type: string; ext: string }> = {
  csv: { type: 'text/csv; charset=utf-8', ext: 'csv' },
  jsonl: { type: 'application/x-ndjson; charset=utf-8', ext: 'jsonl' },
  perfetto: { type: 'application/json; charset=utf-8', ext: 'perfetto.json' },
  vcd: { type: 'text/x-vcd; charset=utf-8', ext: 'vcd' },
}

export interface CapturesDeps {
  /** the capture root; null when the server was started without one */
  root: string | null
  /** the name of the capture this server is recording into, if any */
  recording(): string | null
}

export function capturesRouter({ root, recording }: CapturesDeps): express.Router {
  const r = express.Router()
  r.get('/captures', async (_req, res) => {
    const listing = root === null ? { root: null, captures: [], skipped: [] } : await listCaptures(root)
    res.json({ ...listing, recording: recording() })
  })
  r.get('/captures/:name', async (req, res) => {
    const name = validateCaptureName(req.params.name)
    if (root === null) throw new PsError('PS_CAPTURE_NOT_FOUND', `no capture ${name}: this server has no capture root`)
    res.json(await describeCapture(captureDirOf(root, name)))
  })
  // the exports of `pcie-scope export`, streamed as a download (a recording in progress too)
  r.get('/captures/:name/export', async (req, res) => {
    const name = validateCaptureName(req.params.name)
    const format = req.query['format']
    if (typeof format !== 'string' || !(EXPORT_FORMATS as readonly string[]).includes(format)) {
      throw new ApiError('PS_REQUEST_INVALID', `format must be one of ${EXPORT_FORMATS.join(', ')}`)
    }
    if (root === null) throw new PsError('PS_CAPTURE_NOT_FOUND', `no capture ${name}: this server has no capture root`)
    const capture = await openCapture(captureDirOf(root, name))
    const { type, ext } = EXPORT_TYPES[format as ExportFormat]
    res.type(type).attachment(`${name}.${ext}`)
    for await (const chunk of exportCapture(capture, format as ExportFormat)) {
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve))
    }
    res.end()
  })
  return r
}
