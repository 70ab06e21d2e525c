/**
 * The TLP trace end to end on the real twin (needs `npm run build:twin`): TRACE_ARM with a trigger
 * and a pre-trigger split, a workload, TRACE_READ's frames assembled by the client, every read
 * paired with its completions (core/trace.ts) and checked against the tracker's own counters of
 * the same reads.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSession, type DeviceSession } from '../../../host/src/device/session.js'
import { pairReads, type Trace, type TraceArmOptions, type TraceRecord } from '../../../host/src/core/trace.js'
import type { Snapshot } from '../../../host/src/core/probe.js'

const twinBuilt = existsSync(fileURLToPath(new URL('../../../build/twin/pcie-scope-twin', import.meta.url)))
const BYTES = 64 * 1024 // 512 reads of 128 B: 1 024 records, a quarter of the ring
const READS = BYTES / 128

let s: DeviceSession

/** Arm, run the workload (forcing the trigger first when asked), stop what still records, read it back. */
const traced = async (arm: TraceArmOptions, force: boolean): Promise<{ trace: Trace; snap: Snapshot; depth: number }> => {
  await s.client.clear()
  await s.client.start(1000)
  const { depth } = await s.client.traceArm(arm)
  if (force) await s.client.traceForce()
  await s.runner!.run({ pattern: 'merged-aligned', bytes: BYTES, offset: 0 })
  const snap = await s.client.snapshot()
  const st = await s.client.traceStatus()
  if (st.state !== 'stopped') await s.client.traceStop()
  await s.client.stop()
  const trace = await s.client.readTrace(0)
  expect(trace.records).toHaveLength((await s.client.traceStatus()).count)
  return { trace, snap, depth }
}

/** What identifies a TLP across runs: its kind, tag, address or Byte Count. */
const shape = (r: TraceRecord) => `${r.kind}:${r.tag}:${r.address ?? r.byteCount}`

