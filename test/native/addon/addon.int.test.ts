// The real native addon (native/addon): built with scripts/build-native.mjs, loaded through
// host/src/native/addon.ts. Model predictions against the traffic model's own expectations
// (test/native/model/test_traffic.cpp), the event loop kept free during a long prediction, and
// the GPU error path on a machine without a usable GPU.
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { PAGERANK } from '../../../host/src/core/generated.js'
import { loadAddon, type NativeAddon } from '../../../host/src/native/addon.js'
import { gpuAvailability, GpuWorkloadRunner } from '../../../host/src/workload/gpu-runner.js'
import { gpuPresent } from '../cuda/gpu-runner.js'
import { zeroBySize } from '../../../host/src/core/size-classes.js'

const root = resolve(import.meta.dirname, '../../..')
const MiB = 1 << 20
let addon: NativeAddon

/** One sentence: a single line (the addon never writes line breaks into its messages). */
const ONE_SENTENCE = /^[^\n]+$/

beforeAll(() => {
  const r = spawnSync(process.execPath, [resolve(root, 'scripts/build-native.mjs')], { cwd: root, encoding: 'utf8' })
  expect(r.status, r.stdout + r.stderr).toBe(0)
  addon = loadAddon()
})

describe('predictGraph (the graph kernels\' model in process)', () => {
  // generated graphs cache in a folder of the test's own, never in ~/.cache
  process.env.PCIE_SCOPE_CACHE ??= mkdtempSync(join(tmpdir(), 'ps-addon-graphs-'))

  it('kron:16 bfs-aligned: the counts of pcie-scope-model and the twin (bench/RESULTS.md)', async () => {
    const p = await addon.predictGraph({ kernel: 'bfs-aligned', graph: 'kron:16' })
    expect(p).toMatchObject({
      kernel: 'bfs-aligned',
      graph: 'kron:16',
      vertices: 65536,
      edges: 1820242,
      idBytes: 8,
      source: 168,
      launches: 5,
      count: 146970,
      bytes: 14855040,
      bySize: { ...zeroBySize(), '32': 28128, '64': 14978, '96': 9320, '128': 94544 },
    })
  })
  it('4-B ids halve the useful bytes; the naive walk sends mostly 32-B reads', async () => {
    const [e8, e4] = await Promise.all([
      addon.predictGraph({ kernel: 'bfs-naive', graph: 'kron:12' }),
      addon.predictGraph({ kernel: 'bfs-naive', graph: 'kron:12', idBytes: 4 }),
    ])
    expect(e4.usefulBytes * 2).toBe(e8.usefulBytes)
    expect(e8.bySize['32'] / e8.count).toBeGreaterThan(0.9)
  })
  it('SSSP, CC, PageRank: aligned sends fewer reads than merged; SSSP reads a 4-B weight per id, PageRank every list every iteration', async () => {
    const kernels = ['sssp-merged', 'sssp-aligned', 'cc-merged', 'cc-aligned', 'pagerank-merged', 'pagerank-aligned'] as const
    const p = Object.fromEntries(
      await Promise.all(kernels.map(async (kernel) => [kernel, await addon.predictGraph({ kernel, graph: 'kron:10' })] as const)),
    )
    for (const algo of ['sssp', 'cc', 'pagerank']) {
      const merged = p[`${algo}-merged`]!
      const aligned = p[`${algo}-aligned`]!
      expect(aligned.count, algo).toBeLessThan(merged.count)
      expect(aligned.launches, algo).toBe(merged.launches)
      expect(aligned.usefulBytes, algo).toBe(merged.usefulBytes)
    }
    // 8-B id + 4-B weight per edge read; re-relaxation reads lists again, so more than the edges
    expect(p['sssp-aligned']!.usefulBytes % 12).toBe(0)
    expect(p['sssp-aligned']!.usefulBytes / 12).toBeGreaterThan(p['sssp-aligned']!.edges / 2)
    expect(p['pagerank-aligned']).toMatchObject({ launches: PAGERANK.iterations, usefulBytes: PAGERANK.iterations * p['pagerank-aligned']!.edges * 8 })
    expect(p['cc-aligned']!.launches).toBeGreaterThan(1)
  })
  it('l1Model lru: the scheduled model (132 SMs, an LRU L1 each) next to the ideal L1', async () => {
    const [ideal, lru] = await Promise.all([
      addon.predictGraph({ kernel: 'bfs-aligned', graph: 'kron:12' }),
      addon.predictGraph({ kernel: 'bfs-aligned', graph: 'kron:12', l1Model: 'lru' }),
    ])
    expect(ideal.l1Model).toBe('ideal')
    expect(lru.l1Model).toBe('lru')
    expect(lru.usefulBytes).toBe(ideal.usefulBytes)
    // lines shared by lists on different SMs are fetched once per SM, never fewer times
    expect(lru.count).toBeGreaterThanOrEqual(ideal.count)
    // SSSP, CC and PageRank too: the same launches and loads (SSSP's weights included)
    for (const kernel of ['sssp-aligned', 'cc-naive', 'pagerank-merged'] as const) {
      const [i, l] = await Promise.all([
        addon.predictGraph({ kernel, graph: 'kron:9' }),
        addon.predictGraph({ kernel, graph: 'kron:9', l1Model: 'lru' }),
      ])
      expect(l.l1Model, kernel).toBe('lru')
      expect(l.launches, kernel).toBe(i.launches)
      expect(l.usefulBytes, kernel).toBe(i.usefulBytes)
      expect(l.count, kernel).toBeGreaterThanOrEqual(i.count)
    }
    await expect(addon.predictGraph({ kernel: 'bfs-aligned', graph: 'kron:8', l1Model: 'fifo' as never })).rejects.toMatchObject({
      code: 'PS_WORKLOAD_INVALID',
      message: 'l1Model must be one of ideal, lru.',
    })
  })
  it('refuses bad requests and graphs with stable codes and one sentence, off the JS thread', async () => {
    await expect(addon.predictGraph({ kernel: 'dfs' as never, graph: 'kron:8' })).rejects.toMatchObject({ code: 'PS_WORKLOAD_INVALID' })
    await expect(addon.predictGraph({ kernel: 'bfs-naive', graph: 'kron:x' })).rejects.toMatchObject({
      code: 'PS_GRAPH_BAD_SPEC',
      message: expect.stringMatching(ONE_SENTENCE),
    })
    await expect(addon.predictGraph({ kernel: 'bfs-naive', graph: 'kron:8', source: 256 })).rejects.toMatchObject({ code: 'PS_GRAPH_BAD_SOURCE' })
    await expect(addon.predictGraph({ kernel: 'bfs-naive', graph: 'file:/nonexistent.mtx' })).rejects.toMatchObject({
      code: expect.stringMatching(/^PS_GRAPH_/),
    })
  })
})

