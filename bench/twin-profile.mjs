#!/usr/bin/env node
/**
 * Where the twin's instructions go, by Verilog module: builds the twin with Verilator's
 * --prof-cfuncs (one C++ function per always block or continuous assignment, named after its
 * module and line), without -march=native (valgrind lacks AVX-512), runs one batch workload under
 * valgrind's callgrind, and prints instructions per simulated clock for each module, for each of
 * its lines that costs most, and for the C++ around the model (twin loop, DUT wrapper, host and
 * GPU models), as Markdown for bench/RESULTS.md.
 *
 * The functions cost call overhead that the normal build inlines away, so the total runs about a
 * third above the real build's; the shares are what to read.
 *
 * Usage: node bench/twin-profile.mjs [--mode switch|endpoint] [--run PATTERN] [--bytes N]
 *          [--lines N] [--build DIR]
 * Needs valgrind and Verilator; the build (default build/twin-profile) is kept for the next run.
 */
import { spawnSync } from 'node:child_process'
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const argv = process.argv.slice(2)
const opts = { mode: 'switch', run: 'merged-aligned', bytes: 4 << 20, lines: 15, build: join(root, 'build/twin-profile') }
for (let i = 0; i < argv.length; i++) {
  const a = argv[i]
  const value = () => {
    if (i + 1 >= argv.length) throw new Error(`${a} needs a value`)
    return argv[++i]
  }
  if (a === '--mode') opts.mode = value()
  else if (a === '--run') opts.run = value()
  else if (a === '--bytes') opts.bytes = Number(value())
  else if (a === '--lines') opts.lines = Number(value())
  else if (a === '--build') opts.build = value()
  else throw new Error(`unknown option ${a}`)
}

const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 })
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${(r.stderr || r.stdout).slice(-2000)}`)
  return r.stdout
}

step('cmake', [
  '-S',
  'native/twin',
  '-B',
  opts.build,
  '-G',
  'Ninja',
  '-DCMAKE_BUILD_TYPE=Release',
  '-DPS_TWIN_NATIVE=OFF',
  '-DPS_TWIN_SEGMENTS=',
  '-DPS_VERILATOR_EXTRA=--prof-cfuncs',
  // one function per block stays one function (attributed to its line), not inlined into the
  // caller; -g: the file of every function, to tell the model from the C++ around it
  '-DCMAKE_CXX_FLAGS=-g -fno-inline-functions -fno-inline-small-functions',
  '-DCMAKE_C_FLAGS=-g',
])
step('ninja', ['-C', opts.build])

const twin = join(opts.build, 'pcie-scope-twin')
const out = join(opts.build, 'callgrind.out')
const args = ['--mode', opts.mode, '--run', opts.run, '--bytes', String(opts.bytes)]
const runOut = step('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, twin, ...args])
const done = JSON.parse(runOut.trim().split('\n').pop())
const cycles = done.simCycles

// exclusive instructions per function
const annotated = step('callgrind_annotate', ['--threshold=100', '--inclusive=no', '--auto=no', out])
const byModule = new Map()
const byLine = new Map()
const add = (map, key, n) => map.set(key, (map.get(key) ?? 0) + n)
let total = 0
for (const line of annotated.split('\n')) {
  const m = /^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$/.exec(line)
  if (!m) continue
  const n = Number(m[1].replaceAll(',', ''))
  const what = m[2]
  if (what.includes('PROGRAM TOTALS')) {
    total = n
    continue
  }
  const prof = /__PROF__(\w+?)__l(\d+)/.exec(what)
  if (prof) {
    add(byModule, prof[1], n)
    add(byLine, `${prof[1]}.v:${prof[2]}`, n)
  } else {
    // file:function [object]: the Verilated model's own files and Verilator's runtime, or the
    // twin's C++ (by file) and the C library
    const file = what.slice(0, what.indexOf(':'))
    if (/\/V\w+\.dir\/|\/verilator\/include\//.test(file)) add(byModule, '(Verilator: eval loop, scheduling, calls)', n)
    else add(byModule, `(C++: ${file.split('/').pop() || 'other'})`, n)
  }
}

const per = (n) => Math.round(n / cycles)
const pct = (n) => ((100 * n) / total).toFixed(1)
const sorted = (map) => [...map.entries()].sort((a, b) => b[1] - a[1])
console.log(
  `Twin profile, \`pcie-scope-twin ${args.join(' ')}\` under callgrind, Verilator --prof-cfuncs, no -march=native; ${cpus().length} × ${cpus()[0]?.model.trim() ?? '?'}, ${new Date().toISOString().slice(0, 10)}\n`,
)
console.log(`${total.toLocaleString('en')} instructions, ${cycles} clocks, ${done.mrd.count} MRds: ${per(total)} per clock\n`)
console.log('| module or part | instructions per clock | share |')
console.log('|---|---:|---:|')
let rest = 0
for (const [k, n] of sorted(byModule)) {
  if (n >= total / 1000) console.log(`| ${k} | ${per(n)} | ${pct(n)} % |`)
  else rest += n
}
if (rest) console.log(`| everything under 0.1 % each | ${per(rest)} | ${pct(rest)} % |`)
console.log(`\nThe ${opts.lines} costliest Verilog lines:\n`)
console.log('| line | instructions per clock | share |')
console.log('|---|---:|---:|')
for (const [k, n] of sorted(byLine).slice(0, opts.lines)) console.log(`| ${k} | ${per(n)} | ${pct(n)} % |`)
