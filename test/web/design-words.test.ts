import { describe, expect, it } from 'vitest'
import { COUNTERS } from '../../host/src/core/generated.js'
import { counterDoc, designOf, urLabel } from '../../web/design-words.js'

describe('design words', () => {
  it('speaks of the host and the switch, never of a BAR responder, in the switch design', () => {
    expect(designOf(true)).toBe('switch')
    for (const c of COUNTERS) expect(counterDoc(c.doc, 'switch'), c.name).not.toMatch(/BAR responder/)
    expect(counterDoc(COUNTERS.find((c) => c.key === 'cpldCount')!.doc, 'switch')).toMatch(/switch hands down to the GPU/)
    expect(urLabel('switch')).not.toMatch(/BAR/)
  })

  it('keeps the spec’s words in the BAR design', () => {
    const doc = COUNTERS.find((c) => c.key === 'barUr')!.doc
    expect(counterDoc(doc, 'endpoint')).toBe(doc)
    expect(urLabel(designOf(false))).toBe('BAR unsupported requests')
  })
})
