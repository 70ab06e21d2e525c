/**
 * Which exports a recording can give (DOM-free): pcapng needs its raw frames, VCD its interval
 * records (the probe's sampler, or the GPU's counters); the listing says what each recording
 * holds (`contents`), so the page disables the others and says why instead of offering a
 * download that the server refuses (PS_RECORDING_NO_FRAMES, PS_RECORDING_NO_INTERVALS).
 */
import type { RecordingSummary } from '../host/src/core/wire.js'

/** Why `format` cannot be made from a recording holding `contents`, or null when it can (or nobody counted). */
export function exportBlocked(format: string, contents: RecordingSummary['contents']): string | null {
  if (!contents) return null
  if (format === 'pcapng' && !((contents['frame'] ?? 0) > 0))
    return 'this recording holds no raw frames: record with `serve --record-frames` or `capture --frames`'
  if (format === 'vcd' && !((contents['interval'] ?? 0) + (contents['gpu-counters'] ?? 0) > 0))
    return 'this recording holds no interval records: record with `serve --sample-us N` or `capture --sample-us N` (or `serve --gpu-counters`)'
  return null
}
