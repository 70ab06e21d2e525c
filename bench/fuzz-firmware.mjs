#!/usr/bin/env node
/**
 * A longer campaign of the firmware's coverage-guided fuzz targets (test/firmware/libfuzz_rx.c:
 * the receive and command path in a simulated probe environment; test/firmware/libfuzz_codec.c:
 * the codecs and payload encoders at their bounds; `npm test` runs 4 000 inputs of each),
 * printed as Markdown for bench/RESULTS.md: inputs run, inputs per second, corpus and crashes per
 * target, and the line coverage each firmware source reached. Corpora persist in
 * build/firmware/libfuzzer/corpus-<target>, so campaigns build on each other; `make -C firmware
 * libfuzzer-merge` keeps the inputs that add coverage in test/firmware/fuzz-corpus/. A crash stops
 * the run with the input written beside it and this script exits 1.
 *
 * Usage: node bench/fuzz-firmware.mjs [--runs N] [--seconds N] [--seed N]
 *   --runs     inputs per target (default 1 000 000)
 *   --seconds  a time limit per target as well (default: none)
 */
import { spawnSync } from 'node:child_process'
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name)
  return i > 0 ? Number(process.argv[i + 1]) : dflt
}
const runs = arg('--runs', 1_000_000)
const seconds = arg('--seconds', 0)
const seed = arg('--seed', Date.now() % 100000)
const limit = seconds > 0 ? ` -max_total_time=${seconds}` : ''

const started = Date.now()
const r = spawnSync(
  'make',
  ['--no-print-directory', '-C', 'firmware', 'libfuzzer', `LIBFUZZER_ARGS=-seed=${seed} -runs=${runs} -max_len=1024${limit}`],
  { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
)
const out = `${r.stdout}\n${r.stderr}`
if (r.status !== 0) {
  process.stderr.write(out.split('\n').slice(-40).join('\n'))
  console.log(`fuzz campaign FAILED (seed ${seed}); see the crash input in build/firmware/libfuzzer/`)
  process.exit(1)
}
console.log(
  `Firmware fuzz campaign: seed ${seed}, ${runs} inputs per target${limit ? `, at most ${seconds} s each` : ''}, ${Math.round((Date.now() - started) / 1000)} s, ${cpus()[0]?.model ?? '?'}\n`,
)
console.log('| target | inputs | inputs/s | coverage (edges) | corpus | crashes |')
console.log('|---|---:|---:|---:|---:|---:|')
for (const part of out.split(/^== libFuzzer target /m).slice(1)) {
  const target = part.split('\n')[0].trim()
  const stat = (name) => Number(new RegExp(`stat::${name}:\\s+(\\d+)`).exec(part)?.[1] ?? NaN)
  const last = [...part.matchAll(/#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)\/(\S+)/g)].at(-1)
  console.log(
    `| ${target} | ${stat('number_of_executed_units')} | ${stat('average_exec_per_sec')} | ${last?.[2] ?? '?'} | ${last?.[4] ?? '?'} inputs (${last?.[5] ?? '?'}) | 0 |`,
  )
}
console.log('\n| firmware source | lines covered |')
console.log('|---|---:|')
for (const m of out.matchAll(/^coverage (\S+) (\S+)$/gm)) console.log(`| ${m[1]} | ${m[2]} |`)
