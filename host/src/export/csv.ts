/**
 * CSV export: one row per snapshot, the probe time in seconds then every probe counter, then the
 * tap the row is of: `gpuSide` for a SNAPSHOT (tap 0, every design's), `hostSide` for the switch
 * design's TAP_SNAPSHOT, which follows the SNAPSHOT it was taken with. The columns come from the
 * generated COUNTERS list (spec/registers.json), so a counter added to the spec appears here
 * without an edit. Every field is a number, empty (a counter with no value yet) or a tap key:
 * nothing needs quoting.
 */
import { COUNTERS, TAPS } from '../core/generated.js'
import { counterValue } from '../core/counter-value.js'
import type { Counters } from '../core/probe.js'
import type { OpenedRecording } from '../recording/catalog.js'
import type { AnyRecord } from '../recording/format.js'

/** `time_s` (TIMESTAMP / clockHz, ns resolution), the counters by their spec names, and `tap` last (so the counters keep their columns). */
export const csvHeader = (): string[] => ['time_s', ...COUNTERS.map((c) => c.name), 'tap']

/** A counter with no value yet (a latency minimum before its first completion) is an empty field. */
const csvRow = (c: Counters, clockHz: number, tap: string): string =>
  [(c.timestamp / clockHz).toFixed(9), ...COUNTERS.map((k) => String(counterValue(c, k) ?? '')), tap].join(',') + '\n'

export async function* exportCsv(recording: OpenedRecording, records: AsyncIterable<AnyRecord>): AsyncGenerator<string> {
  const clockHz = recording.manifest.probe.clockHz
  yield csvHeader().join(',') + '\n'
  for await (const r of records) {
    if (r.t === 'snapshot') yield csvRow(r.snapshot.counters, clockHz, TAPS[0].key)
    else if (r.t === 'tap-snapshot') yield csvRow(r.tapSnapshot.counters, clockHz, r.tapSnapshot.tap)
  }
}
