/**
 * The server's recording: one recording per server session under the recordings folder, named
 * `serve-YYYYMMDD-HHMMSS` (UTC, `-2`, `-3`… when taken): the device at start, every snapshot and
 * histogram (in switch mode the host side's tap snapshots and histograms too), each run's start
 * and result (or error), START / STOP / CLEAR as marks, disconnects and reconnects. A recording that fails (a full disk) is logged once and stops; the server serves on.
 */
import { join } from 'node:path'
import { isPsError, PsError } from '../core/errors.js'
import { Recorder } from '../recording/recorder.js'
import { timestampedName } from '../recording/names.js'
import { RecordingWriter } from '../recording/writer.js'
import { createLogger } from '../util/log.js'
import type { ServerSession } from './session.js'

const log = createLogger('ps:server:recording')

/** suffixes tried when a server started in the same second already took the name */
const MAX_SUFFIX = 100

export const openServerRecording = (root: string, session: ServerSession, now: Date = new Date()): Recorder => {
  const base = timestampedName('serve', now)
  for (let i = 1; i <= MAX_SUFFIX; i++) {
    const dir = join(root, i === 1 ? base : `${base}-${i}`)
    let writer: RecordingWriter
    try {
      writer = RecordingWriter.create(dir, {
        source: session.source,
        path: session.path,
        probe: session.info,
        link: session.pcieLink ?? null,
      })
    } catch (e) {
      if (isPsError(e, 'PS_RECORDING_EXISTS')) continue
      const why = e instanceof Error ? e.message : String(e)
      throw new PsError('PS_RECORDING_IO', `cannot record under ${root}: ${why} (choose another root, or serve without recording)`, {
        cause: e,
      })
    }
    const rec = new Recorder(writer, (e) => log.error(`recording ${writer.name} stopped: [${e.code}] ${e.message}`))
    rec.device('connect', session.info)
    return rec
  }
  throw new PsError('PS_RECORDING_EXISTS', `${base} and ${MAX_SUFFIX - 1} suffixed names are taken under ${root}`)
}

/**
 * The server's recording, switchable while it serves (POST /api/recording): at most one recording
 * open at a time; `start` opens a new one under the root, `stop` closes the current one.
 */
export class SessionRecording {
  private rec: Recorder | undefined
  private unwatch: (() => void) | undefined

  /** frames: each recording also holds every raw frame of the link (`serve --record-frames`) */
  constructor(
    private readonly root: string | null,
    private readonly session: ServerSession,
    private readonly opts: { frames?: boolean } = {},
  ) {}

  /** the open recording's recorder, if any (one that failed and closed itself is not) */
  get current(): Recorder | undefined {
    return this.rec && !this.rec.writer.closed ? this.rec : undefined
  }

  /** Record into a new recording; already recording, the current one goes on. Its name. */
  start(): string {
    const open = this.current
    if (open) return open.name
    if (this.root === null) throw new PsError('PS_RECORDING_UNAVAILABLE', 'this server was started without a recordings folder')
    const watch = this.session.client.watchRawFrames?.bind(this.session.client)
    if (this.opts.frames && !watch) throw new PsError('PS_RECORDING_UNAVAILABLE', 'this device client cannot show its raw frames')
    const rec = openServerRecording(this.root, this.session)
    this.rec = rec
    this.unwatch = this.opts.frames && watch ? watch((f) => rec.frame(f.dir, f.at, f.bytes)) : undefined
    return rec.name
  }

  /** Close the current recording as complete; its name, or null when none was open. */
  stop(): string | null {
    const open = this.current
    this.rec = undefined
    this.unwatch?.()
    this.unwatch = undefined
    if (!open) return null
    open.close('complete') // a failure to close is logged by the recorder's onError
    return open.name
  }
}
