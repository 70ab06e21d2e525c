// The real native addon ON A GPU: gpuRun on its own thread (the event loop and libuv's pool stay
// free), every progress report delivered in order, cancellation, and the GPU workload runner's
// result (checksum, ratios, the model's prediction beside it). Where `nvidia-smi -L` lists no
// GPU, or the addon was built without CUDA, the tests are skipped and their titles say why.
import { spawnSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadAddon, type GpuProgress, type NativeAddon } from '../../../host/src/native/addon.js'
import { GpuWorkloadRunner } from '../../../host/src/workload/gpu-runner.js'
import { gpuPresent } from '../cuda/gpu-runner.js'

const root = resolve(import.meta.dirname, '../../..')
const MiB = 1 << 20
const GPU = gpuPresent()
const SKIP = GPU ? '' : ' (skipped: no GPU, `nvidia-smi -L` lists none)'
let addon: NativeAddon

beforeAll(() => {
  if (!GPU) return
  const r = spawnSync(process.execPath, [resolve(root, 'scripts/build-native.mjs')], { cwd: root, encoding: 'utf8' })
  expect(r.status, r.stdout + r.stderr).toBe(0)
  addon = loadAddon()
  expect(addon.cudaBuilt, 'a GPU host with nvcc must build the addon with CUDA').toBe(true)
})

describe(`native addon on a GPU${SKIP}`, () => {
  it.skipIf(!GPU)(`gpuDevices names the GPU with its PCIe link${SKIP}`, async () => {
    const devs = await addon.gpuDevices()
    expect(devs.length).toBeGreaterThan(0)
    expect(devs[0]).toMatchObject({ name: expect.any(String), pcieGen: expect.any(Number), pcieWidth: expect.any(Number) })
  })

  it.skipIf(!GPU)(`gpuRun keeps the event loop and the libuv pool free, and reports progress in order${SKIP}`, async () => {
    const seen: GpuProgress[] = []
    let ticks = 0
    let reads = 0
    const timer = setInterval(() => ticks++, 5)
    // file reads go through libuv's pool: they must keep completing while the GPU run holds its thread
    const reader = (async () => {
      for (let i = 0; i < 200 && seen.at(-1)?.phase !== 'memcpy'; i++) {
        await readFile(resolve(root, 'package.json'))
        reads++
      }
    })()
    const h = addon.gpuRun({ pattern: 'merged-aligned', bytes: 256 * MiB, offset: 0, warmup: 2, repeats: 9 }, (p) => seen.push(p))
    const r = await h.promise
    clearInterval(timer)
    await reader
    expect(r.checksum.ok).toBe(true)
    expect(r.kernelGbps).toBeGreaterThan(0)
    expect(ticks).toBeGreaterThan(2)
    expect(reads).toBeGreaterThan(2)
    // phases in the runner's order; within each, done counts up from 0 by one, never past total
    const phases = [...new Set(seen.map((p) => p.phase))]
    expect(phases).toEqual(['fill', 'warmup', 'kernel', 'memcpy'])
    for (const ph of phases) {
      const ps = seen.filter((p) => p.phase === ph)
      expect(ps.map((p) => p.done)).toEqual([...Array(ps.length).keys()])
      expect(ps.at(-1)!.done).toBeLessThanOrEqual(ps[0]!.total)
    }
    expect(seen.filter((p) => p.phase === 'kernel').at(-1)).toMatchObject({ done: 9, total: 9 })
  })

  it.skipIf(!GPU)(`cancel() stops a long run with PS_GPU_CANCELLED${SKIP}`, async () => {
    // progress arrives on the JS thread after gpuRun returned, so `h` is set by then
    const h: ReturnType<NativeAddon['gpuRun']> = addon.gpuRun({ pattern: 'strided', bytes: 1024 * MiB, offset: 0, warmup: 0, repeats: 200 }, (p) => {
      if (p.phase === 'kernel' && p.done === 1) h.cancel()
    })
    const t0 = performance.now()
    await expect(h.promise).rejects.toMatchObject({ code: 'PS_GPU_CANCELLED' })
    // 200 strided passes over 1 GiB take tens of seconds; a cancelled run ends within a few
    expect(performance.now() - t0).toBeLessThan(20_000)
  })

  it.skipIf(!GPU)(`gpuGraphRun: BFS on kron:16 over zero-copy, levels equal to the CPU's, aligned faster than naive${SKIP}`, async () => {
    const run = (kernel: 'bfs-naive' | 'bfs-aligned') => addon.gpuGraphRun({ kernel, graph: 'kron:16', repeats: 3 }).promise
    const naive = await run('bfs-naive')
    const aligned = await run('bfs-aligned')
    for (const r of [naive, aligned]) {
      expect(r.levels).toEqual({ ok: true, mismatches: 0 })
      expect(r).toMatchObject({ vertices: 65536, edges: 1820242, source: 168, edgesRead: 1820226 })
    }
    expect(aligned.bfs.medianMs).toBeLessThan(naive.bfs.medianMs)
  })

  it.skipIf(!GPU)(`the GPU workload runner gives ratios, the checksum and the model's prediction${SKIP}`, async () => {
    const r = await new GpuWorkloadRunner(addon).run({ pattern: 'merged-aligned', bytes: 64 * MiB, offset: 0 })
    expect(r.gpu?.checksum.ok).toBe(true)
    expect(r.gpu!.ratioToMemcpy).toBeGreaterThan(0)
    expect(r.issued.count).toBe((64 * MiB) / 128)
  })
})
