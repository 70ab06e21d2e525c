/**
 * Errors with stable codes. Every failure a user can meet carries a `code` that scripts and
 * tests match on; messages are for people and may change.
 */
export type PsErrorCode =
  | 'PS_USAGE'
  | 'PS_SERIAL_OPEN'
  | 'PS_SERIAL_LOCKED'
  | 'PS_SERIAL_DISCONNECTED'
  | 'PS_FRAME_CRC'
  | 'PS_FRAME_COBS'
  | 'PS_FRAME_SHORT'
  | 'PS_FRAME_OVERFLOW'
  | 'PS_FRAME_UNKNOWN_TYPE'
  | 'PS_CMD_TIMEOUT'
  | 'PS_CMD_REJECTED'
  | 'PS_CMD_BAD_REPLY'
  | 'PS_DEVICE_CLOSED'
  | 'PS_TWIN_NOT_BUILT'
  | 'PS_TWIN_START'
  | 'PS_TWIN_EXITED'
  | 'PS_TWIN_PROTOCOL'
  // the twin stopped answering (a PING went unanswered): the supervisor kills and restarts it
  | 'PS_TWIN_HUNG'
  | 'PS_WORKLOAD_INVALID'
  | 'PS_WORKLOAD_UNSUPPORTED'
  | 'PS_WORKLOAD_TIMEOUT'
  | 'PS_REQUEST_INVALID'
  | 'PS_HTTP_LISTEN'
  // control server (host/src/server): HTTP-level refusals and unexpected failures
  | 'PS_HTTP_UNAUTHORIZED'
  | 'PS_HTTP_FORBIDDEN'
  | 'PS_HTTP_NOT_FOUND'
  | 'PS_INTERNAL'
  // workload runs in the server: the queue is full, the client went away, the server is closing
  | 'PS_RUN_QUEUE_FULL'
  | 'PS_RUN_CANCELLED'
  | 'PS_SERVER_CLOSING'
  // a run named in a comparison (GET /api/runs' key, `compare`'s RECORDING#ID) that is not there
  | 'PS_RUN_NOT_FOUND'
  // recordings (host/src/recording): names, the recording directory and its files
  | 'PS_RECORDING_NAME_INVALID'
  | 'PS_RECORDING_NOT_FOUND'
  | 'PS_RECORDING_EXISTS'
  | 'PS_RECORDING_CORRUPT'
  | 'PS_RECORDING_IO'
  // a pcapng export of a recording made without its raw frames (capture --frames)
  | 'PS_RECORDING_NO_FRAMES'
  | 'PS_RECORDING_NO_INTERVALS'
  // POST /api/recording on a server started without a recordings folder
  | 'PS_RECORDING_UNAVAILABLE'
  // native addon (host/src/native) and GPU runs (host/src/workload/gpu-runner.ts)
  | 'PS_NATIVE_NOT_BUILT'
  | 'PS_GPU_UNAVAILABLE'
  | 'PS_GPU_FAILED'
  | 'PS_GPU_CANCELLED'
  | 'PS_GPU_CHECKSUM'
  // the GPU's own PCIe counters (host/src/gpu-counters): no source works here, or it failed while sampling
  | 'PS_GPU_COUNTERS_UNAVAILABLE'
  | 'PS_GPU_COUNTERS_FAILED'
  // lessons (lessons/*.json, host/src/core/lesson.ts): a file that breaks the format, a name no lesson has
  | 'PS_LESSON_INVALID'
  | 'PS_LESSON_NOT_FOUND'
  // the TLP trace (docs/trace.md): TRACE_READ of a trace still recording; a drain that lost frames or stalled
  | 'PS_TRACE_NOT_READY'
  | 'PS_TRACE_INCOMPLETE'
  // a file opened in the page's trace view that is no saved trace (`pcie-scope trace --out` or `--json`)
  | 'PS_TRACE_FILE_INVALID'

export class PsError extends Error {
  readonly code: PsErrorCode
  constructor(code: PsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'PsError'
    this.code = code
  }
}

export const isPsError = (e: unknown, code?: PsErrorCode): e is PsError => e instanceof PsError && (code === undefined || e.code === code)
