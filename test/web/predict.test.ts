import { describe, expect, it } from 'vitest'
import { COUNTERS, type CounterKey } from '../../host/src/core/generated.js'
import { payloadCeiling } from '../../host/src/core/link.js'
import type { RunReport } from '../../host/src/core/wire.js'
import { zeroBySize } from '../../host/src/core/size-classes.js'
import { WARP_TABLE } from './warp-table.js'
import { compareRows, observe, predict, predictedReads, type PredictEnv } from '../../web/predict.js'

const gen3x16 = { name: 'gen3x16', tlpBytesPerSecond: 15.754e9 * 0.98 }
const env: PredictEnv = { link: gen3x16, tagBudget: 256, latencyS: 1e-6 }

describe('predict: the model’s reads, the link’s ceiling, Little’s law at the tags and latency', () => {
  it('merged-aligned 1 MiB: 8192 reads of 128 B, bound by the wire at 1 µs and 256 tags', () => {
    const p = predict({ pattern: 'merged-aligned', bytes: 1 << 20, offset: 0 }, env, WARP_TABLE)!
    expect(p.mrds).toBe(8192)
    expect(p.bySize!['128']).toBe(8192)
    expect(p.exact).toBe(true)
    expect(p.ceilingBps).toBeCloseTo(payloadCeiling(gen3x16, 1 << 20, 8192)!, 0)
    expect(p.littleBps).toBeCloseTo((256 * 128) / 1e-6, 0)
    expect(p.payloadBps).toBe(p.ceilingBps)
    expect(p.limit).toBe('wire')
  })

  it('strided: 32-B reads, tag-bound once the latency is long (Little’s law below the ceiling)', () => {
    const p = predict({ pattern: 'strided', bytes: 1 << 20, offset: 0 }, { ...env, latencyS: 2e-6 }, WARP_TABLE)!
    expect(p.meanRequestBytes).toBe(32)
    expect(p.littleBps).toBeCloseTo((256 * 32) / 2e-6, 0)
    expect(p.payloadBps).toBe(p.littleBps)
    expect(p.limit).toBe('tags')
    expect(p.inflight).toBeCloseTo(256, 6)
  })

  it('the bypassing L1 refetches: strided with 4-B lanes reads every sector 8 times', () => {
    const ideal = predictedReads({ pattern: 'strided', bytes: 1 << 20, offset: 0 }, WARP_TABLE)!
    const bypass = predictedReads({ pattern: 'strided', bytes: 1 << 20, offset: 0, l1: 'bypass' }, WARP_TABLE)!
    expect(bypass.count).toBe(8 * ideal.count)
  })

  it('merged-chunked: 33 reads a default 4096-B chunk at +32; no prediction for another chunk (the table walks the default)', () => {
    expect(predictedReads({ pattern: 'merged-chunked', bytes: 1 << 20, offset: 32 }, WARP_TABLE)!.count).toBe(8448)
    expect(predictedReads({ pattern: 'merged-chunked', bytes: 1 << 20, offset: 32, chunkBytes: 512 }, WARP_TABLE)).toBeUndefined()
  })

  it('a size that is not a whole number of table blocks is marked as not exact; unknown link and tags leave the bounds out', () => {
    expect(predictedReads({ pattern: 'merged-aligned', bytes: 1000, offset: 0 }, WARP_TABLE)!.exact).toBe(false)
    const p = predict({ pattern: 'merged-aligned', bytes: 4096, offset: 0 }, { link: null, tagBudget: null, latencyS: null }, WARP_TABLE)!
    expect([p.ceilingBps, p.littleBps, p.payloadBps, p.inflight, p.limit]).toEqual([null, null, null, null, undefined])
  })

  it('a graph kernel: the example warp’s mix, no counts before the run', () => {
    const p = predict({ pattern: 'bfs-naive', graph: 'kron:10', idBytes: 8 }, env, WARP_TABLE)!
    expect(p.mrds).toBeNull()
    expect(p.meanRequestBytes).toBe(32)
  })
})

const deltas = (over: Partial<Record<CounterKey, number>>) =>
  ({ ...Object.fromEntries(COUNTERS.map((c) => [c.key, 0])), ...over }) as Record<CounterKey, number>

describe('observe and compare', () => {
  it('reads the run’s counter deltas: reads by size, payload rate on probe time, in flight and latency', () => {
    const report = {
      id: 1,
      origin: 'manual',
      result: {
        workload: { pattern: 'strided', bytes: 1 << 20, offset: 0 },
        issued: { count: 32768, bySize: zeroBySize(), bytes: 1 << 20 },
      },
      probe: deltas({
        mrd32: 32768,
        mrdBytes: 1 << 20,
        cpldBytes: 1 << 20,
        cycles: 250_000,
        trackerCycles: 250_000,
        outstandingSum: 250_000 * 200,
        latLastCount: 32768,
        latLastSum: 32768 * 500,
      }),
      countersEnabled: true,
    } as unknown as RunReport
    const o = observe(report, 250e6, 256)
    expect(o.mrds).toBe(32768)
    expect(o.payloadBps).toBeCloseTo((1 << 20) / 1e-3, 0)
    expect(o.inflight).toBe(200)
    expect(o.latencyS).toBeCloseTo(2e-6, 12)
    const rows = compareRows(predict({ pattern: 'strided', bytes: 1 << 20, offset: 0 }, env, WARP_TABLE)!, env, o)
    const byKey = Object.fromEntries(rows.map((r) => [r.key, r]))
    expect(byKey['mrds']!.differs).toBe(false)
    expect(byKey['mrds']!.differencePercent).toBe(0)
    // the observed latency is twice the completer's alone: highlighted
    expect(byKey['latency']!.differs).toBe(true)
    expect(byKey['latency']!.differencePercent).toBeCloseTo(100, 6)
    expect(byKey['size-32']!.observed).toBe('32,768')
    expect(byKey['size-128']).toBeUndefined()
  })
})
