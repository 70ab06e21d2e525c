import { describe, expect, it } from 'vitest'
import { filterReads, NO_FILTER, parseFilter, positionOf, type TraceFilterInput } from '../../web/trace-filter.js'
import { syntheticTrace } from './trace-fixture.js'

const EMPTY: TraceFilterInput = { tag: '', addrFrom: '', addrTo: '', size: '', end: '', minLatencyNs: '' }
const parsed = (v: Partial<TraceFilterInput>) => {
  const r = parseFilter({ ...EMPTY, ...v })
  if ('error' in r) throw new Error(r.error)
  return r.filter
}

describe('trace filter', () => {
  const { report } = syntheticTrace(3000)

  it('an empty form filters nothing', () => {
    expect(parsed({})).toEqual(NO_FILTER)
    expect(filterReads(report, NO_FILTER)).toHaveLength(report.reads.length)
  })

  it('by tag, address range (decimal or hex), size class, end and latency above N ns', () => {
    const by = (v: Partial<TraceFilterInput>) => Array.from(filterReads(report, parsed(v)), (i) => report.reads[i]!)
    expect(by({ tag: '5' }).every((r) => r.tag === 5)).toBe(true)
    expect(by({ tag: '5' }).length).toBeGreaterThan(1)
    const inRange = by({ addrFrom: '0x100000400', addrTo: String(0x1_0000_0800) })
    expect(inRange.map((r) => r.address)).toEqual([0x1_0000_0400, 0x1_0000_0500, 0x1_0000_0600, 0x1_0000_0700, 0x1_0000_0800])
    expect(by({ size: '256' }).every((r) => r.requestedBytes === 256)).toBe(true)
    expect(by({ size: 'other' }).every((r) => r.requestedBytes === 16)).toBe(true)
    expect(by({ end: 'error' }).length).toBeGreaterThan(0)
    expect(by({ end: 'error' }).every((r) => r.end === 'error')).toBe(true)
    const slow = by({ minLatencyNs: '1900' })
    expect(slow.length).toBeGreaterThan(0)
    expect(slow.every((r) => r.lastLatencyNs! > 1900)).toBe(true)
    // all at once: each condition holds
    const both = by({ size: '128', minLatencyNs: '1500', end: 'done' })
    expect(both.every((r) => r.requestedBytes === 128 && r.lastLatencyNs! > 1500 && r.end === 'done')).toBe(true)
  })

  it('keeps request order, and names the field it cannot read', () => {
    const ids = filterReads(report, parsed({ size: '64' }))
    for (let k = 1; k < ids.length; k++) expect(ids[k]!).toBeGreaterThan(ids[k - 1]!)
    // a read's row among those shown, or none when the filter hides it
    expect(positionOf(ids, ids[7]!)).toBe(7)
    expect(positionOf(ids, ids[7]! + 1)).toBeNull()
    expect(positionOf(new Uint32Array(), 3)).toBeNull()
    expect(parseFilter({ ...EMPTY, tag: 'x' })).toEqual({ error: 'tag: "x" is no whole number (decimal or 0x hex)' })
    expect(parseFilter({ ...EMPTY, addrFrom: '0x20', addrTo: '0x10' })).toEqual({ error: 'address range: "to" is below "from"' })
    expect(parseFilter({ ...EMPTY, minLatencyNs: '-3' })).toMatchObject({ error: expect.stringMatching(/^latency above/) })
    expect(parseFilter({ ...EMPTY, size: '48' })).toMatchObject({ error: 'size: no class "48"' })
  })
})