describe('predict (traffic model in process)', () => {
  it('merged-aligned 1 MiB: 8192 reads of 128 B', () => {
    const p = addon.predictSync({ pattern: 'merged-aligned', bytes: MiB, offset: 0 })
    expect(p).toEqual({
      count: 8192,
      bytes: MiB,
      instructions: 8192,
      predictedGbps: expect.any(Number) as number,
      bySize: { ...zeroBySize(), '128': 8192 },
    })
    // the bandwidth model on the spec's H100 host: near the Gen5 x16 128-B ceiling, below it
    expect(p.predictedGbps).toBeGreaterThan(35)
    expect(p.predictedGbps).toBeLessThan(52)
  })
  it('strided 1 MiB: 32768 reads of 32 B (ideal L1), 262144 with L1 bypassed', () => {
    expect(addon.predictSync({ pattern: 'strided', bytes: MiB, offset: 0 })).toMatchObject({
      count: 32768,
      bytes: MiB,
      bySize: { ...zeroBySize(), '32': 32768 },
    })
    expect(addon.predictSync({ pattern: 'strided', bytes: MiB, offset: 0, l1: 'bypass' })).toMatchObject({ count: MiB / 4, bytes: MiB * 8 })
  })
  it('strided 32 MiB with l1Model lru: 8 blocks per SM overflow the L1, which loses lines at random (docs/gpu-model.md)', async () => {
    const w = { pattern: 'strided', bytes: 32 * MiB, offset: 0, elementBytes: 16 } as const
    expect(addon.predictSync(w).count).toBe((32 * MiB) / 32)
    expect((await addon.predict({ ...w, l1Model: 'lru' })).count).toBe(1092595) // the spec's fitted random L1
    // 16 MiB keeps at most 4 blocks per SM: the LRU L1 holds every line, the ideal count
    expect(addon.predictSync({ ...w, bytes: 16 * MiB, l1Model: 'lru' }).count).toBe((16 * MiB) / 32)
    expect(() => addon.predictSync({ ...w, l1Model: 'lfu' as never })).toThrow(/l1Model must be one of ideal, lru/)
  })

  it('merged-misaligned +32 1 MiB: 8192 pairs of 96 + 32 B; the offset defaults to the pattern’s', async () => {
    const want = { count: 16384, bytes: MiB, bySize: { ...zeroBySize(), '32': 8192, '96': 8192 } }
    expect(addon.predictSync({ pattern: 'merged-misaligned', bytes: MiB, offset: 32 })).toMatchObject(want)
    expect(await addon.predict({ pattern: 'merged-misaligned', bytes: MiB } as never)).toMatchObject(want)
  })
  it('predict() leaves the event loop free during a 256-MiB strided prediction', async () => {
    let ticks = 0
    const timer = setInterval(() => ticks++, 5)
    const p = await addon.predict({ pattern: 'strided', bytes: 256 * MiB, offset: 0 })
    clearInterval(timer)
    expect(p.count).toBe((256 * MiB) / 32)
    expect(ticks).toBeGreaterThan(2)
  })
  it('refuses bad workloads with PS_WORKLOAD_INVALID and one sentence (sync throws, async rejects)', async () => {
    for (const w of [
      { pattern: 'zigzag', bytes: 4, offset: 0 },
      { pattern: 'strided', bytes: 6, offset: 0 },
      { pattern: 'strided', bytes: 2 ** 31, offset: 0 },
      { pattern: 'strided', bytes: 128, offset: 2 },
      { pattern: 'strided', bytes: 128, offset: 0, l1: 'sometimes' },
      { pattern: 'strided', bytes: 128, offset: 0, elementBytes: 3 },
    ]) {
      expect(() => addon.predictSync(w as never)).toThrow(expect.objectContaining({ code: 'PS_WORKLOAD_INVALID', message: expect.stringMatching(ONE_SENTENCE) }))
      await expect(addon.predict(w as never)).rejects.toMatchObject({ code: 'PS_WORKLOAD_INVALID' })
    }
  })
  it('reports the lane widths its model predicts', () => {
    expect(addon.model.elementBytes).toContain(4)
    for (const e of addon.model.elementBytes) {
      expect(addon.predictSync({ pattern: 'merged-aligned', bytes: MiB, offset: 0, elementBytes: e }).bySize['128']).toBe(8192)
    }
  })
  it('gives the link rate of native/model/link.h (gen3x16 14.21 GB/s of TLPs)', () => {
    expect(addon.linkTlpBytesPerSecond(3, 16)! / 1e9).toBeCloseTo(14.21, 2)
    expect(addon.linkTlpBytesPerSecond(3, 3)).toBeNull()
  })
})

