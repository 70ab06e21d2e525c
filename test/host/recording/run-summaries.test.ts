import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { pickRuns, recordingRuns, splitRunArg } from '../../../host/src/recording/run-summaries.js'
import { summarizeRun } from '../../../host/src/core/run-summary.js'
import { isPsError } from '../../../host/src/core/errors.js'
import { CLOCK_HZ, newWriter, removeRoots, snap, tempRoot, WORKLOAD, writeRun } from './fixtures.js'

afterEach(removeRoots)

describe('recordingRuns', () => {
  it('summarises a run recorded without a summary from capture’s final snapshot and its histograms', async () => {
    const dir = join(tempRoot(), 'old-capture')
    const w = newWriter(dir)
    writeRun(w, { hostSide: true })
    w.close()
    const runs = await recordingRuns(dir)
    expect(runs).toHaveLength(1)
    const r = runs[0]!
    expect(r).toMatchObject({
      key: 'old-capture#1',
      recording: 'old-capture',
      id: 1,
      origin: 'capture',
      source: 'twin',
      workload: WORKLOAD,
    })
    expect(r.summary.requests.count).toBe(512)
    expect(r.summary.seconds).toBeCloseTo(7000 / CLOCK_HZ)
    // every read took 252 clocks = 1008 ns; the histogram read with the final snapshot gives the
    // percentiles: mid-bin (240..255 clocks, 960..1020 ns) as these counters hold no latency min / max to narrow it
    expect(r.summary.latencyNs.mean).toBeCloseTo(1008)
    expect(r.summary.latencyNs.p50).toBeCloseTo(990)
    expect(r.summary.model).toBeNull()
  })

  it('takes a recorded summary as it is, summarises a server report from its deltas, and leaves out failed runs', async () => {
    const dir = join(tempRoot(), 'serve-x')
    const w = newWriter(dir)
    const deltas = snap(0, {
      cycles: 2500,
      trackerCycles: 2500,
      mrd32: 100,
      mrdBytes: 3200,
      cpldCount: 100,
      cpldBytes: 3200,
      latLastCount: 100,
      latLastSum: 25_000,
      outstandingSum: 25_000,
    }).counters
    const kept = { ...summarizeRun({ counters: deltas, clockHz: CLOCK_HZ, tagBudget: 256, link: null }), gbPerSecond: 42 }
    const base = { t: 'run' as const, origin: 'manual' as const, workload: WORKLOAD, probeWindow: null }
    w.append({ ...base, at: 1, id: 1, error: null, result: { summary: kept } })
    w.append({ ...base, at: 2, id: 2, error: null, result: { probe: deltas, result: { issued: { count: 100, bytes: 3200 } } } })
    w.append({ ...base, at: 3, id: 3, error: { code: 'PS_WORKLOAD_TIMEOUT', message: 'late' }, result: null })
    w.append({ ...base, at: 4, id: 4, error: null, result: { probe: deltas, result: { gpu: {}, issued: { count: 1, bytes: 32 } } } })
    w.close()
    const runs = await recordingRuns(dir)
    expect(runs.map((r) => [r.key, r.source])).toEqual([
      ['serve-x#1', 'twin'],
      ['serve-x#2', 'twin'],
      ['serve-x#4', 'gpu'],
    ])
    expect(runs[0]!.summary.gbPerSecond).toBe(42)
    expect(runs[1]!.summary).toMatchObject({
      requests: { count: 100 },
      model: { matchesProbe: true },
      latencyNs: { mean: 1000, p50: null },
    })
    expect(runs[2]!.summary.model?.matchesProbe).toBe(false)
  })
})

describe('naming runs', () => {
  it('splits RECORDING#ID', () => {
    expect(splitRunArg('wide')).toEqual({ recording: 'wide', id: undefined })
    expect(splitRunArg('./a/b#12')).toEqual({ recording: './a/b', id: 12 })
    expect(() => splitRunArg('wide#x')).toThrow(expect.objectContaining({ code: 'PS_USAGE' }))
  })

  it('picks every run, or the one named; none is PS_RECORDING_NOT_FOUND', async () => {
    const dir = join(tempRoot(), 'one')
    const w = newWriter(dir)
    writeRun(w)
    w.close()
    const runs = await recordingRuns(dir)
    expect(pickRuns(runs, 'one', undefined)).toHaveLength(1)
    expect(pickRuns(runs, 'one', 1)[0]!.id).toBe(1)
    try {
      pickRuns(runs, 'one', 2)
      expect.unreachable()
    } catch (e) {
      expect(isPsError(e, 'PS_RECORDING_NOT_FOUND')).toBe(true)
    }
  })
})
