#!/usr/bin/env node
// Builds the Node addon (native/addon: the traffic model in process, and the GPU runs when
// native/cuda is in the tree) with cmake-js into build/addon/pcie_scope_native.node. CUDA is
// optional: without nvcc, or with PS_ENABLE_CUDA=OFF / --no-cuda, the addon's GPU calls answer
// PS_GPU_NOT_BUILT. package.json `binary.napi_versions` keeps cmake-js from downloading Node
// headers. Nothing runs when the addon is newer than its sources (and the CUDA switch is as
// before); CMake's output is shown only when the build fails, or with --verbose. Compiles go
// through ccache (scripts/compiler-cache.mjs). Plain Node, no dependencies beyond the
// devDependency cmake-js.
//
// Usage: node scripts/build-native.mjs [--no-cuda] [--force] [--verbose]
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, utimesSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compilerCacheEnv } from './compiler-cache.mjs'
import { isFresh } from './fresh.mjs'
import { withBuildLock } from './lock.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const addonBuildDir = join(root, 'build', 'addon')
export const addonPath = join(addonBuildDir, 'Release', 'pcie_scope_native.node')

const has = (cmd, args = ['--version']) => {
  const r = spawnSync(cmd, args, { stdio: 'ignore' })
  return !r.error && r.status === 0
}

const cached = (name) => {
  const f = join(addonBuildDir, 'CMakeCache.txt')
  if (!existsSync(f)) return undefined
  const m = new RegExp(`^${name}:[A-Z]+=(.*)$`, 'm').exec(readFileSync(f, 'utf8'))
  return m ? m[1] : undefined
}

const inputs = ['addon', 'model', 'cuda', 'common', 'sampler'].map((d) => join(root, 'native', d))
inputs.push(join(root, 'package-lock.json'), fileURLToPath(import.meta.url))

/** Build the addon; returns its path or throws an Error naming the failing step (with the tools' output). */
export function buildNative({ cuda = process.env.PS_ENABLE_CUDA !== 'OFF', force = false, verbose = false } = {}) {
  const enable = cuda ? 'ON' : 'OFF'
  const fresh = () => !force && cached('PS_ENABLE_CUDA') === enable && isFresh([addonPath], inputs)
  if (fresh()) return addonPath
  // another process may have built it while this one waited for the lock
  return withBuildLock(addonBuildDir, () => (fresh() ? addonPath : compile(enable, verbose)))
}

function compile(enable, verbose) {
  const missing = []
  if (!has('cmake')) missing.push('cmake (Debian: apt-get install cmake)')
  if (!(process.env.CXX || ['c++', 'g++', 'clang++'].some((c) => has(c)))) missing.push('a C++17 compiler (Debian: apt-get install g++)')
  if (missing.length) throw new Error(`missing tool${missing.length > 1 ? 's' : ''}: ${missing.join('; ')}`)
  const cmakeJs = join(root, 'node_modules', 'cmake-js', 'bin', 'cmake-js')
  if (!existsSync(cmakeJs)) throw new Error('cmake-js is missing from node_modules: run npm install')
  // cmake-js caches the configuration: a change of the CUDA switch needs a fresh configure
  const verb = cached('PS_ENABLE_CUDA') !== undefined && cached('PS_ENABLE_CUDA') !== enable ? 'rebuild' : 'compile'
  const args = [cmakeJs, verb, '-d', join(root, 'native', 'addon'), '-O', addonBuildDir, `--CDPS_ENABLE_CUDA=${enable}`]
  if (has('ninja')) args.push('-G', 'Ninja')
  const env = { ...process.env, ...compilerCacheEnv(root) }
  const r = spawnSync(process.execPath, args, {
    cwd: root,
    env,
    stdio: verbose ? 'inherit' : 'pipe',
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  })
  if (r.error) throw new Error(`cmake-js: ${r.error.message}`)
  if (r.status !== 0) throw new Error(`cmake-js ${verb} failed (exit ${r.status})${verbose ? '' : `\n${r.stdout}${r.stderr}`}`)
  if (!existsSync(addonPath)) throw new Error(`the build finished but ${addonPath} is missing`)
  // a source touched but not changed leaves the addon as it was: mark it current for the check above
  const now = new Date()
  utimesSync(addonPath, now, now)
  return addonPath
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const unknown = args.filter((a) => !['--no-cuda', '--force', '--verbose'].includes(a))
  if (unknown.length) {
    console.error(`build-native: unknown argument ${unknown[0]}\nusage: node scripts/build-native.mjs [--no-cuda] [--force] [--verbose]`)
    process.exit(2)
  }
  try {
    const verbose = args.includes('--verbose')
    const path = buildNative({ ...(args.includes('--no-cuda') ? { cuda: false } : {}), force: args.includes('--force'), verbose })
    console.log(`build-native: ${path}`)
  } catch (e) {
    console.error(`build-native: ${e instanceof Error ? e.message : String(e)}`)
    process.exit(1)
  }
}
