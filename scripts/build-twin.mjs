#!/usr/bin/env node
// Builds the pcie-scope twin (native/twin: Verilated hdl/rtl + firmware + traffic model) into
// build/twin/pcie-scope-twin. Plain Node, no dependencies. Usage: node scripts/build-twin.mjs
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const src = join(root, 'native', 'twin')
const build = join(root, 'build', 'twin')
const binary = join(build, 'pcie-scope-twin')

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

function run(cmd, args, { mayFail = false } = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' })
  if (r.error) fail(`${cmd}: ${r.error.message}`)
  if (r.status !== 0 && !mayFail) fail(`${cmd} ${args.join(' ')} failed (exit ${r.status})`)
  return r.status === 0
}

function configure() {
  const gen = has('ninja') ? ['-G', 'Ninja'] : []
  run('cmake', ['-S', src, '-B', build, ...gen, '-DCMAKE_BUILD_TYPE=Release'])
}

const configured = existsSync(join(build, 'CMakeCache.txt'))
if (!configured) configure()
// an edit of the RTL file lists (hdl/**/*.f) configures afresh by itself; a build that still
// fails incrementally (a cache from an older tree): start that build over once
if (!run('cmake', ['--build', build, '--parallel'], { mayFail: configured })) {
  console.log('build-twin: the incremental build failed; configuring afresh and building again')
  rmSync(build, { recursive: true, force: true })
  configure()
  run('cmake', ['--build', build, '--parallel'])
}
if (!existsSync(binary)) fail(`the build finished but ${binary} is missing`)
console.log(`build-twin: ${binary}`)
