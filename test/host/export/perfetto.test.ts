import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openRecording } from '../../../host/src/recording/catalog.js'
import { exportRecording } from '../../../host/src/export/formats.js'
import { COUNTER_TRACKS, type TraceEvent } from '../../../host/src/export/perfetto.js'
import { SIZE_CLASSES } from '../../../host/src/core/size-classes.js'
import { CLOCK_HZ, killWriter, newWriter, removeRoots, snap, tempRoot, writeRun } from '../recording/fixtures.js'

afterEach(removeRoots)

const trace = async (dir: string): Promise<{ traceEvents: TraceEvent[]; otherData: Record<string, unknown> }> => {
  let s = ''
  for await (const c of exportRecording(await openRecording(dir), 'perfetto')) s += c
  return JSON.parse(s) as { traceEvents: TraceEvent[]; otherData: Record<string, unknown> }
}

const us = (cycles: number) => (cycles / CLOCK_HZ) * 1e6
const track = (events: TraceEvent[], name: string) => events.filter((e) => e.ph === 'C' && e.name === name)
const strictlyIncreasing = (xs: number[]) => xs.every((x, i) => i === 0 || x > xs[i - 1]!)

describe('Perfetto export', () => {
  it('is trace-event JSON with the three counter tracks and a slice for the run, timestamps in µs of probe time', async () => {
    const dir = join(tempRoot(), 'perfetto')
    const w = newWriter(dir)
    const snaps = writeRun(w)
    w.close()
    const t = await trace(dir)
    expect(t.otherData).toMatchObject({ recording: 'perfetto', clockHz: CLOCK_HZ })
    const ev = t.traceEvents
    for (const name of Object.values(COUNTER_TRACKS)) {
      const samples = track(ev, name)
      expect(samples, name).toHaveLength(8) // 7 intervals, then the zero that ends the stretch
      expect(strictlyIncreasing(samples.map((e) => e.ts)), name).toBe(true)
      expect(samples[0]!.ts).toBeCloseTo(us(10_000), 9) // the baseline's TIMESTAMP
      expect(samples.at(-1)!.ts).toBeCloseTo(us(17_000), 9)
    }
    // each interval's rate over its enabled cycles, so rate × time adds up to the reads counted
    const mrd = track(ev, COUNTER_TRACKS.mrd)
    const reads = mrd.slice(0, -1).reduce((sum, e) => sum + (e.args!['MRd/s'] as number) * (1000 / CLOCK_HZ), 0)
    expect(reads).toBeCloseTo(512, 6)
    expect(mrd.at(-1)!.args).toEqual({ 'MRd/s': 0 })
    const payload = track(ev, COUNTER_TRACKS.payload)[0]!.args!['GB/s'] as number
    const n1 = snaps[1]!.counters.cpldBytes
    expect(payload).toBeCloseTo(n1 / (1000 / CLOCK_HZ) / 1e9, 9)
    const bySize = track(ev, COUNTER_TRACKS.bySize)[0]!.args!
    expect(Object.keys(bySize)).toEqual(SIZE_CLASSES.map((c) => c.label))
    expect(bySize['128 B']).toBe(mrd[0]!.args!['MRd/s'])
    expect(bySize['32 B']).toBe(0)

    const slices = ev.filter((e) => e.ph === 'X')
    expect(slices).toHaveLength(1)
    expect(slices[0]).toMatchObject({
      name: 'merged-aligned 65536 B',
      cat: 'run',
      args: { id: 1, origin: 'capture', pattern: 'merged-aligned' },
    })
    expect(slices[0]!.ts).toBeCloseTo(us(10_000), 9)
    expect(slices[0]!.dur).toBeCloseTo(us(7_000), 9)
    expect(ev.filter((e) => e.ph === 'i').map((e) => e.name)).toEqual(['device: connect'])
    expect(ev.filter((e) => e.ph === 'M').map((e) => e.name)).toEqual(['process_name', 'thread_name', 'thread_name'])
  })

  it('breaks the counters at a clear, keeps time in order across a probe reset, and closes a run a killed writer left open', async () => {
    const dir = join(tempRoot(), 'reset')
    const w = newWriter(dir)
    writeRun(w) // TIMESTAMP up to 17 000
    w.append({ t: 'mark', at: 1, label: 'clear', note: null })
    // the board reset: TIMESTAMP starts again from 0, and counters from 0
    const after = [snap(20, { timestamp: 500, cycles: 0 }), snap(21, { timestamp: 1500, cycles: 1000, mrd32: 10 })]
    w.append({ t: 'snapshot', at: after[0]!.receivedAt, snapshot: after[0]! })
    w.append({
      t: 'run-start',
      at: after[0]!.receivedAt,
      id: 2,
      origin: 'demo',
      workload: { pattern: 'strided', bytes: 320, offset: 0 },
      baseline: null,
    })
    w.append({ t: 'snapshot', at: after[1]!.receivedAt, snapshot: after[1]! })
    killWriter(dir, w)

    const ev = (await trace(dir)).traceEvents
    for (const name of Object.values(COUNTER_TRACKS)) expect(strictlyIncreasing(track(ev, name).map((e) => e.ts)), name).toBe(true)
    const mrd = track(ev, COUNTER_TRACKS.mrd).map((e) => e.args!['MRd/s'] as number)
    // first stretch: 7 rates and a zero; after the reset: one rate (10 reads in 1000 cycles) and a zero
    expect(mrd.slice(-3)).toEqual([0, 10 / (1000 / CLOCK_HZ), 0])
    expect(mrd).toHaveLength(10)
    const slices = ev.filter((e) => e.ph === 'X')
    expect(slices.map((s) => s.args!['id'])).toEqual([1, 2])
    expect(slices[1]!.args).toMatchObject({ incomplete: true, pattern: 'strided' })
    expect(slices[1]!.ts).toBeGreaterThan(slices[0]!.ts + slices[0]!.dur!)
    expect(slices[1]!.dur).toBeCloseTo(us(1000), 9)
    expect(ev.filter((e) => e.ph === 'i').map((e) => e.name)).toEqual(['device: connect', 'mark: clear'])
  })
})
