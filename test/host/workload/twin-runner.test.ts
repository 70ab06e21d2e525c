import { describe, expect, it } from 'vitest'
import { TwinWorkloadRunner } from '../../../host/src/workload/twin-runner.js'
import type { TwinDone, TwinRunRequest } from '../../../host/src/transport/twin.js'

describe('TwinWorkloadRunner', () => {
  it('validates, runs and maps the done line', async () => {
    const calls: TwinRunRequest[] = []
    const runner = new TwinWorkloadRunner({
      run: async (req: TwinRunRequest): Promise<TwinDone> => {
        calls.push(req)
        return {
          event: 'done',
          id: 1,
          ...req,
          mrd: { count: 2, bySize: { '32': 1, '64': 0, '96': 1, '128': 0, other: 0 }, bytes: 128 },
          completions: 2,
          payloadErrors: 0,
          simCycles: 10,
          wallSeconds: 0.1,
        }
      },
    })
    expect(runner.kind).toBe('twin')
    const r = await runner.run({ pattern: 'merged-misaligned', bytes: 128, offset: 32 })
    expect(r).toEqual({
      workload: { pattern: 'merged-misaligned', bytes: 128, offset: 32 },
      issued: { count: 2, bySize: { '32': 1, '64': 0, '96': 1, '128': 0, other: 0 }, bytes: 128 },
      completions: 2,
      payloadErrors: 0,
      simCycles: 10,
      wallSeconds: 0.1,
    })
    await expect(runner.run({ pattern: 'strided', bytes: 127, offset: 0 })).rejects.toMatchObject({ code: 'PS_WORKLOAD_INVALID' })
    expect(calls).toHaveLength(1)
  })
})
