// The derivations on exact numbers (Nsight Compute's per-kernel counts of the H200) and on
// recorded PM sampling data (fixtures), and the windows of the live lines.
import { describe, expect, it } from 'vitest'
import {
  CPL_HEADER_BYTES,
  defaultSelfWrite,
  derive,
  IDLE_ROUND_TRIP_NS,
  MRD_HEADER_BYTES,
  PM_SAMPLING_SELF_WRITE_BYTES,
  sumWindow,
  WindowAccumulator,
} from '../../../host/src/gpu-counters/derive.js'
import type { GpuCounterSample } from '../../../host/src/gpu-counters/samples.js'
import { fixture } from './fixtures.js'

// ncu, one launch of merged-aligned (4-B lanes, 64 MiB) on the H200 (bench/RESULTS.md)
const NCU_ALIGNED = { startNs: 0, endNs: 1_313_568, samples: 0, readBytes: 73_401_856, writeBytes: 8_392_192 }
// the same for strided (4-B lanes): 32-B reads
const NCU_STRIDED = { startNs: 0, endNs: 4_416_736, samples: 0, readBytes: 136_456_192, writeBytes: 49_612_800 }

describe('derive', () => {
  it('128-B reads: requests from the 16-B headers, 128 B each, 12 B of 140 completion overhead', () => {
    const d = derive(NCU_ALIGNED)
    expect(d.requests).toBe(8_392_192 / MRD_HEADER_BYTES)
    expect(d.meanRequestBytes).toBeCloseTo(127.94, 2)
    expect(d.completionOverhead).toBeCloseTo(CPL_HEADER_BYTES / 140, 3)
    expect(d.payloadBytes).toBeCloseTo(64 * 2 ** 20, -4)
    expect(d.readGBps).toBeCloseTo(73_401_856 / 1_313_568, 6)
    expect(d.inFlight).toBeCloseTo((d.requestsPerSecond * IDLE_ROUND_TRIP_NS) / 1e9, 6)
  })
  it('strided 4-B lanes: 32-B requests', () => {
    expect(derive(NCU_STRIDED).meanRequestBytes).toBeCloseTo(32, 0)
  })
  it("the sampler's own writes come off the request estimate, per sample", () => {
    const w = { ...NCU_ALIGNED, samples: 1000, writeBytes: NCU_ALIGNED.writeBytes + 1000 * PM_SAMPLING_SELF_WRITE_BYTES }
    expect(derive(w).requests).toBe(derive(NCU_ALIGNED).requests)
    expect(derive(w, { selfWriteBytesPerSample: 0 }).requests).toBeGreaterThan(derive(NCU_ALIGNED).requests)
    expect(defaultSelfWrite('pm-sampling')).toBe(PM_SAMPLING_SELF_WRITE_BYTES)
    expect(defaultSelfWrite('nvml')).toBe(0)
  })
  it('GPU writes inflate the request count and shrink the mean size (an upper / lower bound)', () => {
    const withWrites = derive({ ...NCU_ALIGNED, writeBytes: NCU_ALIGNED.writeBytes + 16 * 2 ** 20 })
    expect(withWrites.requests).toBeGreaterThan(derive(NCU_ALIGNED).requests)
    expect(withWrites.meanRequestBytes!).toBeLessThan(derive(NCU_ALIGNED).meanRequestBytes!)
  })
  it('nothing measured: no mean, no overhead, zero rates; a longer round trip means more in flight', () => {
    const d = derive({ startNs: 0, endNs: 0, samples: 0, readBytes: 0, writeBytes: 0 })
    expect(d).toMatchObject({ seconds: 0, readGBps: 0, requests: 0, meanRequestBytes: null, completionOverhead: null, inFlight: 0 })
    expect(derive(NCU_ALIGNED, { roundTripNs: 2500 }).inFlight).toBeCloseTo(2 * derive(NCU_ALIGNED).inFlight, 6)
  })
})

describe('on recorded H200 samples', () => {
  it('merged-aligned at 100 µs: ~54 GB/s read, 128-B requests, every interval alike', () => {
    const { samples } = fixture('h200-merged-aligned-100us.csv')
    const d = derive(sumWindow(samples))
    expect(d.readGBps).toBeGreaterThan(50)
    expect(d.readGBps).toBeLessThan(60) // Gen5 x16 carries ~63 GB/s of TLPs
    expect(d.meanRequestBytes!).toBeGreaterThan(127)
    expect(d.meanRequestBytes!).toBeLessThan(128.5)
    expect(d.inFlight).toBeGreaterThan(300)
    const busy = samples.filter((s) => s.writeBytes > 100_000).map((s) => derive(sumWindow([s])).meanRequestBytes!)
    expect(busy.length).toBeGreaterThan(550)
    expect(Math.min(...busy)).toBeGreaterThan(120)
  })
  it('strided at 1 ms: 32-B requests, more than 500 M requests/s', () => {
    const d = derive(sumWindow(fixture('h200-strided-1ms.csv').samples))
    expect(d.meanRequestBytes!).toBeCloseTo(32, 0)
    expect(d.requestsPerSecond).toBeGreaterThan(500e6)
  })
  it("idle: the driver's trickle, well under 10 MB/s either way", () => {
    const d = derive(sumWindow(fixture('h200-idle-1ms.csv').samples))
    expect(d.readGBps).toBeLessThan(0.01)
    expect(d.writeGBps).toBeLessThan(0.01)
  })
})

describe('WindowAccumulator', () => {
  const s = (startNs: number, readBytes = 1): GpuCounterSample => ({ startNs, endNs: startNs + 100, readBytes, writeBytes: 0 })
  it('closes a window when a sample starts past it, and keeps the rest for flush()', () => {
    const acc = new WindowAccumulator(300)
    expect(acc.push([s(0), s(100), s(200)])).toEqual([])
    const closed = acc.push([s(300, 5), s(400)])
    expect(closed).toEqual([{ startNs: 0, endNs: 300, samples: 3, readBytes: 3, writeBytes: 0 }])
    expect(acc.flush()).toEqual({ startNs: 300, endNs: 500, samples: 2, readBytes: 6, writeBytes: 0 })
    expect(acc.flush()).toBeUndefined()
  })
  it('a gap longer than a window closes one window, not several empty ones', () => {
    const acc = new WindowAccumulator(100)
    expect(acc.push([s(0), s(1000)])).toHaveLength(1)
  })
  it('the H200 fixture in 5-ms windows: 12 windows of 50 samples', () => {
    const acc = new WindowAccumulator(5e6)
    const { samples } = fixture('h200-merged-aligned-100us.csv')
    const windows = [...acc.push(samples), acc.flush()!]
    expect(windows.map((w) => w.samples)).toEqual(Array(12).fill(50))
  })
  it('refuses a window of no length', () => {
    expect(() => new WindowAccumulator(0)).toThrow(RangeError)
  })
})
