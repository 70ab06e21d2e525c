#!/usr/bin/env node
// Builds the pcie-scope twin (native/twin: Verilated hdl/rtl + firmware + traffic model) into
// build/twin/pcie-scope-twin. Nothing runs when the binary is newer than every source it is built
// from; otherwise CMake (Ninja where present) rebuilds what changed, through ccache
// (scripts/compiler-cache.mjs). Where build/twin was never configured (a fresh clone), a binary
// built from the same sources with the same tools on this machine is taken from the user's cache
// (scripts/build-cache.mjs) instead. The tools' output is shown only when a step fails, or with
// --verbose. Plain Node, no dependencies. Usage: node scripts/build-twin.mjs [--force] [--verbose]
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildCacheEnabled, contentKey, restore, store } from './build-cache.mjs'
import { compilerCacheEnv } from './compiler-cache.mjs'
import { isFresh } from './fresh.mjs'
import { withBuildLock } from './lock.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const src = join(root, 'native', 'twin')
const build = join(root, 'build', 'twin')
const binary = join(build, 'pcie-scope-twin')
const verbose = process.argv.includes('--verbose')
const inputs = [
  src,
  join(root, 'native', 'model'),
  join(root, 'native', 'common'),
  join(root, 'hdl', 'rtl'),
  join(root, 'firmware', 'src'),
  join(root, 'firmware', 'include'),
  join(root, 'firmware', 'hal', 'sim'),
  fileURLToPath(import.meta.url),
]
if (!process.argv.includes('--force') && isFresh([binary], inputs)) process.exit(0)

function has(cmd, args = ['--version']) {
  const r = spawnSync(cmd, args, { stdio: 'ignore' })
  return !r.error && r.status === 0
}

function fail(message) {
  console.error(`build-twin: ${message}`)
  process.exit(1)
}

const missing = []
if (!has('cmake')) missing.push('cmake (Debian: apt-get install cmake)')
const cxx = process.env.CXX || ['c++', 'g++', 'clang++'].find((c) => has(c))
if (!cxx || !has(cxx)) missing.push('a C++17 compiler: c++/g++ (Debian: apt-get install g++)')
if (!has('verilator')) missing.push('verilator (Debian: apt-get install verilator)')
if (missing.length) fail(`missing tool${missing.length > 1 ? 's' : ''}: ${missing.join('; ')}`)

const env = { ...process.env, ...compilerCacheEnv(root) }

/** The cache key: every input, the tools' versions and this CPU's features (-march=native). */
function cacheKey() {
  const version = (cmd) => spawnSync(cmd, ['--version'], { encoding: 'utf8' }).stdout ?? ''
  const cpu = /^flags\s*:.*$/m.exec(existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '')?.[0] ?? process.arch
  return contentKey(root, inputs, [version('verilator'), version('cmake'), version(cxx), cxx, cpu, process.env.CXXFLAGS ?? ''])
}
const NAME = 'pcie-scope-twin'

function run(cmd, args, { mayFail = false } = {}) {
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: verbose ? 'inherit' : 'pipe', encoding: 'utf8', maxBuffer: 64 << 20 })
  if (r.error) fail(`${cmd}: ${r.error.message}`)
  if (r.status !== 0 && !mayFail) fail(`${cmd} ${args.join(' ')} failed (exit ${r.status})\n${r.stdout ?? ''}${r.stderr ?? ''}`)
  return r.status === 0
}

function configure() {
  const gen = has('ninja') ? ['-G', 'Ninja'] : []
  run('cmake', ['-S', src, '-B', build, ...gen, '-DCMAKE_BUILD_TYPE=Release'])
}

withBuildLock(build, () => {
  // another process may have built it while this one waited
  if (!process.argv.includes('--force') && isFresh([binary], inputs)) return
  const configured = existsSync(join(build, 'CMakeCache.txt'))
  const key = buildCacheEnabled() && !process.argv.includes('--force') ? cacheKey() : undefined
  if (key && !configured && (mkdirSync(build, { recursive: true }), restore('twin', key, NAME, binary))) return
  if (!configured) configure()
  // an edit of the RTL file lists (hdl/**/*.f) configures afresh by itself; a build that still
  // fails incrementally (a cache from an older tree): start that build over once
  if (!run('cmake', ['--build', build, '--parallel'], { mayFail: configured })) {
    console.error('build-twin: the incremental build failed; configuring afresh and building again')
    rmSync(build, { recursive: true, force: true })
    configure()
    run('cmake', ['--build', build, '--parallel'])
  }
  if (!existsSync(binary)) fail(`the build finished but ${binary} is missing`)
  if (key) store('twin', key, NAME, binary)
  // a source touched but not changed leaves the binary as it was: mark it current for the check above
  const now = new Date()
  utimesSync(binary, now, now)
})
console.log(`build-twin: ${binary}`)
