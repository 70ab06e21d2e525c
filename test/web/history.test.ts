import { describe, expect, it } from 'vitest'
import { HISTORY_ROWS, RunPicker } from '../../web/history.js'
import { entry, runCounters } from '../host/core/run-fixtures.js'
import type { RunEntry } from '../../host/src/core/run-summary.js'

const run = (id: number, origin: RunEntry['origin'] = 'manual', reads = 20_000): RunEntry => ({
  ...entry(id, runCounters({ reads, size: 64, micros: 1000, inFlight: reads / 1000, latencyNs: 1000 })),
  key: `server:${id}`,
  origin,
})

describe('RunPicker', () => {
  it('shows the newest run’s summary until another is asked for, and forgets one no longer listed', () => {
    const p = new RunPicker()
    expect(p.shown()).toBeNull()
    p.setRuns([run(2), run(1)])
    expect(p.shown()?.key).toBe('server:2')
    p.show('server:1')
    expect(p.shown()?.key).toBe('server:1')
    p.setRuns([run(3), run(2)])
    expect(p.shownKey).toBeNull()
    expect(p.shown()?.key).toBe('server:3')
  })

  it('compares the picked runs in the order picked, the first the baseline', () => {
    const p = new RunPicker()
    p.setRuns([run(3, 'manual', 60_000), run(2, 'manual', 40_000), run(1)])
    p.toggle('server:1')
    expect(p.comparison()).toBeNull()
    p.toggle('server:3')
    expect(p.comparison()?.runs.map((r) => r.key)).toEqual(['server:1', 'server:3'])
    expect(p.comparison()?.sentences[0]).toMatch(/is 3× faster/)
    p.makeBaseline('server:3')
    expect(p.picked).toEqual(['server:3', 'server:1'])
    p.toggle('server:3') // the baseline dropped: the next one is
    expect(p.picked).toEqual(['server:1'])
    p.setRuns([run(2)]) // a picked run gone from the listing is dropped
    expect(p.picked).toEqual([])
  })

  it('lists demo runs only when asked (or when picked), at most HISTORY_ROWS', () => {
    const p = new RunPicker()
    p.setRuns([run(3, 'demo'), run(2), run(1, 'demo')])
    expect(p.rows().map((r) => r.key)).toEqual(['server:2'])
    p.toggle('server:1')
    expect(p.rows().map((r) => r.key)).toEqual(['server:2', 'server:1'])
    p.setWithDemo(true)
    expect(p.rows()).toHaveLength(3)
    p.setRuns(Array.from({ length: HISTORY_ROWS + 5 }, (_, i) => run(i + 1)))
    expect(p.rows()).toHaveLength(HISTORY_ROWS)
  })

  it('moves its version on every change, so the view redraws only then', () => {
    const p = new RunPicker()
    const v = p.version
    p.setRuns([run(1)])
    p.toggle('server:1')
    p.show('server:1')
    p.setWithDemo(true)
    expect(p.version).toBe(v + 4)
    p.makeBaseline('server:9') // not picked: nothing changes
    expect(p.version).toBe(v + 4)
  })
})
