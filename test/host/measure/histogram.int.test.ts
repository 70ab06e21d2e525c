/**
 * The latency histograms against the real twin (needs `npm run build:twin`): read by the firmware
 * through the CSR with the final snapshot, sent as one HISTOGRAM frame per kind, the bins hold
 * every read the tracker completed (last) or saw a first completion of (first), and p50 sits at
 * the BAR latency the twin was given; split completions put the first before the last.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openSession, type DeviceSession } from '../../../host/src/device/session.js'
import { measureRun } from '../../../host/src/measure/run.js'
import { binEdgesNs, binOf, histogramTotal, SPEC_HISTOGRAM_LAYOUT } from '../../../host/src/core/latency-histogram.js'
import type { LatencyHistogram } from '../../../host/src/core/probe.js'

const twinBuilt = existsSync(fileURLToPath(new URL('../../../build/twin/pcie-scope-twin', import.meta.url)))
const CLOCK_HZ = 250e6
const EDGES_NS = binEdgesNs(SPEC_HISTOGRAM_LAYOUT, CLOCK_HZ)
/** the width in ns of the bin holding a latency of `ns` (log-spaced: 1/8 of an octave past 64 ns) */
const binNsAt = (ns: number): number => {
  const k = binOf(SPEC_HISTOGRAM_LAYOUT, Math.floor((ns * CLOCK_HZ) / 1e9))
  return EDGES_NS[k + 1]! - EDGES_NS[k]!
}

const sessions: DeviceSession[] = []
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()))
})
const open = async (latencyCycles?: number, cplSplit?: 64) => {
  const s = await openSession({
    twin: true,
    ...(latencyCycles !== undefined ? { latencyCycles } : {}),
    ...(cplSplit !== undefined ? { twinOptions: { cplSplit } } : {}),
  })
  sessions.push(s)
  return s
}

describe('latency histogram on the twin', () => {
  beforeAll(() => {
    if (!twinBuilt) throw new Error('the twin is not built: run `npm run build:twin`')
  })

  const measure = async (cycles: number, pattern: 'strided' | 'merged-aligned', cplSplit?: 64) => {
    const s = await open(cycles, cplSplit)
    const histograms: LatencyHistogram[] = []
    s.client.on('histogram', (h) => histograms.push(h))
    const r = await measureRun(s, { pattern, bytes: 1 << 20, offset: 0 })
    const h = r.latencyHistograms.last!
    const first = r.latencyHistograms.first!
    expect(r.clockHz).toBe(CLOCK_HZ)
    expect(h.edgesNs).toEqual(EDGES_NS)
    expect(first.edgesNs).toEqual(EDGES_NS)
    expect(histogramTotal(h.bins)).toBe(r.latencyNs.last.count)
    expect(histogramTotal(first.bins)).toBe(r.latencyNs.first.count)
    expect(r.latencyNs.last.count).toBe(r.requests.count)
    expect(r.latencyNs.first.count).toBe(r.requests.count)
    expect(h.overflow).toBe(false)
    expect(r.latencyNs.first.p50!).toBeLessThanOrEqual(r.latencyNs.last.p50!)
    const { p50, p99, min, max, mean } = r.latencyNs.last
    // the twin answers after BAR_LATENCY plus the link's serialisation: never earlier
    expect(min!).toBeGreaterThanOrEqual((cycles * 1e9) / r.clockHz)
    expect(Math.abs(p50! - mean!)).toBeLessThan(2 * binNsAt(mean!))
    expect(p99!).toBeGreaterThanOrEqual(p50!)
    expect(p99!).toBeLessThanOrEqual(max! + binNsAt(max!))
    // the pair read with the final snapshot, then the pair STOP sends after it (same counts)
    expect(histograms.map((x) => `${x.reason}/${x.kind}`)).toEqual(['on-demand/last', 'on-demand/first', 'final/last', 'final/first'])
    expect(histograms[2]!.bins).toEqual(h.bins)
    expect(histograms[3]!.bins).toEqual(first.bins)
    return r
  }

  it.each([250, 750])('strided (tag-bound, the wire not full), BAR latency %i clocks: p50 within a bin of it', async (cycles) => {
    const r = await measure(cycles, 'strided')
    const configuredNs = (cycles * 1e9) / r.clockHz
    // a percentile is good to one bin, 1/8 of an octave: reads of 250 clocks (plus the link's
    // few) fill bin [240, 256), 16 clocks = 64 ns wide
    expect(Math.abs(r.latencyNs.last.p50! - configuredNs)).toBeLessThanOrEqual(binNsAt(configuredNs))
  })

  it('merged-aligned (wire-bound): completions queue on the link, so p50 lies above the BAR latency', async () => {
    const r = await measure(250, 'merged-aligned')
    expect(r.latencyNs.last.p50!).toBeGreaterThan(1000 + binNsAt(1000))
  })

  it('strided, one CplD a read: the first completion is the last, so both histograms are the same', async () => {
    const r = await measure(250, 'strided')
    expect(r.latencyHistograms.first!.bins).toEqual(r.latencyHistograms.last!.bins)
  })

  it('merged-aligned 128-B reads split at 64 B: the first CplD comes earlier than the last', async () => {
    const r = await measure(250, 'merged-aligned', 64)
    expect(r.latencyNs.first.mean!).toBeLessThan(r.latencyNs.last.mean!)
    expect(r.latencyHistograms.first!.bins).not.toEqual(r.latencyHistograms.last!.bins)
  })
})
