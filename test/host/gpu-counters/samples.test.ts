// Reading the sampler's two formats: the addon's flat batches and the program's CSV (recorded on
// an H200, test/host/gpu-counters/fixtures).
import { describe, expect, it } from 'vitest'
import { parseSamplesCsv, SampleFormatError, samplesOf, type CounterMetric } from '../../../host/src/gpu-counters/samples.js'
import { fixture, startInfo } from './fixtures.js'

const PCIE: CounterMetric[] = [
  { name: 'pcie__read_bytes.sum', role: 'readBytes' },
  { name: 'pcie__write_bytes.sum', role: 'writeBytes' },
]

describe('samplesOf (the addon batches)', () => {
  it('reads start, end and each metric by its role, in order', () => {
    const s = samplesOf(PCIE, Float64Array.from([0, 100, 5000, 600, 100, 200, 7000, 800]), 4)
    expect(s).toEqual([
      { startNs: 0, endNs: 100, readBytes: 5000, writeBytes: 600 },
      { startNs: 100, endNs: 200, readBytes: 7000, writeBytes: 800 },
    ])
  })
  it('keeps sysmem sectors where sampled and skips metrics of no role', () => {
    const m: CounterMetric[] = [
      ...PCIE,
      { name: 'lts__t_sectors_aperture_sysmem_op_read.sum', role: 'sysmemReadSectors' },
      { name: 'x', role: 'other' },
    ]
    expect(samplesOf(m, [0, 10, 1, 2, 3, 4], 6)).toEqual([{ startNs: 0, endNs: 10, readBytes: 1, writeBytes: 2, sysmemReadSectors: 3 }])
  })
  it('refuses a stride that does not fit the metrics, or a partial sample', () => {
    expect(() => samplesOf(PCIE, [0, 1, 2, 3], 3)).toThrow(SampleFormatError)
    expect(() => samplesOf(PCIE, [0, 1, 2, 3, 4], 4)).toThrow(/not whole samples/)
  })
})

describe('parseSamplesCsv (pcie-scope-gpu-counters --samples)', () => {
  it('the H200 fixture: PM sampling offers read and write bytes; contiguous 100-µs samples', () => {
    const { metrics, samples } = fixture('h200-merged-aligned-100us.csv')
    expect(metrics).toEqual(PCIE)
    expect(samples).toHaveLength(600)
    for (let i = 1; i < samples.length; i++) {
      expect(samples[i]!.startNs).toBe(samples[i - 1]!.endNs)
      expect(samples[i]!.endNs - samples[i]!.startNs).toBeGreaterThan(99_000)
      expect(samples[i]!.endNs - samples[i]!.startNs).toBeLessThan(101_000)
    }
  })
  it('the start line names the chip, its PCIe metrics and the time trigger', () => {
    const info = startInfo()
    expect(info).toMatchObject({ source: 'pm-sampling', chip: 'GH100', intervalNs: 100000, trigger: 'time' })
    expect(info.offered).toEqual(expect.arrayContaining(['pcie__read_bytes', 'pcie__write_bytes']))
    expect(info.metrics.map((m) => m.role)).toEqual(['readBytes', 'writeBytes'])
  })
  it('NVML columns map to the same roles', () => {
    const { samples } = parseSamplesCsv('start_ns,end_ns,nvml:rx,nvml:tx\n0,20000000,1024,2048\n')
    expect(samples).toEqual([{ startNs: 0, endNs: 20000000, readBytes: 1024, writeBytes: 2048 }])
  })
  it('says what is wrong with a bad file', () => {
    expect(() => parseSamplesCsv('a,b\n')).toThrow(/start_ns,end_ns/)
    expect(() => parseSamplesCsv('start_ns,end_ns,pcie__read_bytes.sum\n0,1\n')).toThrow(/line 2 has 2 cells/)
    expect(() => parseSamplesCsv('start_ns,end_ns,pcie__read_bytes.sum\n0,1,x\n')).toThrow(/not a number/)
  })
})
