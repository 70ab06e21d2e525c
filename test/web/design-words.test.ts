import { describe, expect, it } from 'vitest'
import { COUNTERS } from '../../host/src/core/generated.js'
import { designOf, urLabel } from '../../web/design-words.js'

describe('design words', () => {
  it('the spec’s counter docs, shown as they are, name no design’s completer: both designs use the counters', () => {
    for (const c of COUNTERS) expect(c.doc, c.name).not.toMatch(/BAR responder|responder/i)
    // the completion counters speak of the tap, whoever answers there
    for (const key of ['cpldCount', 'barUr', 'cplCount']) expect(COUNTERS.find((c) => c.key === key)!.doc, key).toMatch(/completion tap/)
  })

  it('speaks of the host and the switch in the switch design, of the BAR in the BAR design', () => {
    expect(designOf(true)).toBe('switch')
    expect(urLabel('switch')).not.toMatch(/BAR/)
    expect(urLabel(designOf(false))).toBe('BAR unsupported requests')
  })
})
