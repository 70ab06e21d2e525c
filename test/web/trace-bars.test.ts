import { describe, expect, it } from 'vitest'
import { SIZE_CLASSES, sizeClassIndex } from '../../host/src/core/size-classes.js'
import { assignLanes, buildBars } from '../../web/trace-bars.js'
import { CLOCK_HZ, syntheticTrace } from './trace-fixture.js'

describe('trace bars', () => {
  it('gives each tag (or requester) present one lane, in ascending order', () => {
    const { lanes, laneOf } = assignLanes([9, 3, 9, 200, 3], 'tag')
    expect(lanes.map((l) => l.label)).toEqual(['tag 3', 'tag 9', 'tag 200'])
    expect([laneOf.get(3), laneOf.get(9), laneOf.get(200)]).toEqual([0, 1, 2])
    expect(assignLanes([0x0100], 'requester').lanes).toEqual([{ key: 0x0100, label: 'rid 0x0100' }])
  })

  it('classes a request by the spec’s size classes, any other size in the catch-all', () => {
    expect(SIZE_CLASSES[sizeClassIndex(128)]!.key).toBe('128')
    expect(SIZE_CLASSES[sizeClassIndex(16)]!.bytes).toBeNull()
  })

  it('spans each read from its request to the completion that ended it, on its tag’s lane', () => {
    const { report } = syntheticTrace(600, 100)
    const bars = buildBars(report, 'tag')
    const first = report.tlps[0]!.clock
    const s = (clock: number) => (clock - first) / CLOCK_HZ
    const k = report.reads.findIndex((r) => r.completions === 2) // a 256-B read in two completions
    const read = report.reads[k]!
    expect(bars.start[k]).toBeCloseTo(s(report.tlps[read.record]!.clock), 15)
    expect(bars.end[k]).toBeCloseTo(s(report.tlps[read.records[2]!]!.clock), 15)
    expect(bars.lanes[bars.lane[k]!]!.key).toBe(read.tag)
    expect(SIZE_CLASSES[bars.size[k]!]!.key).toBe('256')
    expect(bars.span).toBeCloseTo(s(report.tlps.at(-1)!.clock), 15)
    expect(bars.trigger).toBeCloseTo(s(report.tlps[100]!.clock), 15)
    // open reads reach the trace's end; the unexpected completion sits on its tag's lane
    const open = report.reads.findIndex((r) => r.end === 'open')
    expect(bars.end[open]).toBe(bars.span)
    expect(bars.unexpected).toHaveLength(1)
    expect(bars.unexpected[0]!.lane).toBe(bars.lanes.findIndex((l) => l.key === 7))
    expect(bars.unexpected[0]!.t).toBeCloseTo(s(500), 15)
    for (let i = 0; i < report.reads.length; i++) expect(bars.end[i]! - bars.start[i]!).toBeLessThanOrEqual(bars.maxDuration)
  })

  it('per requester: one lane for the twin’s one requester', () => {
    const bars = buildBars(syntheticTrace(200).report, 'requester')
    expect(bars.lanes).toHaveLength(1)
    expect(Array.from(bars.lane).every((l) => l === 0)).toBe(true)
  })
})
