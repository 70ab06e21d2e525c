// Tests of host/src/workload/twin-runner.ts (kept here: test/host/workload/ was outside this change's scope).
import { describe, expect, it } from 'vitest'
import { MAX_WORKLOAD_BYTES, TwinWorkloadRunner, validateWorkload } from '../../../host/src/workload/twin-runner.js'
import type { TwinDone, TwinRunRequest } from '../../../host/src/transport/twin.js'

const invalid = (w: unknown, re: RegExp) => {
  try {
    validateWorkload(w)
  } catch (e) {
    expect(e).toMatchObject({ code: 'PS_WORKLOAD_INVALID' })
    expect((e as Error).message).toMatch(re)
    return
  }
  throw new Error(`accepted ${JSON.stringify(w)}`)
}

describe('validateWorkload', () => {
  it('accepts the documented range', () => {
    expect(validateWorkload({ pattern: 'strided', bytes: 128 })).toEqual({ pattern: 'strided', bytes: 128, offset: 0 })
    expect(validateWorkload({ pattern: 'merged-misaligned', bytes: MAX_WORKLOAD_BYTES, offset: 124 })).toMatchObject({ offset: 124 })
  })
  it('rejects bad patterns, sizes and offsets with clear messages', () => {
    invalid({ pattern: 'random', bytes: 128, offset: 0 }, /pattern must be one of strided, merged-aligned, merged-misaligned/)
    invalid({ pattern: 'strided', bytes: 0, offset: 0 }, /positive/)
    invalid({ pattern: 'strided', bytes: 100, offset: 0 }, /multiple of 128/)
    invalid({ pattern: 'strided', bytes: 1.5, offset: 0 }, /integer/)
    invalid({ pattern: 'strided', bytes: MAX_WORKLOAD_BYTES + 128, offset: 0 }, /at most/)
    invalid({ pattern: 'strided', bytes: 128, offset: 2 }, /multiple of 4/)
    invalid({ pattern: 'strided', bytes: 128, offset: 128 }, /at most 127/)
    invalid({ pattern: 'strided', bytes: 128, offset: -4 }, /at least 0/)
    invalid({ pattern: 'strided', bytes: '128', offset: 0 }, /bytes/)
  })
})

describe('TwinWorkloadRunner', () => {
  it('validates, runs and maps the done line', async () => {
    const calls: TwinRunRequest[] = []
    const runner = new TwinWorkloadRunner({
      run: async (req: TwinRunRequest): Promise<TwinDone> => {
        calls.push(req)
        return {
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
