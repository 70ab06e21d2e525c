import { describe, expect, it } from 'vitest'
import { validateWorkload } from '../../../host/src/core/workload-schema.js'
import {
  defaultOffset,
  ELEMENT_BYTES,
  elementBytesOf,
  l1Of,
  PATTERN_SPECS,
  PATTERNS,
  WORKLOAD_LIMITS,
} from '../../../host/src/core/workload.js'

const MAX = WORKLOAD_LIMITS.bytes.max

const invalid = (w: unknown, re: RegExp) => {
  try {
    validateWorkload(w)
  } catch (e) {
    expect(e).toMatchObject({ code: 'PS_WORKLOAD_INVALID' })
    expect((e as Error).message).toMatch(re)
    return
  }
  throw new Error(`accepted ${JSON.stringify(w)}`)
}

describe('validateWorkload (limits of spec/workloads.json)', () => {
  it('accepts the documented range', () => {
    expect(validateWorkload({ pattern: 'strided', bytes: 128 })).toEqual({ pattern: 'strided', bytes: 128, offset: 0 })
    expect(validateWorkload({ pattern: 'strided', bytes: 4 })).toEqual({ pattern: 'strided', bytes: 4, offset: 0 })
    expect(validateWorkload({ pattern: 'merged-aligned', bytes: 100 })).toMatchObject({ bytes: 100 })
    expect(validateWorkload({ pattern: 'merged-misaligned', bytes: MAX, offset: 124 })).toMatchObject({ offset: 124 })
  })
  it('gives merged-misaligned its 32-B default offset, and every pattern its spec default', () => {
    expect(validateWorkload({ pattern: 'merged-misaligned', bytes: 4096 })).toEqual({
      pattern: 'merged-misaligned',
      bytes: 4096,
      offset: 32,
    })
    expect(validateWorkload({ pattern: 'merged-misaligned', bytes: 4096, offset: 0 }).offset).toBe(0)
    for (const p of PATTERN_SPECS) expect(validateWorkload({ pattern: p.name, bytes: 4096 }).offset).toBe(p.defaultOffset)
    expect(PATTERNS.map(defaultOffset)).toEqual(PATTERN_SPECS.map((p) => p.defaultOffset))
  })
  it('rejects bad patterns, sizes and offsets with clear messages', () => {
    invalid({ pattern: 'random', bytes: 128, offset: 0 }, /pattern must be one of strided, merged-aligned, merged-misaligned/)
    invalid({ pattern: 'strided', bytes: 0, offset: 0 }, /at least 4/)
    invalid({ pattern: 'strided', bytes: 102, offset: 0 }, /multiple of 4/)
    invalid({ pattern: 'strided', bytes: 1.5, offset: 0 }, /integer/)
    invalid({ pattern: 'strided', bytes: MAX + 128, offset: 0 }, /at most 1073741824/)
    invalid({ pattern: 'strided', bytes: 128, offset: 2 }, /multiple of 4/)
    invalid({ pattern: 'strided', bytes: 128, offset: 128 }, /at most 124/)
    invalid({ pattern: 'strided', bytes: 128, offset: -4 }, /at least 0/)
    invalid({ pattern: 'strided', bytes: '128', offset: 0 }, /bytes/)
  })
  it('takes elementBytes and l1 as optional fields: absent stays absent and means the spec default', () => {
    const old = validateWorkload({ pattern: 'strided', bytes: 4096 })
    expect(old).toEqual({ pattern: 'strided', bytes: 4096, offset: 0 })
    expect(elementBytesOf(old)).toBe(4)
    expect(l1Of(old)).toBe('ideal')
    expect(ELEMENT_BYTES).toEqual([4, 8, 16])
    expect(validateWorkload({ pattern: 'merged-misaligned', bytes: 8192, elementBytes: 16, l1: 'bypass' })).toEqual({
      pattern: 'merged-misaligned',
      bytes: 8192,
      offset: 32,
      elementBytes: 16,
      l1: 'bypass',
    })
    expect(validateWorkload({ pattern: 'strided', bytes: 4096, elementBytes: 8 })).toEqual({
      pattern: 'strided',
      bytes: 4096,
      offset: 0,
      elementBytes: 8,
    })
  })
  it('rejects other widths, L1 modes and loads that are partial or misaligned for the width', () => {
    invalid({ pattern: 'strided', bytes: 4096, elementBytes: 12 }, /elementBytes must be one of 4, 8, 16/)
    invalid({ pattern: 'strided', bytes: 4096, elementBytes: '8' }, /elementBytes/)
    invalid({ pattern: 'strided', bytes: 4096, l1: 'cg' }, /l1 must be one of ideal, bypass/)
    invalid({ pattern: 'strided', bytes: 4100, elementBytes: 8 }, /bytes: bytes must be a multiple of elementBytes 8/)
    invalid({ pattern: 'strided', bytes: 4096, offset: 8, elementBytes: 16 }, /offset: offset must be a multiple of elementBytes 16/)
    invalid({ pattern: 'merged-misaligned', bytes: 4096, offset: 4, elementBytes: 8 }, /aligned loads/)
  })
})
