// native/cuda without a GPU: the kernels' per-thread body run on the CPU for every thread
// (test/native/cuda/test_kernel_body.cpp, built against the stub library).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../../..')
const ninja = spawnSync('ninja', ['--version']).status === 0 ? ['-G', 'Ninja'] : []

function run(cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 16 << 20 })
  if (r.error) throw r.error
  return r
}

function cmakeBuild(src: string, build: string, defs: string[] = []) {
  if (!existsSync(resolve(build, 'CMakeCache.txt'))) {
    const cfg = run('cmake', ['-S', src, '-B', build, ...ninja, '-DCMAKE_BUILD_TYPE=Release', ...defs])
    expect(cfg.status, cfg.stdout + cfg.stderr).toBe(0)
  }
  const b = run('cmake', ['--build', build, '--parallel'])
  expect(b.status, b.stdout + b.stderr).toBe(0)
}

describe('native/cuda host tests (kernel body on the CPU)', () => {
  it('builds and passes its unit tests', () => {
    const build = resolve(root, 'build/cuda-tests')
    cmakeBuild(resolve(root, 'test/native/cuda'), build)
    const t = run(resolve(build, 'cuda-tests'), [])
    const lines = t.stdout.trim().split('\n')
    const m = /^(\d+) passed, (\d+) failed$/.exec(lines[lines.length - 1] ?? '')
    expect(m, t.stdout + t.stderr).not.toBeNull()
    expect(Number(m![2]), t.stdout + t.stderr).toBe(0)
    expect(Number(m![1])).toBeGreaterThanOrEqual(5)
    expect(t.status).toBe(0)
  })
})
