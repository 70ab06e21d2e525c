// host/src/device/trace-tap.ts: a tap the design lacks is refused by name before anything is armed.
import { describe, expect, it } from 'vitest'
import { PsError } from '../../../host/src/core/errors.js'
import type { TraceStatus } from '../../../host/src/core/trace.js'
import { requireTraceTap } from '../../../host/src/device/trace-tap.js'

/** TRACE_STATUS as the firmware answers it: BAD_ARGUMENT (PS_CMD_REJECTED) for a tap at or above `taps` */
const device = (taps: number, other?: PsError) => {
  const asked: number[] = []
  return {
    asked,
    traceStatus: async (tap = 0): Promise<TraceStatus> => {
      asked.push(tap)
      if (other) throw other
      if (tap >= taps) throw new PsError('PS_CMD_REJECTED', 'TRACE_STATUS rejected by the device: BAD_ARGUMENT')
      return { tap, state: 'idle' } as TraceStatus
    },
  }
}

describe('requireTraceTap', () => {
  it('passes a tap the design has, asking only for it', async () => {
    const d = device(2)
    await requireTraceTap(d, 1)
    await requireTraceTap(d, 0)
    expect(d.asked).toEqual([1, 0])
  })

  it('refuses a tap the design lacks, naming the taps it has', async () => {
    await expect(requireTraceTap(device(1), 1)).rejects.toMatchObject({
      code: 'PS_USAGE',
      message: 'tap 1: this design has one tap: 0 (gpuSide)',
    })
    await expect(requireTraceTap(device(2), 3, 'PS_REQUEST_INVALID')).rejects.toMatchObject({
      code: 'PS_REQUEST_INVALID',
      message: 'tap 3: this design has 2 taps: 0 (gpuSide), 1 (hostSide)',
    })
  })

  it('passes on any other failure as it is', async () => {
    const gone = new PsError('PS_TWIN_EXITED', 'the twin exited')
    await expect(requireTraceTap(device(2, gone), 1)).rejects.toBe(gone)
  })
})
