// native/cuda ON A GPU: correctness of every kernel (checksum against the CPU) and the
// bandwidth targets for merged-aligned on a PCIe Gen5 x16 GPU (>= 0.88 x cudaMemcpy in the same
// run, >= 95 % of the project's 128-B ceiling). Where `nvidia-smi -L` lists no GPU the tests are
// skipped, and their titles say so.
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { GRAPH_KERNELS } from '../../../host/src/core/generated.js'
import { ELEMENT_BYTES, L1_LOADS, PATTERNS } from '../../../host/src/core/workload.js'
import { buildRunner, gpuPresent, runRunner } from './gpu-runner.js'

const GPU = gpuPresent()
const SKIP = GPU ? '' : ' (skipped: no GPU, `nvidia-smi -L` lists none)'

/** Max PCIe generation and width of GPU 0 as nvidia-smi reports them, or undefined. */
function link(): { gen: number; width: number } | undefined {
  if (!GPU) return undefined
  const r = spawnSync('nvidia-smi', ['-i', '0', '--query-gpu=pcie.link.gen.max,pcie.link.width.max', '--format=csv,noheader,nounits'], {
    encoding: 'utf8',
  })
  const [gen, width] = (r.stdout ?? '').split(',').map((s) => Number(s.trim()))
  return Number.isInteger(gen) && Number.isInteger(width) ? { gen: gen!, width: width! } : undefined
}
const LINK = link()
const GEN5X16 = LINK?.gen === 5 && LINK.width === 16
const RATIO_SKIP = !GPU ? SKIP : GEN5X16 ? '' : ` (skipped: the targets are set for Gen5 x16; this GPU's link is ${LINK ? `gen${LINK.gen}x${LINK.width}` : 'unknown'})`

const runner = () => {
  const b = buildRunner('gpu-test', [])
  expect(b.status, b.output).toBe(0)
  expect(b.output).toContain('(CUDA)')
  return b.binary
}

describe(`native/cuda on a GPU${SKIP}`, () => {
  it.skipIf(!GPU)(`--list-devices names the GPU with its link and versions${SKIP}`, () => {
    const out = runRunner(runner(), ['--list-devices'])
    expect(out.status, out.stdout + out.stderr).toBe(0)
    const list = out.objects[0] as { cudaBuilt: boolean; devices: Record<string, unknown>[] }
    expect(list.cudaBuilt).toBe(true)
    expect(list.devices.length).toBeGreaterThan(0)
    expect(list.devices[0]).toMatchObject({ name: expect.any(String), smCount: expect.any(Number), driverVersion: expect.any(Number) })
  })

  it.skipIf(!GPU)(`every pattern x width x L1 kernel reads exactly its bytes (checksum = CPU's)${SKIP}`, () => {
    const out = runRunner(runner(), ['--suite', 'micro', '--bytes', String(64 << 20), '--warmup', '1', '--repeats', '3'])
    expect(out.status, out.stdout + out.stderr).toBe(0)
    expect(out.objects).toHaveLength(PATTERNS.length * ELEMENT_BYTES.length * L1_LOADS.length)
    for (const o of out.objects) {
      expect(o.error, JSON.stringify(o)).toBeUndefined()
      expect((o.checksum as { ok: boolean }).ok, JSON.stringify(o)).toBe(true)
      expect(o.kernelGbps as number).toBeGreaterThan(0)
    }
    // a misaligned offset with every width it allows
    for (const e of ELEMENT_BYTES) {
      const one = runRunner(runner(), ['--pattern', 'merged-misaligned', '--offset', '96', '--element-bytes', String(e), '--bytes', String(8 << 20)])
      expect(one.status, one.stdout).toBe(0)
      expect((one.objects[0]!.checksum as { ok: boolean }).ok).toBe(true)
    }
  })

  it.skipIf(!GPU || !GEN5X16)(`merged-aligned reaches >= 0.88 x cudaMemcpy and >= 95 % of the 128-B ceiling${RATIO_SKIP}`, () => {
    const out = runRunner(runner(), ['--pattern', 'merged-aligned', '--bytes', String(1 << 30), '--warmup', '2', '--repeats', '7'])
    expect(out.status, out.stdout + out.stderr).toBe(0)
    const r = out.objects[0] as { ratioToMemcpy: number; ratioToCeiling128: number | null }
    console.log(`merged-aligned 1 GiB: ${JSON.stringify(r)}`)
    expect(r.ratioToMemcpy).toBeGreaterThanOrEqual(0.88)
    expect(r.ratioToCeiling128).not.toBeNull()
    expect(r.ratioToCeiling128!).toBeGreaterThanOrEqual(0.95)
  })

  it.skipIf(!GPU)(`every BFS kernel x memory reproduces the CPU's levels; aligned zero-copy reads faster than naive${SKIP}`, () => {
    const out = runRunner(runner(), ['--suite', 'graph', '--graph', 'kron:18', '--warmup', '1', '--repeats', '3'])
    expect(out.status, out.stdout + out.stderr).toBe(0)
    expect(out.objects).toHaveLength(GRAPH_KERNELS.length * 4)
    for (const o of out.objects) {
      expect(o.error, JSON.stringify(o)).toBeUndefined()
      expect(o.levels, JSON.stringify(o)).toEqual({ ok: true, mismatches: 0 })
      expect(o.edgeGbps as number).toBeGreaterThan(0)
    }
    const zc = (k: string) => out.objects.find((o) => o.pattern === k && o.memory === 'zerocopy')!
    console.log(`BFS kron:18 zero-copy: ${GRAPH_KERNELS.map((k) => `${k} ${String(zc(k).edgeGbps)} GB/s`).join(', ')}`)
    expect(zc('bfs-aligned').edgeGbps as number).toBeGreaterThan(zc('bfs-naive').edgeGbps as number)
  })
})
