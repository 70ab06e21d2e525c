// Configures (once) and builds a CMake project for the native tests: Ninja where it is installed,
// Release, two jobs (the test machines are small).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { expect } from 'vitest'

export function cmakeBuild(src: string, build: string): void {
  const run = (args: string[]) => {
    const r = spawnSync('cmake', args, { encoding: 'utf8', maxBuffer: 16 << 20 })
    if (r.error) throw r.error
    expect(r.status, r.stdout + r.stderr).toBe(0)
  }
  if (!existsSync(resolve(build, 'CMakeCache.txt'))) {
    const gen = spawnSync('ninja', ['--version']).status === 0 ? ['-G', 'Ninja'] : []
    run(['-S', src, '-B', build, ...gen, '-DCMAKE_BUILD_TYPE=Release'])
  }
  run(['--build', build, '--parallel', '2'])
}
