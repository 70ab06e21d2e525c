/**
 * The server's recording: one capture per server session under the capture root, named
 * `serve-YYYYMMDD-HHMMSS` (UTC, `-2`, `-3`… when taken): the device at start, every snapshot,
 * each run's start and result (or error), START / STOP / CLEAR as marks, disconnects and
 * reconnects. A recording that fails (a full disk) is logged once and stops; the server serves on.
 */
import { join } from 'node:path'
import { isPsError, PsError } from '../core/errors.js'
import { Recorder } from '../capture/recorder.js'
import { timestampedName } from '../capture/names.js'
import { CaptureWriter } from '../capture/writer.js'
import { createLogger } from '../util/log.js'
import type { ServerSession } from './session.js'

const log = createLogger('ps:server:recording')

/** suffixes tried when a server started in the same second already took the name */
const MAX_SUFFIX = 100

export const openServerRecording = (root: string, session: ServerSession, now: Date = new Date()): Recorder => {
  const base = timestampedName('serve', now)
  for (let i = 1; i <= MAX_SUFFIX; i++) {
    const dir = join(root, i === 1 ? base : `${base}-${i}`)
    let writer: CaptureWriter
    try {
      writer = CaptureWriter.create(dir, {
        source: session.source,
        path: session.path,
        probe: session.info,
        link: session.pcieLink ?? null,
      })
    } catch (e) {
      if (isPsError(e, 'PS_CAPTURE_EXISTS')) continue
      const why = e instanceof Error ? e.message : String(e)
      throw new PsError('PS_CAPTURE_IO', `cannot record under ${root}: ${why} (choose another root, or serve without recording)`, {
        cause: e,
      })
    }
    const rec = new Recorder(writer, (e) => log.error(`recording ${writer.name} stopped: [${e.code}] ${e.message}`))
    rec.device('connect', session.info)
    return rec
  }
  throw new PsError('PS_CAPTURE_EXISTS', `${base} and ${MAX_SUFFIX - 1} suffixed names are taken under ${root}`)
}
