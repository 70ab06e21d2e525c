import { describe, expect, it } from 'vitest'
import { suiteKernels } from '../../../host/src/workload/suite.js'

describe('suiteKernels', () => {
  it('micro: every pattern at its default offset, one kernel each with one lane width', () => {
    expect(suiteKernels('micro', 1 << 20, [4])).toEqual([
      { name: 'strided e4', pattern: 'strided', bytes: 1 << 20, offset: 0 },
      { name: 'merged-aligned e4', pattern: 'merged-aligned', bytes: 1 << 20, offset: 0 },
      { name: 'merged-misaligned e4', pattern: 'merged-misaligned', bytes: 1 << 20, offset: 32 },
      { name: 'merged-chunked e4', pattern: 'merged-chunked', bytes: 1 << 20, offset: 32 },
    ])
  })
  it('micro x lane widths when the model has several; widths the bytes do not divide are left out', () => {
    const k = suiteKernels('micro', 1 << 20, [4, 8, 16])
    expect(k).toHaveLength(12)
    expect(k[1]).toEqual({ name: 'strided e8', pattern: 'strided', bytes: 1 << 20, offset: 0, elementBytes: 8 })
    expect(suiteKernels('micro', 1028, [4, 8, 16]).map((x) => x.elementBytes)).toEqual([4, 4, 4, 4])
  })
  it('refuses an unknown suite', () => {
    expect(() => suiteKernels('macro' as never, 4, [4])).toThrow(expect.objectContaining({ code: 'PS_USAGE' }))
  })
})
