#!/usr/bin/env node
// Builds the GPU zero-copy benchmarks (native/cuda: library ps_gpu_bench and the runner
// pcie-scope-gpu) into build/gpu. With nvcc on PATH (or CUDACXX) the CUDA implementation is built,
// otherwise the stub, whose runs answer PS_GPU_NOT_BUILT: either way the build succeeds, so
// `npm run setup` can call it unconditionally. Compiles go through ccache
// (scripts/compiler-cache.mjs). Plain Node, no dependencies.
//
// Usage: node scripts/build-gpu.mjs [--no-cuda] [--archs 80;90] [--build-dir DIR]
// Env:   PS_CUDA_ARCHS (as --archs). A change of --no-cuda/--archs reconfigures the build dir.
// As a module: `import { buildGpu } from './build-gpu.mjs'`; buildGpu({ cuda, archs, buildDir })
// returns { binary, cudaBuilt } or throws an Error with the failing step.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compilerCacheEnv } from './compiler-cache.mjs'
import { withBuildLock } from './lock.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const src = join(root, 'native', 'cuda')

const has = (cmd, args = ['--version']) => {
  const r = spawnSync(cmd, args, { stdio: 'ignore' })
  return !r.error && r.status === 0
}

function run(cmd, args, quiet) {
  const env = { ...process.env, ...compilerCacheEnv(root) }
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: quiet ? 'pipe' : 'inherit', encoding: 'utf8', maxBuffer: 64 << 20 })
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`)
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})${quiet ? `\n${r.stdout}${r.stderr}` : ''}`)
}

/** The CMake cache value of `name` in `dir`, or undefined. */
const cached = (dir, name) => {
  const f = join(dir, 'CMakeCache.txt')
  if (!existsSync(f)) return undefined
  const m = new RegExp(`^${name}:[A-Z]+=(.*)$`, 'm').exec(readFileSync(f, 'utf8'))
  return m ? m[1] : undefined
}

export function buildGpu({
  cuda = true,
  archs = process.env.PS_CUDA_ARCHS ?? '',
  buildDir = join(root, 'build', 'gpu'),
  quiet = false,
} = {}) {
  const missing = []
  if (!has('cmake')) missing.push('cmake (Debian: apt-get install cmake)')
  const cxx = process.env.CXX || ['c++', 'g++', 'clang++'].find((c) => has(c))
  if (!cxx) missing.push('a C++17 compiler: c++/g++ (Debian: apt-get install g++)')
  if (missing.length) throw new Error(`missing tool${missing.length > 1 ? 's' : ''}: ${missing.join('; ')}`)
  const want = { PS_ENABLE_CUDA: cuda ? 'ON' : 'OFF', PS_CUDA_ARCHS: archs }
  // test files running side by side may build the same folder: one at a time
  withBuildLock(buildDir, () => {
    const stale = Object.entries(want).some(([k, v]) => cached(buildDir, k) !== undefined && cached(buildDir, k) !== v)
    if (!existsSync(join(buildDir, 'CMakeCache.txt')) || stale) {
      const gen = has('ninja') && !existsSync(join(buildDir, 'Makefile')) ? ['-G', 'Ninja'] : []
      const defs = Object.entries(want).map(([k, v]) => `-D${k}=${v}`)
      run('cmake', ['-S', src, '-B', buildDir, ...gen, '-DCMAKE_BUILD_TYPE=Release', ...defs], quiet)
    }
    run('cmake', ['--build', buildDir, '--parallel'], quiet)
  })
  const binary = join(buildDir, 'pcie-scope-gpu')
  if (!existsSync(binary)) throw new Error(`the build finished but ${binary} is missing`)
  return { binary, cudaBuilt: cached(buildDir, 'PS_GPU_CUDA_BUILT') === 'ON' }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const opts = {}
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--no-cuda') opts.cuda = false
    else if (args[i] === '--archs' && args[i + 1] !== undefined) opts.archs = args[++i]
    else if (args[i] === '--build-dir' && args[i + 1] !== undefined) opts.buildDir = resolve(args[++i])
    else {
      console.error(
        `build-gpu: unknown argument ${args[i]}\nusage: node scripts/build-gpu.mjs [--no-cuda] [--archs 80;90] [--build-dir DIR]`,
      )
      process.exit(2)
    }
  }
  try {
    const { binary, cudaBuilt } = buildGpu(opts)
    console.log(`build-gpu: ${binary} (${cudaBuilt ? 'CUDA' : 'stub without CUDA: GPU runs answer PS_GPU_NOT_BUILT'})`)
  } catch (e) {
    console.error(`build-gpu: ${e instanceof Error ? e.message : String(e)}`)
    process.exit(1)
  }
}
