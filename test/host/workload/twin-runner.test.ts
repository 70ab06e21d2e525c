import { describe, expect, it } from 'vitest'
import { TwinWorkloadRunner } from '../../../host/src/workload/twin-runner.js'
import type { TwinDone, TwinGraphRunRequest, TwinRunRequest } from '../../../host/src/transport/twin.js'
import type { TwinGraphDone } from '../../../host/src/transport/twin-lines.js'
import { zeroBySize } from '../../../host/src/core/size-classes.js'

const MRD = { count: 2, bySize: { ...zeroBySize(), '32': 1, '96': 1 }, bytes: 128 }
const noGraph = async (): Promise<TwinGraphDone> => {
  throw new Error('not a graph run')
}

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
          mrd: { count: 2, bySize: { ...zeroBySize(), '32': 1, '96': 1 }, bytes: 128 },
          completions: 2,
          payloadErrors: 0,
          simCycles: 10,
          wallSeconds: 0.1,
        }
      },
      runGraph: noGraph,
    })
    expect(runner.kind).toBe('twin')
    const r = await runner.run({ pattern: 'merged-misaligned', bytes: 128, offset: 32 })
    expect(r).toEqual({
      workload: { pattern: 'merged-misaligned', bytes: 128, offset: 32 },
      issued: { count: 2, bySize: { ...zeroBySize(), '32': 1, '96': 1 }, bytes: 128 },
      completions: 2,
      payloadErrors: 0,
      simCycles: 10,
      wallSeconds: 0.1,
    })
    await expect(runner.run({ pattern: 'strided', bytes: 127, offset: 0 })).rejects.toMatchObject({ code: 'PS_WORKLOAD_INVALID' })
    expect(calls).toHaveLength(1)
  })

  it('runs a graph kernel with runGraph and reports the graph as the twin loaded it', async () => {
    const calls: TwinGraphRunRequest[] = []
    const runner = new TwinWorkloadRunner({
      run: async () => {
        throw new Error('not a micro run')
      },
      runGraph: async (req: TwinGraphRunRequest): Promise<TwinGraphDone> => {
        calls.push(req)
        return {
          event: 'done',
          id: 3,
          pattern: req.kernel,
          graph: req.graph,
          vertices: 256,
          edges: 7000,
          idBytes: 4,
          source: 17,
          launches: 4,
          mrd: MRD,
          completions: 2,
          payloadErrors: 0,
          simCycles: 99,
          wallSeconds: 0.2,
        }
      },
    })
    const r = await runner.run({ pattern: 'bfs-aligned', graph: 'kron:8', idBytes: 4 })
    expect(calls).toEqual([{ kernel: 'bfs-aligned', graph: 'kron:8', idBytes: 4 }])
    expect(r).toMatchObject({
      workload: { pattern: 'bfs-aligned', graph: 'kron:8', idBytes: 4 },
      issued: MRD,
      simCycles: 99,
      graph: { graph: 'kron:8', vertices: 256, edges: 7000, idBytes: 4, sourceVertex: 17, launches: 4 },
    })
    await runner.run({ pattern: 'bfs-naive', graph: 'urand:6', sourceVertex: 5, l1: 'bypass' })
    expect(calls[1]).toEqual({ kernel: 'bfs-naive', graph: 'urand:6', source: 5, l1: 'bypass' })
    await expect(runner.run({ pattern: 'bfs-naive', graph: 'kron:x' })).rejects.toMatchObject({ code: 'PS_WORKLOAD_INVALID' })
    expect(calls).toHaveLength(2)
  })
})
