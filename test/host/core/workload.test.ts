import { describe, expect, it } from 'vitest'
import { elementBytesOf, l1Of, workloadKey } from '../../../host/src/core/workload.js'

describe('workload helpers', () => {
  it('an absent lane width or L1 use means the spec default', () => {
    expect(elementBytesOf({})).toBe(4)
    expect(l1Of({})).toBe('ideal')
    expect(elementBytesOf({ elementBytes: 16 })).toBe(16)
    expect(l1Of({ l1: 'bypass' })).toBe('bypass')
  })
  it('workloadKey: one key per distinct workload, absent fields equal to their defaults', () => {
    const w = { pattern: 'strided' as const, bytes: 4096, offset: 0 }
    expect(workloadKey(w)).toBe(workloadKey({ ...w, elementBytes: 4, l1: 'ideal' }))
    expect(workloadKey(w)).not.toBe(workloadKey({ ...w, elementBytes: 8 }))
    expect(workloadKey(w)).not.toBe(workloadKey({ ...w, l1: 'bypass' }))
    expect(workloadKey(w)).not.toBe(workloadKey({ ...w, offset: 32 }))
  })
})
