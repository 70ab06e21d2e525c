// native/cuda without a GPU (CI has nvcc but no GPU): the kernels' per-thread body run on the CPU
// for every thread, the runner built with nvcc (where present) and as the stub, its exit codes,
// stable error codes and JSON contract (docs/contracts.md, "GPU runner").
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { GRAPH_KERNELS } from '../../../host/src/core/generated.js'
import { PATTERNS } from '../../../host/src/core/workload.js'
import { buildRunner, gpuPresent, hasNvcc, root, runRunner } from './gpu-runner.js'

const ninja = spawnSync('ninja', ['--version']).status === 0 ? ['-G', 'Ninja'] : []
const GPU = gpuPresent()
const NVCC = hasNvcc()
const NO_DEVICE_SKIP = GPU ? 'a GPU is present' : !NVCC ? 'nvcc is absent, the runner is the stub' : undefined
const CODES = ['PS_GPU_OK', 'PS_GPU_NOT_BUILT', 'PS_GPU_NO_DEVICE', 'PS_GPU_BAD_ARGUMENT', 'PS_GPU_CANCELLED', 'PS_GPU_CUDA', 'PS_GPU_CHECKSUM']

function run(cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 16 << 20 })
  if (r.error) throw r.error
  return r
}

const hostTests = resolve(root, 'build/cuda-tests')
function buildHostTests() {
  if (!existsSync(resolve(hostTests, 'CMakeCache.txt'))) {
    const cfg = run('cmake', ['-S', resolve(root, 'test/native/cuda'), '-B', hostTests, ...ninja, '-DCMAKE_BUILD_TYPE=Release'])
    expect(cfg.status, cfg.stdout + cfg.stderr).toBe(0)
  }
  const b = run('cmake', ['--build', hostTests, '--parallel'])
  expect(b.status, b.stdout + b.stderr).toBe(0)
}

/** The error object of a failed command: {"error":{"code","message"}} with one sentence. */
function errorOf(out: { objects: Record<string, unknown>[]; stdout: string }): { code: string; message: string } {
  expect(out.objects, out.stdout).toHaveLength(1)
  const e = out.objects[0]!.error as { code: string; message: string }
  expect(CODES).toContain(e.code)
  expect(e.message).toMatch(/^[^\n]{10,400}$/) // one line, one sentence
  expect(e.message.split(/[.!?] /)).toHaveLength(1)
  return e
}

