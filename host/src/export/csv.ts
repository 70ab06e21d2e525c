/**
 * CSV export: one row per snapshot, the probe time in seconds then every probe counter, then the
 * tap the row is of: `gpuSide` for a SNAPSHOT (tap 0, every design's), `hostSide` for the switch
 * design's TAP_SNAPSHOT, which follows the SNAPSHOT it was taken with. The columns come from the
 * generated COUNTERS list (spec/registers.json), so a counter added to the spec appears here
 * without an edit. After `tap`, the GPU's own PCIe counters (`serve --gpu-counters`): a row of
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

/** `time_s` (TIMESTAMP / clockHz, ns resolution), the counters by their spec names, `tap` (so the counters keep their columns), then the GPU counter columns. */
export const csvHeader = (): string[] => ['time_s', ...COUNTERS.map((c) => c.name), 'tap', ...GPU_COLUMNS.map(([name]) => name)]

const noGpu = GPU_COLUMNS.map(() => '')
/** A counter with no value yet (a latency minimum before its first completion) is an empty field. */
const csvRow = (c: Counters, clockHz: number, tap: string): string =>
  [(c.timestamp / clockHz).toFixed(9), ...COUNTERS.map((k) => String(counterValue(c, k) ?? '')), tap, ...noGpu].join(',') + '\n'
const noProbe = ['', ...COUNTERS.map(() => '')]
const gpuRow = (r: GpuCountersRecord): string => [...noProbe, GPU_COUNTERS_TAP, ...GPU_COLUMNS.map(([, v]) => v(r))].join(',') + '\n'

export async function* exportCsv(recording: OpenedRecording, records: AsyncIterable<AnyRecord>): AsyncGenerator<string> {
  const clockHz = recording.manifest.probe.clockHz
  yield csvHeader().join(',') + '\n'
  for await (const r of records) {
    if (r.t === 'snapshot') yield csvRow(r.snapshot.counters, clockHz, TAPS[0].key)
    else if (r.t === 'tap-snapshot') yield csvRow(r.tapSnapshot.counters, clockHz, r.tapSnapshot.tap)
    else if (r.t === 'gpu-counters') yield gpuRow(r)
  }
}
