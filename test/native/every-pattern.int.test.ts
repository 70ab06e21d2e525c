// Every access pattern of spec/workloads.json is implemented by each runner: the traffic model
// (pcie-scope-model), the CUDA runner (pcie-scope-gpu: its arguments accepted, the kernel built
// from the same patterns.h switch) and the twin (pcie-scope-twin --run … --model-only), each at
// the pattern's default offset and at every lane width.
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ELEMENT_BYTES, PATTERN_SPECS } from '../../host/src/core/generated.js'
import { buildRunner, root, runRunner } from './cuda/gpu-runner.js'

const twinBin = resolve(root, 'build/twin/pcie-scope-twin')
let runner = ''
let model = ''

beforeAll(() => {
  const b = buildRunner('gpu-stub', ['--no-cuda'])
  expect(b.status, b.output).toBe(0)
  runner = b.binary
  model = resolve(root, 'build/gpu-stub/pcie-scope-model')
  const t = spawnSync(process.execPath, [resolve(root, 'scripts/build-twin.mjs')], { cwd: root, encoding: 'utf8' })
  expect(t.status, t.stdout + t.stderr).toBe(0)
}, 900_000)

const json = (text: string): Record<string, unknown> => JSON.parse(text.trim().split('\n').pop()!) as Record<string, unknown>

describe('every spec pattern in every runner', () => {
  for (const p of PATTERN_SPECS) {
    for (const e of ELEMENT_BYTES) {
      if (p.defaultOffset % e !== 0) continue
      const bytes = String(64 * 1024)
      it(`${p.name} with ${e}-B lanes`, () => {
        const m = spawnSync(model, ['--pattern', p.name, '--bytes', bytes, '--element-bytes', String(e)], { encoding: 'utf8' })
        expect(m.status, m.stdout + m.stderr).toBe(0)
        const predicted = json(m.stdout) as { pattern: string; mrd: { count: number; bytes: number } }
        expect(predicted.pattern).toBe(p.name)
        expect(predicted.mrd.bytes).toBeGreaterThanOrEqual(64 * 1024)

        // the stub checks the arguments as the CUDA build does, then says it has no GPU code
        const g = runRunner(runner, ['--pattern', p.name, '--bytes', bytes, '--element-bytes', String(e)])
        expect(g.status, JSON.stringify(g.objects)).toBe(3)
        expect((g.objects[0]!.error as { code: string }).code).toBe('PS_GPU_NOT_BUILT')

        const t = spawnSync(twinBin, ['--run', p.name, '--bytes', bytes, '--element-bytes', String(e), '--model-only'], {
          encoding: 'utf8',
          timeout: 60_000,
        })
        expect(t.status, t.stdout + t.stderr).toBe(0)
        const done = json(t.stdout) as { pattern: string; mrd: { count: number } }
        expect(done.pattern).toBe(p.name)
        expect(done.mrd.count).toBe(predicted.mrd.count)
      })
    }
  }
})