describe('native/cuda host tests (kernel body on the CPU)', () => {
  it('builds and passes its unit tests', () => {
    buildHostTests()
    const t = run(resolve(hostTests, 'cuda-tests'), [])
    const lines = t.stdout.trim().split('\n')
    const m = /^(\d+) passed, (\d+) failed$/.exec(lines[lines.length - 1] ?? '')
    expect(m, t.stdout + t.stderr).not.toBeNull()
    expect(Number(m![2]), t.stdout + t.stderr).toBe(0)
    expect(Number(m![1])).toBeGreaterThanOrEqual(5)
    expect(t.status).toBe(0)
  })

  it('the runner JSON: valid objects with the documented camelCase fields, nulls where NVML is missing', () => {
    buildHostTests()
    const t = run(resolve(hostTests, 'runner-json-sample'), [])
    expect(t.status).toBe(0)
    const [ok, mismatch, cudaErr, noDev] = t.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>)
    expect(Object.keys(ok!)).toEqual([
      'pattern',
      'bytes',
      'offset',
      'elementBytes',
      'l1',
      'hostMemory',
      'warmup',
      'repeats',
      'launch',
      'kernel',
      'memcpyH2d',
      'payloadBytes',
      'kernelGbps',
      'memcpyGbps',
      'ratioToMemcpy',
      'ceiling128Gbps',
      'ratioToCeiling128',
      'checksum',
      'device',
    ])
    expect(ok).toMatchObject({ pattern: 'merged-misaligned', bytes: 1 << 20, offset: 32, elementBytes: 16, l1: 'bypass', hostMemory: 'hostAlloc' })
    expect(ok!.launch).toEqual({ threads: 65536, blocks: 256, blockThreads: 256, gridWarps: 8448 })
    expect(ok!.kernel).toEqual({ medianMs: 0.0215, minMs: 0.021, maxMs: 0.023 })
    expect(ok!.checksum).toEqual({ gpu: '0xfedcba9876543210', cpu: '0xfedcba9876543210', ok: true })
    // Gen5 x16: the project's 128-B ceiling (link.h: 128 of 148 wire bytes per completion)
    expect(ok!.ceiling128Gbps).toBeCloseTo(49.17, 1)
    expect(ok!.ratioToCeiling128).toBeCloseTo(ok!.kernelGbps / ok!.ceiling128Gbps, 4)
    expect(ok!.device).toMatchObject({
      name: 'Test "GPU"',
      pcieGen: 5,
      pcieWidth: 16,
      computeCapability: '9.0',
      driverVersion: 13000,
      nvidiaDriver: '580.65.06',
    })
    expect(mismatch!.error).toEqual({ code: 'PS_GPU_CHECKSUM', message: "the kernel's checksum differs" })
    expect(mismatch!.checksum.ok).toBe(false)
    expect(mismatch!.ceiling128Gbps).toBeNull()
    expect(mismatch!.device.pcieGen).toBeNull()
    expect(mismatch!.device.nvidiaDriver).toBeNull()
    expect(cudaErr!.kernel).toBeUndefined()
    expect(cudaErr!.error.code).toBe('PS_GPU_CUDA')
    expect(noDev).toEqual({ error: { code: 'PS_GPU_NO_DEVICE', message: 'no CUDA device is usable on this machine: none' } })
  })
})

describe('the stub runner (-DPS_ENABLE_CUDA=OFF)', () => {
  const stub = () => {
    const b = buildRunner('gpu-stub', ['--no-cuda'])
    expect(b.status, b.output).toBe(0)
    expect(b.output).toMatch(/PS_ENABLE_CUDA=OFF: building the stub|stub without CUDA/)
    return b.binary
  }

  it('says PS_GPU_NOT_BUILT with exit 3 for --list-devices, a run and the suite', () => {
    const bin = stub()
    for (const args of [['--list-devices'], ['--pattern', 'merged-aligned', '--bytes', '4096'], ['--suite', 'micro'], ['--pattern', 'bfs-aligned'], ['--suite', 'graph']]) {
      const out = runRunner(bin, args)
      expect(out.status, args.join(' ')).toBe(3)
      const e = errorOf(out)
      expect(e.code).toBe('PS_GPU_NOT_BUILT')
      expect(e.message).toMatch(/no CUDA support/)
    }
  })

  it('still checks its arguments: usage errors exit 2 with PS_GPU_BAD_ARGUMENT', () => {
    const bin = stub()
    const out = runRunner(bin, ['--pattern', 'strided', '--offset', '8', '--element-bytes', '16'])
    expect(out.status).toBe(2)
    expect(errorOf(out)).toMatchObject({ code: 'PS_GPU_BAD_ARGUMENT', message: expect.stringMatching(/aligned loads/) })
  })
})

