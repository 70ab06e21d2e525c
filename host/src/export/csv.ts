/**
 * CSV export: one row per snapshot, the probe time in seconds then every probe counter, then the
 * tap the row is of: `gpuSide` for a SNAPSHOT (tap 0, every design's), `hostSide` for the switch
 * design's TAP_SNAPSHOT, which follows the SNAPSHOT it was taken with. The columns come from the
 * generated COUNTERS list (spec/registers.json), so a counter added to the spec appears here
 * without an edit. After `tap`, `epoch` (the device's life in the recording) and the GPU's own PCIe counters (`serve --gpu-counters`): a row of
 * tap `gpuCounters` per interval fills only those columns (its times are the counter source's
 * clock, not the probe's), a probe row leaves them empty. Every field is a number, empty (a
 * counter with no value yet, or a column of the other kind of row), a tap key or a counter
 * source's name: nothing needs quoting.
 */
import { COUNTERS, TAPS } from '../core/generated.js'
import { counterValue } from '../core/counter-value.js'
import type { Counters } from '../core/probe.js'
import type { OpenedRecording } from '../recording/catalog.js'
import type { AnyRecord, GpuCountersRecord } from '../recording/format.js'
import { ProbeTimeline } from './probe-time.js'

/** the tap column of a GPU counter row */
export const GPU_COUNTERS_TAP = 'gpuCounters'

/** The GPU counter columns after `tap`, and how each reads its record. */
const GPU_COLUMNS: readonly [string, (r: GpuCountersRecord) => string][] = [
  ['gpu_counter_source', (r) => r.counterSource],
  ['gpu_start_ns', (r) => String(r.startNs)],
  ['gpu_end_ns', (r) => String(r.endNs)],
  ['gpu_samples', (r) => String(r.samples)],
  ['gpu_lost', (r) => String(r.lost)],
  ['gpu_read_bytes', (r) => String(r.readBytes)],
  ['gpu_write_bytes', (r) => String(r.writeBytes)],
  ['gpu_read_gbps', (r) => String(r.readGBps)],
  ['gpu_requests_per_s', (r) => String(r.requestsPerSecond)],
  ['gpu_mean_request_bytes', (r) => (r.meanRequestBytes === null ? '' : String(r.meanRequestBytes))],
]

/** the names of the GPU counter columns, in order */
export const GPU_CSV_COLUMNS: readonly string[] = GPU_COLUMNS.map(([name]) => name)

/**
 * `time_s` (the probe's TIMESTAMP / clockHz, ns resolution, carried on across a device's restart
 * so that it never goes backwards), the counters by their spec names, `tap` (so the counters keep
 * their columns), `epoch` (the device's life: +1 at each reconnect), then the GPU counter columns.
 */
export const csvHeader = (): string[] => ['time_s', ...COUNTERS.map((c) => c.name), 'tap', 'epoch', ...GPU_COLUMNS.map(([name]) => name)]

const noGpu = GPU_COLUMNS.map(() => '')
/** A counter with no value yet (a latency minimum before its first completion) is an empty field. */
const csvRow = (c: Counters, seconds: number, tap: string, epoch: number): string =>
  [seconds.toFixed(9), ...COUNTERS.map((k) => String(counterValue(c, k) ?? '')), tap, epoch, ...noGpu].join(',') + '\n'
const noProbe = ['', ...COUNTERS.map(() => '')]
const gpuRow = (r: GpuCountersRecord & { epoch?: number }): string =>
  [...noProbe, GPU_COUNTERS_TAP, r.epoch ?? 0, ...GPU_COLUMNS.map(([, v]) => v(r))].join(',') + '\n'

export async function* exportCsv(recording: OpenedRecording, records: AsyncIterable<AnyRecord>): AsyncGenerator<string> {
  // one axis across a device's restarts (export/probe-time.ts, the Perfetto export's too); a
  // host-side snapshot is on the clock of the SNAPSHOT it was taken with
  const timeline = new ProbeTimeline(recording.manifest.probe.clockHz)
  yield csvHeader().join(',') + '\n'
  for await (const r of records) {
    const epoch = r.epoch ?? 0
    if (r.t === 'snapshot') yield csvRow(r.snapshot.counters, timeline.observe(r.snapshot, epoch) / 1e6, TAPS[0].key, epoch)
    else if (r.t === 'tap-snapshot')
      yield csvRow(r.tapSnapshot.counters, timeline.us(r.tapSnapshot.counters.timestamp) / 1e6, r.tapSnapshot.tap, epoch)
    else if (r.t === 'gpu-counters') yield gpuRow(r)
  }
}
