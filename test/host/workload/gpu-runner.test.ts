import { describe, expect, it } from 'vitest'
import { PsError } from '../../../host/src/core/errors.js'
import { ceiling128Gbps, gpuAvailability, gpuError, GpuWorkloadRunner } from '../../../host/src/workload/gpu-runner.js'
import { FAKE_DEVICE, makeFakeAddon, nativeError } from './fake-addon.js'
import { zeroBySize } from '../../../host/src/core/size-classes.js'

describe('GpuWorkloadRunner', () => {
  it('predicts, runs and reports the GPU section beside the prediction', async () => {
    const addon = makeFakeAddon()
    const runner = new GpuWorkloadRunner(addon, { repeats: 3, warmup: 1 })
    expect(runner.kind).toBe('cuda')
    const r = await runner.run({ pattern: 'merged-misaligned', bytes: 1 << 20, offset: 32 })
    expect(addon.runs).toEqual([{ pattern: 'merged-misaligned', bytes: 1 << 20, offset: 32, repeats: 3, warmup: 1 }])
    expect(r.issued).toEqual({ count: 16384, bytes: 1 << 20, bySize: { ...zeroBySize(), '32': 8192, '96': 8192 } })
    expect(r.completions).toBe(16384)
    expect(r.simCycles).toBe(0)
    const gpu = r.gpu!
    expect(gpu.predicted).toEqual(r.issued)
    expect(gpu.device).toEqual(FAKE_DEVICE)
    expect(gpu.kernelGbps).toBe(50)
    expect(gpu.ratioToMemcpy).toBeCloseTo(50 / 55, 12)
    // gen5 x16: TLP rate x 128 / (128 + 20)
    expect(gpu.ceiling128Gbps).toBeCloseTo((56850030247.169395 * 128) / 148 / 1e9, 9)
    expect(gpu.ratioToCeiling128).toBeCloseTo(50 / gpu.ceiling128Gbps!, 12)
    expect(gpu.checksum.ok).toBe(true)
  })

  it("runs a graph kernel: the model's MRds, then the BFS on the GPU over the chosen edge-list memory", async () => {
    const addon = makeFakeAddon()
    const predicted = { count: 7, bytes: 896, instructions: 7, bySize: { ...zeroBySize(), '128': 7 } }
    const asked: unknown[] = []
    addon.predictGraph = async (w) => {
      asked.push(w)
      return {
        ...predicted,
        kernel: w.kernel,
        graph: w.graph,
        vertices: 256,
        edges: 7000,
        idBytes: 4,
        source: 9,
        l1: 'ideal',
        l1Model: 'ideal',
        launches: 4,
        usefulBytes: 800,
      }
    }
    addon.gpuGraphRun = (req) => {
      asked.push(req)
      const result = {
        kernel: req.kernel,
        graph: req.graph,
        vertices: 256,
        edges: 7000,
        idBytes: 4,
        source: req.source!,
        device: { ...FAKE_DEVICE },
        bfs: { medianMs: 2, minMs: 1, maxMs: 3 },
        launches: 4,
        reached: 250,
        edgesRead: 6990,
        edgeBytes: 27960,
        gteps: 0.0035,
        edgeGbps: 0.014,
        levels: { ok: true, mismatches: 0 },
      }
      return { promise: Promise.resolve(result), cancel: () => undefined }
    }
    const runner = new GpuWorkloadRunner(addon, { repeats: 2, graphMemory: 'uvm' })
    const r = await runner.run({ pattern: 'bfs-aligned', graph: 'kron:8', idBytes: 4 })
    expect(asked).toEqual([
      { kernel: 'bfs-aligned', graph: 'kron:8', idBytes: 4 },
      { kernel: 'bfs-aligned', graph: 'kron:8', idBytes: 4, source: 9, memory: 'uvm', repeats: 2 },
    ])
    expect(r.issued).toEqual({ count: 7, bytes: 896, bySize: predicted.bySize })
    expect(r.graph).toEqual({ graph: 'kron:8', vertices: 256, edges: 7000, idBytes: 4, sourceVertex: 9, launches: 4 })
    expect(r.gpuGraph).toMatchObject({ memory: 'uvm', reached: 250, edgesRead: 6990, gteps: 0.0035, levels: { ok: true } })
    expect(r.gpu).toBeUndefined()
  })

  it("a graph the model cannot load is the user's input: PS_WORKLOAD_INVALID", async () => {
    const addon = makeFakeAddon()
    addon.predictGraph = () => Promise.reject(nativeError('PS_GRAPH_IO', 'cannot open graph file /x.mtx.'))
    await expect(new GpuWorkloadRunner(addon).run({ pattern: 'bfs-naive', graph: 'file:/x.mtx' })).rejects.toMatchObject({
      code: 'PS_WORKLOAD_INVALID',
      message: 'cannot open graph file /x.mtx. (PS_GRAPH_IO)',
    })
  })

  it('refuses an invalid workload before touching the GPU', async () => {
    const addon = makeFakeAddon()
    await expect(new GpuWorkloadRunner(addon).run({ pattern: 'strided', bytes: 6, offset: 0 })).rejects.toMatchObject({
      code: 'PS_WORKLOAD_INVALID',
    })
    expect(addon.runs).toHaveLength(0)
  })

  it('delivers every progress report in order', async () => {
    const progress = [
      { phase: 'fill', done: 1, total: 1 },
      { phase: 'kernel', done: 1, total: 2 },
      { phase: 'kernel', done: 2, total: 2 },
    ]
    const seen: unknown[] = []
    await new GpuWorkloadRunner(makeFakeAddon({ progress }), { onProgress: (p) => seen.push(p) }).run({
      pattern: 'strided',
      bytes: 4096,
      offset: 0,
    })
    expect(seen).toEqual(progress)
  })

  it('turns an abort into cancel() and PS_GPU_CANCELLED', async () => {
    const addon = makeFakeAddon({ gpu: 'wait-for-cancel' })
    const ac = new AbortController()
    const p = new GpuWorkloadRunner(addon).run({ pattern: 'strided', bytes: 4096, offset: 0 }, ac.signal)
    await new Promise((r) => setTimeout(r, 10))
    ac.abort()
    await expect(p).rejects.toMatchObject({ code: 'PS_GPU_CANCELLED' })
    expect(addon.cancels).toBe(1)
  })

  it('does not start a run whose signal is already aborted', async () => {
    const addon = makeFakeAddon()
    const ac = new AbortController()
    ac.abort()
    await expect(new GpuWorkloadRunner(addon).run({ pattern: 'strided', bytes: 4096, offset: 0 }, ac.signal)).rejects.toMatchObject({
      code: 'PS_GPU_CANCELLED',
    })
    expect(addon.runs).toHaveLength(0)
  })

  it.each([
    ['PS_GPU_NOT_BUILT', 'PS_GPU_UNAVAILABLE'],
    ['PS_GPU_NO_DEVICE', 'PS_GPU_UNAVAILABLE'],
    ['PS_GPU_CUDA', 'PS_GPU_FAILED'],
    ['PS_GPU_CHECKSUM', 'PS_GPU_CHECKSUM'],
    ['PS_GPU_BAD_ARGUMENT', 'PS_WORKLOAD_INVALID'],
  ])('maps the addon code %s to %s, keeping its sentence', async (nativeCode, code) => {
    const addon = makeFakeAddon({ gpu: { reject: nativeError(nativeCode, 'the GPU said no.') } })
    const err = await new GpuWorkloadRunner(addon).run({ pattern: 'strided', bytes: 4096, offset: 0 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(PsError)
    expect(err).toMatchObject({ code, message: `the GPU said no. (${nativeCode})` })
  })
})

describe('gpuError', () => {
  it('keeps PsErrors and wraps anything else as PS_GPU_FAILED', () => {
    const ps = new PsError('PS_GPU_CANCELLED', 'x')
    expect(gpuError(ps)).toBe(ps)
    expect(gpuError(new Error('boom'))).toMatchObject({ code: 'PS_GPU_FAILED', message: 'GPU run failed: boom' })
    expect(gpuError('odd')).toMatchObject({ code: 'PS_GPU_FAILED' })
  })
})

describe('ceiling128Gbps', () => {
  it('is null for an unknown link', () => {
    const addon = makeFakeAddon()
    expect(ceiling128Gbps(addon, { ...FAKE_DEVICE, pcieGen: -1 })).toBeNull()
    expect(ceiling128Gbps(addon, { ...FAKE_DEVICE, pcieGen: 4 })).toBeNull()
  })
})

describe('gpuAvailability', () => {
  it('lists the devices when there are any', async () => {
    expect(await gpuAvailability(() => makeFakeAddon())).toEqual({ available: true, devices: [FAKE_DEVICE] })
  })
  it('gives the reason when the addon is missing, built without CUDA, or finds no device', async () => {
    const missing = await gpuAvailability(() => {
      throw new PsError('PS_NATIVE_NOT_BUILT', 'not built; run npm run build:native')
    })
    expect(missing).toEqual({ available: false, code: 'PS_NATIVE_NOT_BUILT', reason: 'not built; run npm run build:native' })
    const noCuda = await gpuAvailability(() =>
      makeFakeAddon({ cudaBuilt: false, devices: { reject: nativeError('PS_GPU_NOT_BUILT', 'built without CUDA.') } }),
    )
    expect(noCuda).toEqual({ available: false, code: 'PS_GPU_NOT_BUILT', reason: 'built without CUDA. (PS_GPU_NOT_BUILT)' })
    expect(await gpuAvailability(() => makeFakeAddon({ devices: [] }))).toMatchObject({ available: false, code: 'PS_GPU_NO_DEVICE' })
  })
})