describe('pcie-scope-model (the traffic model for one workload, for bench/gpu-ncu.mjs)', () => {
  it('predicts MRd count, size mix and the GPU-side PCIe byte counters; bad arguments exit 2', () => {
    const b = buildRunner('gpu-stub', ['--no-cuda'])
    expect(b.status, b.output).toBe(0)
    const model = resolve(root, 'build/gpu-stub/pcie-scope-model')
    const n = 1 << 20
    const a = runRunner(model, ['--pattern', 'merged-aligned', '--bytes', String(n)])
    expect(a.status).toBe(0)
    expect(a.objects[0]).toMatchObject({
      pattern: 'merged-aligned',
      offset: 0,
      elementBytes: 4,
      l1: 'ideal',
      mrd: { count: n / 128, bySize: { '128': n / 128 }, bytes: n },
      pcieWriteBytes: (16 * n) / 128,
      pcieReadBytes: n + (12 * n) / 128,
      sectorsPerRequest: 4,
    })
    const s = runRunner(model, ['--pattern', 'strided', '--bytes', String(n), '--element-bytes', '8', '--l1', 'bypass'])
    expect(s.objects[0]).toMatchObject({ mrd: { count: n / 8, bySize: { '32': n / 8 } }, sectorsPerRequest: 1 })
    const m = runRunner(model, ['--pattern', 'merged-misaligned', '--bytes', String(n)])
    expect(m.objects[0]).toMatchObject({ offset: 32, mrd: { bySize: { '32': n / 128, '96': n / 128 } } })
    // the scheduled model: 1 MiB of strided walks keeps under 4 blocks per SM, so its LRU L1 holds every line
    const lru = runRunner(model, ['--pattern', 'strided', '--bytes', String(n), '--l1-model', 'lru', '--warp-order', 'greedy'])
    expect(lru.objects[0]).toMatchObject({ l1Model: 'lru', mrd: { count: n / 32 } })
    expect(a.objects[0]).toMatchObject({ l1Model: 'ideal' })
    for (const bad of [
      ['--bytes', '64'],
      ['--pattern', 'zig', '--bytes', '64'],
      ['--pattern', 'strided', '--bytes', '64', '--offset', '8', '--element-bytes', '16'],
      ['--pattern', 'strided', '--bytes', '64', '--l1-model', 'fifo'],
      ['--pattern', 'strided', '--bytes', '64', '--warp-order', 'oldest'],
    ]) {
      const r = runRunner(model, bad)
      expect(r.status, bad.join(' ')).toBe(2)
      expect((r.objects[0]!.error as { code: string }).code).toBe('PS_MODEL_BAD_ARGUMENT')
    }
  })
})