describe('the TLP trace on the twin', () => {
  let full: TraceRecord[] = []

  beforeAll(async () => {
    if (!twinBuilt) throw new Error('the twin is not built: run `npm run build:twin`')
    s = await openSession({ twin: true })
  }, 30_000)
  afterAll(async () => {
    await s?.close()
  })

  it('a forced trace holds the whole run: every MRd paired, and the pairs agree with the tracker', async () => {
    const { trace, snap, depth } = await traced({ pre: 0 }, true)
    expect(depth).toBeGreaterThanOrEqual(4096)
    expect(trace.triggered).toBe(true)
    expect(trace.triggerIndex).toBe(0) // FORCE before any TLP: the first record is the trigger
    expect(trace.lost).toBe(0)
    expect(trace.full).toBe(false)
    const mrds = trace.records.filter((r) => r.kind === 'MRD')
    const cplds = trace.records.filter((r) => r.kind === 'CPLD')
    expect(mrds).toHaveLength(READS)
    expect(trace.records).toHaveLength(READS + cplds.length)
    expect(snap.counters.mrd128).toBe(READS)
    expect(cplds).toHaveLength(snap.counters.cpldCount)

    const { reads, unexpected } = pairReads(trace.records)
    expect(unexpected).toEqual([])
    expect(reads).toHaveLength(READS)
    for (const r of reads) {
      expect(r.end).toBe('done')
      expect(r.bytes).toBe(r.requestedBytes)
      expect(r.completions).toBeGreaterThanOrEqual(1)
      expect(r.firstLatency).toBeGreaterThan(0)
    }
    // the tracker saw the same reads: count, latency sums, extremes and bytes agree exactly
    const first = reads.map((r) => r.firstLatency!)
    const last = reads.map((r) => r.lastLatency!)
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
    expect(snap.counters.latFirstCount).toBe(reads.length)
    expect(snap.counters.latLastCount).toBe(reads.length)
    expect(snap.counters.latFirstSum).toBe(sum(first))
    expect(snap.counters.latLastSum).toBe(sum(last))
    expect(snap.counters.latFirstMin).toBe(Math.min(...first))
    expect(snap.counters.latFirstMax).toBe(Math.max(...first))
    expect(snap.counters.latLastMax).toBe(Math.max(...last))
    expect(snap.counters.cpldBytes).toBe(sum(reads.map((r) => r.bytes)))
    full = trace.records
  }, 20_000)

  it('a latency trigger keeps `pre` records before the first read later than the threshold', async () => {
    expect(full.length).toBeGreaterThan(0)
    // the threshold: the median first latency of the forced run, so about half the reads exceed it
    const { reads } = pairReads(full)
    const sorted = reads.map((r) => r.firstLatency!).sort((a, b) => a - b)
    const threshold = sorted[sorted.length >> 1]!
    // where the trigger must land in the whole run: the first completion of the first read above it
    const firing = reads.filter((r) => r.firstLatency! > threshold).map((r) => r.records[1]!)
    const at = Math.min(...firing)
    const pre = 100
    expect(at).toBeGreaterThan(pre)

    const { trace, snap } = await traced({ pre, trigger: { conditions: ['LATENCY'], latencyClocks: threshold } }, false)
    expect(trace.triggered).toBe(true)
    expect(trace.triggerIndex).toBe(pre)
    // the ring kept pre records before the trigger and everything after it: the whole run's tail
    expect(trace.records).toHaveLength(pre + full.length - at)
    expect(trace.records.map(shape)).toEqual(full.slice(at - pre).map(shape))
    const trig = trace.records[pre]!
    expect(trig.kind).toBe('CPLD')

    // every read whose request is in the trace is paired; the completions of reads requested
    // before it are 'earlier', and nothing is unexpected
    const { reads: got, unexpected, earlier } = pairReads(trace.records)
    const mrdAt = trace.records.map((r, i) => (r.kind === 'MRD' ? i : -1)).filter((i) => i >= 0)
    expect(got.map((r) => r.records[0])).toEqual(mrdAt)
    for (const r of got) expect(r.end).toBe('done')
    const firstMrd = mrdAt[0]!
    const start = at - pre // the trace's first record in the whole run
    const cut = reads.filter((r) => r.records[0]! < start).flatMap((r) => r.records.slice(1).filter((i) => i >= start))
    expect(cut.length).toBeGreaterThan(0)
    expect(earlier).toEqual(cut.map((i) => i - start))
    expect(unexpected).toEqual([])
    // the trigger record is the first completion of the first read above the threshold (its
    // request may lie before the trace); no read completed above it before the trigger
    expect(shape(trig)).toBe(shape(full[at]!))
    for (const r of got) if (r.records[1]! < pre) expect(r.firstLatency!).toBeLessThanOrEqual(threshold)
    expect(firstMrd).toBeLessThan(pre)
    // the paired reads' latencies are the tracker's: each one's first latency matches the forced run's read of that address
    const byAddr = new Map(reads.map((r) => [r.address, r]))
    for (const r of got) {
      expect(r.firstLatency).toBe(byAddr.get(r.address)!.firstLatency)
      expect(r.lastLatency).toBe(byAddr.get(r.address)!.lastLatency)
    }
    expect(snap.counters.latFirstCount).toBe(READS)
  }, 20_000)

  it('an address trigger fires on the request inside the window, with its pre records before it', async () => {
    const target = full.find((r) => r.kind === 'MRD' && r.address !== undefined && full.indexOf(r) > 200)!
    const { trace } = await traced({ pre: 16, trigger: { conditions: ['ADDR'], base: target.address!, limit: target.address! } }, false)
    expect(trace.triggerIndex).toBe(16)
    expect(trace.records[16]).toMatchObject({ kind: 'MRD', address: target.address, tag: target.tag })
  }, 20_000)

  it('reading a trace that still records is PS_TRACE_NOT_READY', async () => {
    await s.client.traceArm({ trigger: { conditions: ['ADDR'], base: 1, limit: 1 } })
    await expect(s.client.readTrace(0)).rejects.toMatchObject({ code: 'PS_TRACE_NOT_READY' })
    await expect(s.client.traceArm({ pre: 1 << 20 })).rejects.toMatchObject({ code: 'PS_CMD_REJECTED' })
    await s.client.traceStop()
    expect((await s.client.traceStatus()).state).toBe('stopped')
  })
})
