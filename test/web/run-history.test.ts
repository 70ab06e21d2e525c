import { describe, expect, it } from 'vitest'
import type { RunReport } from '../../host/src/core/wire.js'
import { runHistoryEntry, shownRuns, workloadLabel } from '../../web/run-history.js'

const report = (o: { gpuGbps?: number; enabled?: boolean }): RunReport =>
  ({
    id: 3,
    origin: 'manual',
    result: {
      workload: { pattern: 'bfs-aligned', graph: 'urand:10' },
      issued: { count: 500, bytes: 64_000 },
      simCycles: 250_000, // 1 ms at 250 MHz
      ...(o.gpuGbps !== undefined ? { gpu: { kernelGbps: o.gpuGbps } } : {}),
    },
    probe: { cpldBytes: 1_000_000 },
    countersEnabled: o.enabled ?? true,
    finishedAt: 42,
  }) as unknown as RunReport

describe('runHistoryEntry', () => {
  it('takes the probe’s payload over the simulated time on the twin, the kernel’s rate on a GPU', () => {
    expect(runHistoryEntry(report({}), 250e6)).toEqual({
      id: 3,
      origin: 'manual',
      label: 'bfs-aligned urand:10',
      gbps: 1,
      requests: 500,
      at: 42,
      counted: true,
    })
    expect(runHistoryEntry(report({ gpuGbps: 50 }), 250e6).gbps).toBe(50)
  })

  it('gives no rate for a run the stopped counters missed, or without a probe clock', () => {
    expect(runHistoryEntry(report({ enabled: false }), 250e6)).toMatchObject({ gbps: null, counted: false })
    expect(runHistoryEntry(report({}), undefined).gbps).toBeNull()
  })

  it('lists the manual runs newest first, the demo ones on request', () => {
    const a = { ...runHistoryEntry(report({}), 250e6), id: 1, origin: 'demo' as const }
    const b = { ...a, id: 2, origin: 'manual' as const }
    expect(shownRuns([a, b], false).map((e) => e.id)).toEqual([2])
    expect(shownRuns([a, b], true).map((e) => e.id)).toEqual([2, 1])
    expect(workloadLabel({ pattern: 'merged-misaligned', bytes: 4096, offset: 32 })).toBe('merged-misaligned +32')
  })
})
