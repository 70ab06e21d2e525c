/**
 * CSV export: one row per snapshot, the probe time in seconds then every probe counter. The
 * columns come from the generated COUNTERS list (spec/registers.json), so a counter added to the
 * spec appears here without an edit. Every field is a number: nothing needs quoting.
 */
import { COUNTERS } from '../core/generated.js'
import type { OpenedCapture } from './catalog.js'
import type { CaptureRecord } from './format.js'

/** `time_s` (TIMESTAMP / clockHz, ns resolution) then the counters by their spec names. */
export const csvHeader = (): string[] => ['time_s', ...COUNTERS.map((c) => c.name)]

export async function* exportCsv(capture: OpenedCapture, records: AsyncIterable<CaptureRecord>): AsyncGenerator<string> {
  const clockHz = capture.manifest.probe.clockHz
  yield csvHeader().join(',') + '\n'
  for await (const r of records) {
    if (r.t !== 'snapshot') continue
    const c = r.snapshot.counters
    yield [(c.timestamp / clockHz).toFixed(9), ...COUNTERS.map((k) => String(c[k.key]))].join(',') + '\n'
  }
}
