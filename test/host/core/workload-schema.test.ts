import { describe, expect, it } from 'vitest'
import { validateAnyWorkload, validateGraphWorkload, validateWorkload } from '../../../host/src/core/workload-schema.js'
import {
  defaultOffset,
  ELEMENT_BYTES,
  GRAPH_KERNELS,
  GRAPH_SCALE,
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

describe('graph workloads (spec graphs: kernels, generators, scale)', () => {
  const graphInvalid = (w: unknown, scope: 'local' | 'server', re: RegExp) => {
    expect(() => validateGraphWorkload(w, scope)).toThrow(re)
    try {
      validateGraphWorkload(w, scope)
    } catch (e) {
      expect(e).toMatchObject({ code: 'PS_WORKLOAD_INVALID' })
    }
  }
  it('accepts every spec kernel on generated graphs and files; absent fields stay absent', () => {
    for (const k of GRAPH_KERNELS) expect(validateGraphWorkload({ pattern: k, graph: 'kron:8' })).toEqual({ pattern: k, graph: 'kron:8' })
    expect(validateGraphWorkload({ pattern: 'bfs-naive', graph: 'urand:12:99', idBytes: 4, sourceVertex: 0, l1: 'bypass' })).toEqual({
      pattern: 'bfs-naive',
      graph: 'urand:12:99',
      idBytes: 4,
      sourceVertex: 0,
      l1: 'bypass',
    })
    expect(validateGraphWorkload({ pattern: 'bfs-aligned', graph: 'file:/data/road.mtx' }).graph).toBe('file:/data/road.mtx')
    expect(validateGraphWorkload({ pattern: 'bfs-aligned', graph: `kron:${GRAPH_SCALE.max}` }).graph).toBe(`kron:${GRAPH_SCALE.max}`)
  })
  it('refuses malformed specs, ids and roots with the reason', () => {
    graphInvalid(
      { pattern: 'bfs-aligned', graph: 'kron:x' },
      'local',
      /graph 'kron:x' is not kron:S\[:SEED\], urand:S\[:SEED\] or file:PATH/,
    )
    graphInvalid({ pattern: 'bfs-aligned', graph: 'grid:4' }, 'local', /is not kron/)
    graphInvalid({ pattern: 'bfs-aligned', graph: 'kron:0' }, 'local', /scale 0 is outside 1\.\.30/)
    graphInvalid({ pattern: 'bfs-aligned', graph: `kron:${GRAPH_SCALE.max + 1}` }, 'local', /outside 1\.\.30/)
    graphInvalid({ pattern: 'bfs-aligned', graph: 'kron:8 x' }, 'local', /one word/)
    graphInvalid({ pattern: 'bfs-aligned', graph: 'file:' }, 'local', /needs a path/)
    graphInvalid({ pattern: 'bfs-aligned', graph: 'kron:8', idBytes: 2 }, 'local', /idBytes must be one of 4, 8/)
    graphInvalid({ pattern: 'bfs-aligned', graph: 'kron:8', sourceVertex: 1.5 }, 'local', /sourceVertex must be an integer/)
    graphInvalid({ pattern: 'strided', graph: 'kron:8' }, 'local', /pattern must be one of bfs-naive/)
  })
  it('the server scope takes no files and no scale above serverMax', () => {
    const top = `urand:${GRAPH_SCALE.serverMax}`
    expect(validateGraphWorkload({ pattern: 'bfs-merged', graph: top }, 'server').graph).toBe(top)
    graphInvalid({ pattern: 'bfs-merged', graph: `kron:${GRAPH_SCALE.serverMax + 1}` }, 'server', /the server's limit/)
    graphInvalid({ pattern: 'bfs-merged', graph: 'file:/etc/passwd' }, 'server', /reads no files/)
  })
  it('validateAnyWorkload tells the kinds apart by the pattern or a graph field', () => {
    expect(validateAnyWorkload({ pattern: 'strided', bytes: 128 })).toEqual({ pattern: 'strided', bytes: 128, offset: 0 })
    expect(validateAnyWorkload({ pattern: 'bfs-naive', graph: 'kron:4' })).toEqual({ pattern: 'bfs-naive', graph: 'kron:4' })
    expect(() => validateAnyWorkload({ pattern: 'strided', graph: 'kron:4' })).toThrow(/pattern must be one of bfs-naive/)
    expect(() => validateAnyWorkload({ pattern: 'bfs-naive', bytes: 128 })).toThrow(/graph/)
  })
})

describe('merged-chunked: chunkBytes', () => {
  it('takes a chunk for merged-chunked, kept only when given, and names it in the workload key', async () => {
    const { workloadKey } = await import('../../../host/src/core/workload.js')
    expect(validateWorkload({ pattern: 'merged-chunked', bytes: 4096 })).toEqual({ pattern: 'merged-chunked', bytes: 4096, offset: 32 })
    const w = validateWorkload({ pattern: 'merged-chunked', bytes: 4096, chunkBytes: 256 })
    expect(w).toEqual({ pattern: 'merged-chunked', bytes: 4096, offset: 32, chunkBytes: 256 })
    expect(workloadKey(w)).toBe('merged-chunked/4096/32/4/ideal/256')
    expect(workloadKey({ pattern: 'merged-chunked', bytes: 4096, offset: 32 })).toBe('merged-chunked/4096/32/4/ideal/4096')
  })
  it('refuses a chunk for another pattern, one outside the limits and one that splits a load', () => {
    const bad = (w: unknown, re: RegExp) => expect(() => validateWorkload(w)).toThrow(re)
    bad({ pattern: 'strided', bytes: 4096, chunkBytes: 256 }, /chunkBytes goes with the merged-chunked pattern/)
    bad({ pattern: 'merged-chunked', bytes: 4096, chunkBytes: 6 }, /chunkBytes must be a multiple of 4/)
    bad({ pattern: 'merged-chunked', bytes: 4096, chunkBytes: 0 }, /chunkBytes must be at least 4/)
    bad({ pattern: 'merged-chunked', bytes: 4096, offset: 0, elementBytes: 16, chunkBytes: 24 }, /multiple of elementBytes 16/)
  })
})
