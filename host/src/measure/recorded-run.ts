/**
 * measureAndRecord: measureRun, recorded into a recording directory as it happens: the device
 * connection, every snapshot the probe sends (the baseline, the stream, the final one), every
 * interval batch and latency histogram, the run's
 * start and its result. A failed run is recorded with its error and the recording closed as
 * interrupted; a failed recording never hides a measurement that succeeded.
 */
import type { IntervalBatch, LatencyHistogram, Snapshot, TapHistogram, TapSnapshot } from '../core/probe.js'
import type { AnyWorkload } from '../core/workload.js'
import { validateAnyWorkload } from '../core/workload-schema.js'
import type { DeviceSession } from '../device/session.js'
import { measureRun, type RunOptions, type RunResult } from './run.js'
import { CLI_RUN_ID } from './live-records.js'
import { Recorder, recordError } from '../recording/recorder.js'
import { RecordingWriter, type RecordingWriterOptions } from '../recording/writer.js'
import type { PsError } from '../core/errors.js'

const RUN_ID = CLI_RUN_ID

export interface RecordedRun {
  result: RunResult
  name: string
  records: number
  /** why the recording stopped early, when it did (the result is still good) */
  recordingError: PsError | undefined
}

export const measureAndRecord = async (
  session: DeviceSession,
  workload: AnyWorkload,
  dir: string,
  /** frames: also record every raw frame of the link (for the pcapng export) */
  opts: RunOptions & { writer?: RecordingWriterOptions; frames?: boolean } = {},
): Promise<RecordedRun> => {
  const w = validateAnyWorkload(workload)
  const writer = RecordingWriter.create(
    dir,
    { source: session.source, path: session.path, probe: session.info, link: session.pcieLink ?? null, workloads: [w] },
    opts.writer,
  )
  const rec = new Recorder(writer)
  rec.device('connect', session.info)
  const onSnapshot = (s: Snapshot) => rec.snapshot(s)
  const onDisconnect = (e: PsError) => rec.device('disconnect', null, recordError(e))
  const onInterval = (b: IntervalBatch) => rec.interval(b)
  const onHistogram = (h: LatencyHistogram) => rec.histogram(h)
  const onTapSnapshot = (s: TapSnapshot) => rec.tapSnapshot(s)
  const onTapHistogram = (h: TapHistogram) => rec.tapHistogram(h)
  session.client.on('snapshot', onSnapshot)
  session.client.on('tap-snapshot', onTapSnapshot)
  session.client.on('tap-histogram', onTapHistogram)
  session.client.on('interval', onInterval)
  session.client.on('histogram', onHistogram)
  session.client.on('disconnect', onDisconnect)
  const unwatch = opts.frames ? session.client.watchRawFrames((f) => rec.frame(f.dir, f.at, f.bytes)) : () => undefined
  let started = false
  let result: RunResult
  try {
    result = await measureRun(session, w, {
      ...opts,
      onRunStart: (baseline) => {
        started = true
        rec.runStart(RUN_ID, 'capture', w, baseline)
        opts.onRunStart?.(baseline)
      },
    })
  } catch (e) {
    if (started) rec.run(RUN_ID, 'capture', w, { error: e })
    rec.close('interrupted', `the run failed: ${e instanceof Error ? e.message : String(e)}`)
    throw e
  } finally {
    session.client.off('snapshot', onSnapshot)
    session.client.off('tap-snapshot', onTapSnapshot)
    session.client.off('tap-histogram', onTapHistogram)
    session.client.off('interval', onInterval)
    session.client.off('histogram', onHistogram)
    session.client.off('disconnect', onDisconnect)
    unwatch()
  }
  rec.run(RUN_ID, 'capture', w, { probeWindow: result.probeWindow, result })
  const recordingError = rec.close('complete')
  return { result, name: writer.name, records: writer.records, recordingError }
}