// on a GPU host addon-gpu.int.test.ts takes over
const GPU_SKIP = gpuPresent() ? ' (skipped: a GPU is present)' : ''

describe.skipIf(GPU_SKIP !== '')(`GPU runs without a usable GPU${GPU_SKIP}`, () => {
  const noGpu = ['PS_GPU_NOT_BUILT', 'PS_GPU_NO_DEVICE']
  it('gpuRun rejects with PS_GPU_NOT_BUILT or PS_GPU_NO_DEVICE and one sentence; cancel() is harmless', async () => {
    const h = addon.gpuRun({ pattern: 'merged-aligned', bytes: MiB, offset: 0 }, () => undefined)
    h.cancel()
    const err = (await h.promise.catch((e: unknown) => e)) as { code: string; message: string }
    expect(err).toBeInstanceOf(Error)
    expect(noGpu).toContain(err.code)
    expect(err.message).toMatch(ONE_SENTENCE)
    await expect(addon.gpuDevices()).rejects.toMatchObject({ code: expect.stringMatching(/^PS_GPU_(NOT_BUILT|NO_DEVICE)$/) })
  })
  it('gpuGraphRun answers PS_GPU_NOT_BUILT or PS_GPU_NO_DEVICE, and bad arguments PS_GPU_BAD_ARGUMENT', async () => {
    const err = (await addon.gpuGraphRun({ kernel: 'bfs-aligned', graph: 'kron:8' }).promise.catch((e: unknown) => e)) as { code: string }
    expect(noGpu).toContain(err.code)
    await expect(addon.gpuGraphRun({ kernel: 'bfs-aligned', graph: 'kron:8', memory: 'tape' as never }).promise).rejects.toMatchObject({
      code: expect.stringMatching(/^PS_GPU_(BAD_ARGUMENT|NOT_BUILT)$/),
    })
  })
  it('gpuRun refuses bad arguments with PS_GPU_BAD_ARGUMENT before anything else', async () => {
    await expect(addon.gpuRun({ pattern: 'strided', bytes: 'many' } as never).promise).rejects.toMatchObject({ code: 'PS_GPU_BAD_ARGUMENT' })
  })
  it('the GPU runner answers PS_GPU_UNAVAILABLE and availability says why', async () => {
    await expect(new GpuWorkloadRunner(addon).run({ pattern: 'strided', bytes: 4096, offset: 0 })).rejects.toMatchObject({
      code: 'PS_GPU_UNAVAILABLE',
    })
    const a = await gpuAvailability(() => addon)
    expect(a.available).toBe(false)
    if (!a.available) expect(noGpu).toContain(a.code)
  })
})
