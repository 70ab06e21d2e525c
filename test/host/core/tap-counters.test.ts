// host/src/core/tap-counters.ts: one tap's counters out of a reading of every tap.
import { describe, expect, it } from 'vitest'
import type { Counters } from '../../../host/src/core/probe.js'
import { tapCounters } from '../../../host/src/core/tap-counters.js'

const counters = (reads: number) => ({ latFirstCount: reads }) as Counters

describe('tapCounters', () => {
  it('tap 0 from the snapshot, a further tap from its TAP_SNAPSHOT', () => {
    const reading = { snapshot: { counters: counters(1) }, taps: { hostSide: { snapshot: { counters: counters(2) } } } }
    expect(tapCounters(reading, 0)?.latFirstCount).toBe(1)
    expect(tapCounters(reading, 1)?.latFirstCount).toBe(2)
  })

  it('undefined for a tap whose frames are not in the reading, or that the spec does not know', () => {
    expect(tapCounters({ snapshot: { counters: counters(1) } }, 1)).toBeUndefined()
    expect(tapCounters({ snapshot: { counters: counters(1) }, taps: {} }, 1)).toBeUndefined()
    expect(tapCounters({ snapshot: { counters: counters(1) } }, 7)).toBeUndefined()
  })
})
