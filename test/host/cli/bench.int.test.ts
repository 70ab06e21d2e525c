// `pcie-scope bench` against the real pieces: the twin (its probe's counts) and the native addon
// (the model's prediction), both built here; and `bench --gpu` on a machine without a usable GPU.
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { BenchReport } from '../../../host/src/cli/bench.js'
import { gpuPresent } from '../../native/cuda/gpu-runner.js'
import { runCli } from './run-cli.js'

const GPU = gpuPresent()

const root = resolve(import.meta.dirname, '../../..')

const run = runCli

beforeAll(() => {
  for (const script of ['scripts/build-twin.mjs', 'scripts/build-native.mjs']) {
    const r = spawnSync(process.execPath, [resolve(root, script)], { cwd: root, encoding: 'utf8' })
    expect(r.status, r.stdout + r.stderr).toBe(0)
  }
})

describe('pcie-scope bench (real twin and addon)', () => {
  it('--twin: the probe counts exactly what the model predicts for every micro kernel', async () => {
    const r = await run('bench', '--twin', '--suite', 'micro', '--bytes', '256K', '--json')
    expect(r.code, r.stderr).toBe(0)
    const rep = JSON.parse(r.stdout) as BenchReport
    expect(rep.rows.length).toBeGreaterThanOrEqual(3)
    for (const row of rep.rows) {
      expect(row.error).toBeUndefined()
      expect(row.probe).toMatchObject({ count: row.predicted.count, bytes: row.predicted.bytes, matchesPrediction: true })
    }
    const byKernel = Object.fromEntries(rep.rows.map((x) => [x.kernel, x.predicted.count]))
    expect(byKernel).toMatchObject({ 'strided e4': 8192, 'merged-aligned e4': 2048, 'merged-misaligned e4': 4096 })
  })

  it.skipIf(GPU)(
    `--gpu without a usable GPU: exit 1 with PS_GPU_UNAVAILABLE and the addon’s reason${GPU ? ' (skipped: a GPU is present)' : ''}`,
    async () => {
      const r = await run('bench', '--gpu', '--bytes', '4K')
      expect(r.code).toBe(1)
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(/\[PS_GPU_UNAVAILABLE\]: .+ \(PS_GPU_(NOT_BUILT|NO_DEVICE)\)\n$/)
    },
  )
})