describe(`the CUDA runner (${NVCC ? 'built with nvcc' : 'nvcc absent: the build falls back to the stub'})`, () => {
  // one architecture is enough to prove the kernels compile where no GPU will run them
  const built = () => {
    const b = buildRunner('gpu-test', GPU ? [] : ['--archs', '90'])
    expect(b.status, b.output).toBe(0)
    expect(b.output).toContain(NVCC ? '(CUDA)' : 'stub without CUDA')
    return b.binary
  }

  it('rejects bad command lines with exit 2, the stable code and one sentence', () => {
    const bin = built()
    const cases: [string[], RegExp][] = [
      [[], /exactly one of --pattern, --suite micro, --suite graph, --list-devices/],
      [['--pattern', 'zigzag'], new RegExp(`one of ${PATTERNS.join(', ')}`)],
      [['--pattern', 'strided', '--bytes', '4097'], /bytes must be a multiple of 4/],
      [['--pattern', 'strided', '--bytes', '4100', '--element-bytes', '8'], /whole loads/],
      [['--pattern', 'strided', '--element-bytes', '12'], /element bytes must be one of 4, 8, 16/],
      [['--pattern', 'strided', '--l1', 'cg'], /--l1 must be one of ideal, bypass/],
      [['--pattern', 'strided', '--repeats', '0'], /repeats must be 1..1000/],
      [['--suite', 'macro'], /--suite needs a suite name: micro/],
      [['--suite', 'micro', '--offset', '32'], /default offset/],
      [['--pattern', 'strided', '--bogus'], /unknown argument --bogus/],
      [['--pattern', 'bfs-aligned', '--memory', 'pinned'], /--memory must be one of zerocopy, uvm, uvm-accessed-by, device/],
      [['--pattern', 'bfs-aligned', '--id-bytes', '2'], /--id-bytes must be 4 or 8/],
      [['--pattern', 'bfs-naive', '--offset', '32'], /apply to the microbenchmarks/],
      [['--pattern', 'strided', '--source', '3'], /go with a graph kernel/],
      [['--suite', 'graph', '--source', '3'], /default source/],
      [['--pattern', 'strided', '--chunk-bytes', '256'], /--chunk-bytes goes with --pattern merged-chunked/],
      [['--pattern', 'merged-chunked', '--chunk-bytes', '6'], /chunk bytes must be a multiple of 4/],
      [['--pattern', 'merged-chunked', '--element-bytes', '16', '--offset', '0', '--chunk-bytes', '24'], /multiple of the element bytes/],
      [['--pattern', 'strided', '--gpu-memory-limit', '1000'], /--gpu-memory-limit goes with a graph kernel/],
      [['--suite', 'micro', '--devices', 'all'], /--devices runs one micro pattern/],
    ]
    for (const [args, re] of cases) {
      const out = runRunner(bin, args)
      expect(out.status, args.join(' ')).toBe(2)
      const e = errorOf(out)
      expect(e.code).toBe('PS_GPU_BAD_ARGUMENT')
      expect(e.message).toMatch(re)
    }
  })

  it('--batch runs each line in one process: a bad line answers its error and the batch goes on', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ps-batch-'))
    const file = join(dir, 'runs.batch')
    writeFileSync(file, '# a comment\n\n--pattern strided --bytes 7\n--pattern merged-chunked --bytes 65536 --chunk-bytes 256\n')
    const out = runRunner(built(), ['--batch', file])
    expect(out.objects[0]!.error).toMatchObject({ code: 'PS_GPU_BAD_ARGUMENT', message: expect.stringMatching(/bytes must be/) })
    expect((out.objects[1]!.error as { code: string }).code).toMatch(/PS_GPU_NOT_BUILT|PS_GPU_NO_DEVICE/)
    expect(out.status).toBe(3)
    rmSync(dir, { recursive: true, force: true })
  })

  it('--help lists the spec patterns and exits 0', () => {
    const out = runRunner(built(), ['--help'])
    expect(out.status).toBe(0)
    expect(out.stdout).toContain(PATTERNS.join(', '))
    expect(out.stdout).toMatch(/--suite micro/)
    expect(out.stdout).toContain(GRAPH_KERNELS.join(', '))
    expect(out.stdout).toMatch(/--suite graph/)
  })

  it('a bad --graph answers PS_GRAPH_BAD_SPEC with exit 2 before any GPU work', () => {
    const out = runRunner(built(), ['--pattern', 'bfs-aligned', '--graph', 'kron:0'])
    expect(out.status).toBe(2)
    expect(out.objects[0]!.error).toMatchObject({ code: 'PS_GRAPH_BAD_SPEC', message: expect.stringMatching(/scale must be/) })
  })

  it.skipIf(NO_DEVICE_SKIP !== undefined)(
    `on a machine without a GPU, --list-devices, a run and the suite exit 3 with PS_GPU_NO_DEVICE${NO_DEVICE_SKIP ? ` (skipped: ${NO_DEVICE_SKIP})` : ''}`,
    () => {
      const bin = built()
      for (const args of [
        ['--list-devices'],
        ['--pattern', 'merged-aligned', '--bytes', '65536'],
        ['--suite', 'micro', '--bytes', '65536'],
        ['--pattern', 'bfs-aligned', '--graph', 'kron:8'],
        ['--suite', 'graph', '--graph', 'kron:8'],
      ]) {
        const out = runRunner(bin, args)
        expect(out.status, args.join(' ')).toBe(3)
        const e = errorOf(out)
        expect(e.code).toBe('PS_GPU_NO_DEVICE')
        expect(e.message).toMatch(/^no CUDA device is usable on this machine: /)
      }
    },
  )
})
