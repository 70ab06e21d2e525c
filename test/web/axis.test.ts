import { describe, expect, it } from 'vitest'
import { countLabels, decimalsFor, fixedLabels, niceTicks, timeUnit } from '../../web/axis.js'

describe('axis labels', () => {
  it('gives neighbouring ticks different labels in one unit', () => {
    // time ticks 2 ms apart near 298 ms: no "298 ms, 298 ms", no µs among the ms
    const t = timeUnit(0.3)
    expect(t.unit).toBe('ms')
    const ticks = [0.296, 0.2965, 0.297, 0.2975, 0.298]
    const labels = fixedLabels(ticks, t.scale)
    expect(labels).toEqual(['296.0', '296.5', '297.0', '297.5', '298.0'])
    expect(new Set(labels).size).toBe(ticks.length)
    expect(timeUnit(12).unit).toBe('s')
    expect(timeUnit(0.0004).unit).toBe('µs')
  })

  it('gives a payload axis the prefix its values need: no row of equal labels for a slow stream', () => {
    expect(countLabels([0, 0.5e9, 1e9, 1.5e9], 'B/s')).toEqual(['0.0 GB/s', '0.5 GB/s', '1.0 GB/s', '1.5 GB/s'])
    const slow = countLabels([0, 200, 400, 600, 800, 1000, 1200], 'B/s')
    expect(slow).toEqual(['0.0 kB/s', '0.2 kB/s', '0.4 kB/s', '0.6 kB/s', '0.8 kB/s', '1.0 kB/s', '1.2 kB/s'])
  })

  it('prints small GB/s ticks with the decimals they need, not "0.0" for each', () => {
    const ticks = [0, 5e6, 10e6, 15e6, 20e6, 25e6, 30e6, 35e6, 40e6, 45e6, 50e6] // 0..0.05 GB/s
    const labels = fixedLabels(ticks, 1e-9)
    expect(new Set(labels).size).toBe(ticks.length)
    expect(labels[1]).toBe('0.005')
  })

  it('never writes a count with a milli prefix, and uses one prefix per axis', () => {
    expect(countLabels([0, 0.5, 1])).toEqual(['0.0', '0.5', '1.0'])
    expect(countLabels([0, 1])).toEqual(['0', '1'])
    expect(countLabels([0, 500_000, 1_000_000, 1_500_000])).toEqual(['0.0 M', '0.5 M', '1.0 M', '1.5 M'])
    expect(decimalsFor(1)).toBe(0)
    expect(decimalsFor(0.25)).toBe(2)
    expect(decimalsFor(0.5)).toBe(1)
    expect(decimalsFor(5e-3)).toBe(3)
  })

  it('reads a TLP trace in ns below a microsecond, the probe-time charts never below µs', () => {
    expect(timeUnit(4e-7, 'ns').unit).toBe('ns')
    expect(timeUnit(4e-6, 'ns').unit).toBe('µs')
    expect(timeUnit(4e-7).unit).toBe('µs')
  })

  it('steps ticks by 1, 2 or 5 times a power of ten, inside the range', () => {
    expect(niceTicks(0, 10, 6)).toEqual([0, 2, 4, 6, 8, 10])
    const fine = niceTicks(0.1, 0.35, 6)
    expect(fine).toHaveLength(6)
    fine.forEach((t, i) => expect(t).toBeCloseTo(0.1 + 0.05 * i, 12))
    expect(niceTicks(103, 487, 5)).toEqual([200, 300, 400])
    expect(niceTicks(5, 5, 5)).toEqual([])
  })
})
