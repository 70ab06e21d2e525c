/**
 * GET /api/captures and GET /api/captures/:name: the recordings under the server's capture
 * root. A name is one checked path component (400 PS_CAPTURE_NAME_INVALID otherwise), so a
 * request can never read outside the root; an unknown one is 404 PS_CAPTURE_NOT_FOUND.
 */
import express from 'express'
import { PsError } from '../core/errors.js'
import { describeCapture, listCaptures } from '../capture/catalog.js'
import { captureDirOf, validateCaptureName } from '../capture/names.js'

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
  return r
}
