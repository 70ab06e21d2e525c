// pcie-scope-model's graph mode (native/cuda/graph_model_json.cpp over native/model's graph
// traffic): the graph kernels' predicted host-memory traffic as JSON (ideal and scheduled L1),
// the graph cache, and the stable error codes for bad graphs, files and arguments.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { GRAPH_KERNELS, PAGERANK } from '../../../host/src/core/generated.js'
import { buildRunner, root, runRunner } from './gpu-runner.js'

const dir = mkdtempSync(join(tmpdir(), 'ps-graph-model-'))
const env = { ...process.env, PCIE_SCOPE_CACHE: join(dir, 'cache') }
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function model(args: string[]) {
  const b = buildRunner('gpu-stub', ['--no-cuda'])
  expect(b.status, b.output).toBe(0)
  return runRunner(resolve(root, 'build/gpu-stub/pcie-scope-model'), args, 120_000, env)
}

interface GraphResult {
  pattern: string
  vertices: number
  edges: number
  edgesRead: number
  usefulBytes: number
  levels: number
  mrd: { count: number; bySize: Record<string, number>; bytes: number }
  pcieReadBytes: number
  sectorsPerRequest: number
}

describe('pcie-scope-model --graph (graph kernels over a CSR in host memory)', () => {
  it('every BFS kernel reads the same edges; aligned needs fewer, larger reads than merged, merged than naive', () => {
    const runs = GRAPH_KERNELS.filter((k) => k.startsWith('bfs-')).map((k) => {
      const r = model(['--pattern', k, '--graph', 'kron:12:3'])
      expect(r.status, r.stdout + r.stderr).toBe(0)
      return r.objects[0] as unknown as GraphResult
    })
    const [naive, merged, aligned] = runs
    for (const r of runs) {
      expect(r.vertices).toBe(4096)
      expect(r.edgesRead).toBe(naive!.edgesRead)
      expect(r.usefulBytes).toBe(8 * r.edgesRead)
      expect(r.pcieReadBytes).toBe(r.mrd.bytes + 12 * r.mrd.count)
    }
    expect(aligned!.mrd.count).toBeLessThan(merged!.mrd.count)
    expect(merged!.mrd.count).toBeLessThan(naive!.mrd.count)
    expect(aligned!.sectorsPerRequest).toBeGreaterThan(merged!.sectorsPerRequest)
    expect(naive!.sectorsPerRequest).toBeLessThan(1.5)
    // the generated graph was cached under $PCIE_SCOPE_CACHE/graphs, keyed by recipe and id width
    expect(readdirSync(join(dir, 'cache', 'graphs'))).toEqual(['kron-12-seed3-id8.csr'])
  })

  it('SSSP, CC, PageRank: aligned needs fewer reads than merged; SSSP reads a 4-B weight per id, PageRank every edge every iteration', () => {
    const result = (k: string) => {
      const r = model(['--pattern', k, '--graph', 'kron:12:3'])
      expect(r.status, r.stdout + r.stderr).toBe(0)
      return r.objects[0] as unknown as GraphResult
    }
    for (const algo of ['sssp', 'cc', 'pagerank']) {
      const [merged, aligned] = [result(`${algo}-merged`), result(`${algo}-aligned`)]
      expect(aligned.mrd.count, algo).toBeLessThan(merged.mrd.count)
      expect(aligned.edgesRead, algo).toBe(merged.edgesRead)
      expect(aligned.usefulBytes, algo).toBe((algo === 'sssp' ? 12 : 8) * aligned.edgesRead)
      if (algo === 'pagerank') expect(aligned.edgesRead).toBe(PAGERANK.iterations * aligned.edges)
    }
  })

  it('--l1-model lru predicts every graph kernel: the same launches and loads as the ideal L1, never fewer reads', () => {
    for (const k of GRAPH_KERNELS) {
      const [ideal, lru] = ['ideal', 'lru'].map((m) => {
        const r = model(['--pattern', k, '--graph', 'kron:9:3', '--l1-model', m])
        expect(r.status, r.stdout + r.stderr).toBe(0)
        return r.objects[0] as unknown as GraphResult & { l1Model: string }
      })
      expect(ideal!.l1Model, k).toBe('ideal')
      expect(lru!.l1Model, k).toBe('lru')
      expect(lru!.levels, k).toBe(ideal!.levels)
      expect(lru!.edgesRead, k).toBe(ideal!.edgesRead)
      expect(lru!.usefulBytes, k).toBe(ideal!.usefulBytes)
      // 132 SMs, each with a cold L1: a line shared by lists on two SMs is read by both
      expect(lru!.mrd.count, k).toBeGreaterThanOrEqual(ideal!.mrd.count)
    }
  })

  it('a star from an edge-list file, hand-worked: the hub list is 4 lines, the leaves 16 sectors', () => {
    const file = join(dir, 'star.txt')
    writeFileSync(file, '# hub 0, leaves 1..64\n' + Array.from({ length: 64 }, (_, i) => `0 ${i + 1}`).join('\n') + '\n')
    const r = model(['--pattern', 'bfs-merged', '--graph', `file:${file}`, '--source', '0'])
    expect(r.status, r.stdout + r.stderr).toBe(0)
    expect(r.objects[0]).toMatchObject({
      vertices: 65,
      edges: 128,
      levels: 2,
      mrd: { count: 20, bySize: { '32': 16, '128': 4 }, bytes: 16 * 32 + 4 * 128 },
    })
    const r4 = model(['--pattern', 'bfs-merged', '--graph', `file:${file}`, '--source', '0', '--id-bytes', '4'])
    // 4-B ids: the hub's 64 ids are 2 lines (2 x 128 B), the leaves' 64 ids 8 sectors
    expect(r4.objects[0]).toMatchObject({ idBytes: 4, mrd: { count: 10, bySize: { '32': 8, '128': 2 } } })
  })

  it('bad graphs, files and arguments answer a stable code and exit 2', () => {
    const bad = join(dir, 'bad.mtx')
    writeFileSync(bad, '%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 x\n')
    const cases: [string[], string, RegExp][] = [
      [['--pattern', 'bfs-aligned', '--graph', `file:${bad}`], 'PS_GRAPH_BAD_FILE', /bad\.mtx:4: expected 'ROW COL', got '2 x'/],
      [['--pattern', 'bfs-aligned', '--graph', 'kron:99'], 'PS_GRAPH_BAD_SPEC', /scale must be an integer from 1 to 30/],
      [['--pattern', 'bfs-aligned', '--graph', 'kron:4', '--source', '16'], 'PS_GRAPH_BAD_SOURCE', /source 16 is not a vertex/],
      [['--pattern', 'bfs-aligned'], 'PS_MODEL_BAD_ARGUMENT', /--graph is required/],
      [['--pattern', 'bfs-aligned', '--graph', 'kron:4', '--bytes', '4096'], 'PS_MODEL_BAD_ARGUMENT', /do not apply/],
      [['--pattern', 'strided', '--bytes', '4096', '--graph', 'kron:4'], 'PS_MODEL_BAD_ARGUMENT', /go with a graph kernel/],
      [['--pattern', 'bfs-aligned', '--graph', 'kron:4', '--id-bytes', '2'], 'PS_MODEL_BAD_ARGUMENT', /4 or 8/],
      // the message quotes the argument: escaped, so the line stays one JSON object
      [['--pattern', 'strided', '--by"tes\\\n'], 'PS_MODEL_BAD_ARGUMENT', /^unknown argument --by"tes\\\n$/],
    ]
    for (const [args, code, re] of cases) {
      const r = model(args)
      expect(r.status, args.join(' ')).toBe(2)
      const e = r.objects[0]!.error as { code: string; message: string }
      expect(e.code, args.join(' ')).toBe(code)
      expect(e.message).toMatch(re)
    }
    const missing = model(['--pattern', 'bfs-naive', '--graph', `file:${join(dir, 'none.el')}`])
    expect(missing.status).toBe(1)
    expect((missing.objects[0]!.error as { code: string }).code).toBe('PS_GRAPH_IO')
  })
})
