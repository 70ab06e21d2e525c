// Builds the native model unit tests (test/native/model, CMake) and runs them.
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cmakeBuild } from '../cmake.js'

const root = resolve(import.meta.dirname, '../../..')
const src = resolve(root, 'test/native/model')
const build = resolve(root, 'build/model-tests')

function run(cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 16 << 20 })
  if (r.error) throw r.error
  return r
}

describe('native model (coalescer, patterns, traffic, TLP headers)', () => {
  it('builds and passes its unit tests', () => {
    cmakeBuild(src, build)
    const t = run(resolve(build, 'model-tests'), [])
    const lines = t.stdout.trim().split('\n')
    const closing = lines[lines.length - 1] ?? ''
    const m = /^(\d+) passed, (\d+) failed$/.exec(closing)
    expect(m, t.stdout + t.stderr).not.toBeNull()
    expect(Number(m![2]), t.stdout + t.stderr).toBe(0)
    expect(Number(m![1])).toBeGreaterThanOrEqual(30)
    expect(t.status).toBe(0)
  })
})
