import { describe, expect, it } from 'vitest'
import { GRAPH_GENERATORS, GRAPH_KERNELS, GRAPH_SCALE, PATTERNS } from '../../host/src/core/workload.js'
import { workloadLabel } from '../../web/state.js'
import {
  DEFAULT_GRAPH_SCALE,
  GRAPH_GENERATOR_CHOICES,
  GRAPH_SCALES,
  graphRows,
  ID_BYTES_CHOICES,
  PATTERN_CHOICES,
  patternKind,
  runRequestBody,
  runTitle,
} from '../../web/run-form.js'

const form = { pattern: 'strided', bytes: '4096', offset: '0', generator: 'kron', scale: '10', idBytes: '8', source: '' } as const

describe('run form (web/run-form.ts)', () => {
  it('offers the spec patterns, then the spec graph kernels', () => {
    expect(PATTERN_CHOICES.map((c) => c.value)).toEqual([...PATTERNS, ...GRAPH_KERNELS])
    expect(PATTERN_CHOICES.filter((c) => c.kind === 'graph').map((c) => c.value)).toEqual([...GRAPH_KERNELS])
    for (const c of PATTERN_CHOICES) expect(patternKind(c.value)).toBe(c.kind)
    expect(PATTERN_CHOICES.every((c) => c.title.length > 0)).toBe(true)
  })

  it('picks graphs within the server limit: every generator, scales min..serverMax, both id widths', () => {
    expect(GRAPH_GENERATOR_CHOICES.map((g) => g.value)).toEqual([...GRAPH_GENERATORS])
    expect(GRAPH_SCALES[0]).toBe(GRAPH_SCALE.min)
    expect(GRAPH_SCALES.at(-1)).toBe(GRAPH_SCALE.serverMax)
    expect(GRAPH_SCALES).toHaveLength(GRAPH_SCALE.serverMax - GRAPH_SCALE.min + 1)
    expect(GRAPH_SCALES).toContain(DEFAULT_GRAPH_SCALE)
    expect(ID_BYTES_CHOICES).toEqual([
      { value: '4', selected: false },
      { value: '8', selected: true },
    ])
  })

  it('sends a micro pattern with bytes and offset, a graph kernel with its graph and id width', () => {
    expect(runRequestBody(form)).toEqual({ pattern: 'strided', bytes: 4096, offset: 0 })
    expect(runRequestBody({ ...form, source: 'gpu' })).toEqual({ pattern: 'strided', bytes: 4096, offset: 0, source: 'gpu' })
    expect(runRequestBody({ ...form, pattern: 'bfs-aligned', generator: 'urand', scale: '14', idBytes: '4', source: 'twin' })).toEqual({
      pattern: 'bfs-aligned',
      graph: 'urand:14',
      idBytes: 4,
      source: 'twin',
    })
    // merged-chunked alone sends its chunk, and only one other than the spec's default
    const chunked = { ...form, pattern: 'merged-chunked', offset: '32', chunkBytes: '512' }
    expect(runRequestBody(chunked)).toEqual({ pattern: 'merged-chunked', bytes: 4096, offset: 32, chunkBytes: 512 })
    expect(runRequestBody({ ...chunked, chunkBytes: '4096' })).toEqual({ pattern: 'merged-chunked', bytes: 4096, offset: 32 })
    expect(runRequestBody({ ...form, chunkBytes: '512' })).toEqual({ pattern: 'strided', bytes: 4096, offset: 0 })
  })

  it('titles and labels a run by what it ran', () => {
    expect(runTitle(3, 'manual', { pattern: 'merged-misaligned', bytes: 65536, offset: 32 })).toBe(
      '#3 (manual) merged-misaligned, 65,536 B @ +32',
    )
    expect(runTitle(5, 'manual', { pattern: 'merged-chunked', bytes: 65536, offset: 32, chunkBytes: 512 })).toBe(
      '#5 (manual) merged-chunked, 65,536 B @ +32 in 512-B chunks',
    )
    expect(runTitle(4, 'manual', { pattern: 'bfs-naive', graph: 'kron:8', idBytes: 4 })).toBe('#4 (manual) bfs-naive on kron:8')
    expect(workloadLabel({ pattern: 'bfs-naive', graph: 'kron:8' })).toBe('bfs-naive kron:8')
    expect(workloadLabel({ pattern: 'merged-misaligned', bytes: 4096, offset: 32 })).toBe('merged-misaligned +32')
  })

  it('shows the graph facts, and a GPU BFS with its TEPS and level check', () => {
    expect(graphRows({})).toEqual([])
    const graph = { graph: 'kron:16', vertices: 65536, edges: 1820242, idBytes: 8 as const, sourceVertex: 168, launches: 5 }
    expect(graphRows({ graph })).toEqual([
      { label: 'graph', value: 'kron:16: 65,536 vertices, 1,820,242 directed edges, 8-B ids' },
      { label: 'BFS', value: 'from vertex 168, 5 kernel launches (levels)' },
    ])
    const gpuGraph = {
      device: {
        name: 'G',
        pciBusId: '0',
        pcieGen: 5,
        pcieWidth: 16,
        smCount: 1,
        computeCapability: '9.0',
        nvidiaDriver: null,
        driverVersion: 1,
        runtimeVersion: 1,
      },
      memory: 'zerocopy',
      bfs: { medianMs: 1.5, minMs: 1.4, maxMs: 1.6 },
      reached: 60000,
      edgesRead: 1800000,
      edgeBytes: 14400000,
      gteps: 1.2,
      edgeGbps: 9.6,
      levels: { ok: false, mismatches: 2 },
    }
    expect(graphRows({ graph, gpuGraph }).slice(2)).toEqual([
      { label: 'GPU BFS (median)', value: '1.500 ms, 1.200 GTEPS, 9.60 GB/s of edges (zerocopy)' },
      { label: 'levels vs CPU', value: 'BAD: 2 differ', status: 'bad' },
    ])
    expect(graphRows({ graph, gpuGraph: { ...gpuGraph, levels: { ok: true, mismatches: 0 } } }).at(-1)).toEqual({
      label: 'levels vs CPU',
      value: 'ok',
      status: 'ok',
    })
  })
})
