/**
 * Recorder: writes what happens to a probe into a RecordingWriter, from event listeners (device
 * client, server) that must never see it throw: the first failure (a full disk) is kept, handed
 * to onError once, and recording stops; the measurement goes on.
 */
import { isPsError, PsError } from '../core/errors.js'
import type { IntervalBatch, LatencyHistogram, ProbeInfo, Snapshot, TapHistogram, TapSnapshot } from '../core/probe.js'
import type { GpuCounterInterval } from '../core/wire.js'
import type { AnyWorkload } from '../core/workload.js'
import type { AnyRecord, DeviceRecord, ProbeWindow, RecordError, RunOrigin } from './format.js'
import type { RecordingWriter } from './writer.js'

export const recordError = (e: unknown): RecordError => ({
  code: isPsError(e) ? e.code : 'PS_INTERNAL',
  message: e instanceof Error ? e.message : String(e),
})

export class Recorder {
  private failure: PsError | undefined
  /** the device's life within the recording: +1 at each reconnect (format.ts AnyRecord) */
  private epoch = 0

  constructor(
    readonly writer: RecordingWriter,
    private readonly onError: (e: PsError) => void = () => {},
  ) {}

  /** the failure that stopped recording, if any */
  get error(): PsError | undefined {
    return this.failure
  }

  get name(): string {
    return this.writer.name
  }

  snapshot(s: Snapshot): void {
    this.record({ t: 'snapshot', at: s.receivedAt, snapshot: s })
  }

  interval(b: IntervalBatch): void {
    this.record({ t: 'interval', at: b.receivedAt, batch: b })
  }

  histogram(h: LatencyHistogram): void {
    this.record({ t: 'histogram', at: h.receivedAt, histogram: h })
  }

  tapSnapshot(s: TapSnapshot): void {
    this.record({ t: 'tap-snapshot', at: s.receivedAt, tapSnapshot: s })
  }

  tapHistogram(h: TapHistogram): void {
    this.record({ t: 'tap-histogram', at: h.receivedAt, histogram: h })
  }

  runStart(id: number, origin: RunOrigin, workload: AnyWorkload, baseline: Snapshot | null): void {
    this.record({ t: 'run-start', at: Date.now(), id, origin, workload, baseline })
  }

  run(
    id: number,
    origin: RunOrigin,
    workload: AnyWorkload,
    outcome: { probeWindow: ProbeWindow; result: unknown } | { error: unknown },
  ): void {
    const common = { t: 'run', at: Date.now(), id, origin, workload } as const
    this.record(
      'error' in outcome
        ? { ...common, probeWindow: null, error: recordError(outcome.error), result: null }
        : { ...common, probeWindow: outcome.probeWindow, error: null, result: outcome.result },
    )
  }

  device(event: DeviceRecord['event'], info: ProbeInfo | null, error: RecordError | null = null): void {
    if (event === 'reconnect') this.epoch++
    this.record({ t: 'device', at: Date.now(), event, info, error })
  }

  /** The device was away from `from` to `to` (ms): nothing was recorded in between. */
  gap(from: number, to: number, reason: RecordError | null): void {
    this.record({ t: 'gap', at: Date.now(), from, to, reason })
  }

  /** One raw frame of the link (RawFrame of the device client). */
  frame(dir: 'tx' | 'rx', at: number, bytes: Uint8Array): void {
    this.record({ t: 'frame', at, dir, data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64') })
  }

  /** One interval of the GPU's own PCIe counters (`serve --gpu-counters`, `capture --counters`). */
  gpuCounters(interval: GpuCounterInterval, at: number = Date.now()): void {
    this.record({ t: 'gpu-counters', at, source: 'gpu-counters', ...interval })
  }

  mark(label: string, note: string | null = null): void {
    this.record({ t: 'mark', at: Date.now(), label, note })
  }

  /** Close the recording; a failure to close is kept like any other (and returned). */
  close(status: 'complete' | 'interrupted' = 'complete', note: string | null = null): PsError | undefined {
    try {
      this.writer.close(status, note)
    } catch (e) {
      this.fail(e)
    }
    return this.failure
  }

  private record(r: AnyRecord): void {
    if (this.failure || this.writer.closed) return
    try {
      this.writer.append(this.epoch > 0 ? { ...r, epoch: this.epoch } : r)
    } catch (e) {
      this.fail(e)
    }
  }

  private fail(e: unknown): void {
    if (this.failure) return
    this.failure = isPsError(e)
      ? e
      : new PsError('PS_RECORDING_IO', `recording failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e })
    this.onError(this.failure)
  }
}
