/**
 * Whether the design has the trace tap asked for. INFO does not carry the tap count; the firmware
 * checks every trace command's tap against the design's (TAP_INFO) and answers BAD_ARGUMENT for
 * one it lacks. So TRACE_STATUS, which changes nothing, is how the host asks before arming.
 */
import { isPsError, PsError, type PsErrorCode } from '../core/errors.js'
import { TAPS } from '../core/generated.js'
import type { TraceStatus } from '../core/trace.js'

type StatusClient = { traceStatus(tap?: number): Promise<TraceStatus> }

const hasTap = async (client: StatusClient, tap: number): Promise<boolean> => {
  try {
    await client.traceStatus(tap)
    return true
  } catch (e) {
    if (isPsError(e, 'PS_CMD_REJECTED')) return false
    throw e
  }
}

/** Throws `code` (PS_USAGE on the command line, PS_REQUEST_INVALID over REST) naming the taps there are when `tap` is not one. */
export async function requireTraceTap(client: StatusClient, tap: number, code: PsErrorCode = 'PS_USAGE'): Promise<void> {
  if (await hasTap(client, tap)) return
  let count = 1 // tap 0 is every design's
  while (count < tap && (await hasTap(client, count))) count++
  const list = TAPS.slice(0, count)
    .map((t, i) => `${i} (${t.key})`)
    .join(', ')
  throw new PsError(code, `tap ${tap}: this design has ${count === 1 ? 'one tap' : `${count} taps`}: ${list}`)
}
