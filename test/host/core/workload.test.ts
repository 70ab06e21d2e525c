import { describe, expect, it } from 'vitest'
import {
  elementBytesOf,
  generatedGraph,
  graphEdgeBytesBound,
  idBytesOf,
  l1Of,
  workloadKey,
  workloadLabel,
} from '../../../host/src/core/workload.js'

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
  it('graph workloads: one key per kernel, graph, id width, root and L1 use; absent = default', () => {
    const g = { pattern: 'bfs-aligned' as const, graph: 'kron:8' }
    expect(idBytesOf({})).toBe(8)
    expect(workloadKey(g)).toBe(workloadKey({ ...g, idBytes: 8, l1: 'ideal' }))
    expect(workloadKey(g)).not.toBe(workloadKey({ ...g, idBytes: 4 }))
    expect(workloadKey(g)).not.toBe(workloadKey({ ...g, sourceVertex: 0 }))
    expect(workloadKey(g)).not.toBe(workloadKey({ ...g, graph: 'kron:8:2' }))
    expect(workloadLabel(g)).toBe('bfs-aligned kron:8')
    expect(workloadLabel({ pattern: 'strided', bytes: 4096, offset: 0 })).toBe('strided 4096 B')
  })
  it('generatedGraph reads a generator spec; graphEdgeBytesBound bounds its edge list', () => {
    expect(generatedGraph('kron:16')).toEqual({ generator: 'kron', scale: 16, seed: undefined })
    expect(generatedGraph('urand:3:42')).toEqual({ generator: 'urand', scale: 3, seed: 42 })
    for (const bad of ['file:/x', 'kron', 'kron:', 'grid:4', 'kron:4:', 'KRON:4']) expect(generatedGraph(bad)).toBeUndefined()
    expect(graphEdgeBytesBound({ pattern: 'bfs-naive', graph: 'kron:4', idBytes: 4 })).toBe(2 * 16 * 16 * 4)
    expect(graphEdgeBytesBound({ pattern: 'bfs-naive', graph: 'file:/x' })).toBeUndefined()
  })
})
