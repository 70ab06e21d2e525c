#!/usr/bin/env node
/**
 * A longer campaign of the firmware's coverage-guided fuzz target (test/firmware/libfuzz_rx.c;
 * `npm test` runs 40 000 inputs of it), printed as Markdown for bench/RESULTS.md: inputs run,
 * inputs per second, corpus size and coverage at the end. The corpus persists in
 * build/firmware/libfuzzer/corpus, so campaigns build on each other; a crash stops the run with
 * the input written beside it and this script exits 1.
 *
 * Usage: node bench/fuzz-firmware.mjs [--seconds N] [--seed N]
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
const seconds = arg('--seconds', 300)
const seed = arg('--seed', Date.now() % 100000)

const r = spawnSync(
  'make',
  ['--no-print-directory', '-C', 'firmware', 'libfuzzer', `LIBFUZZER_ARGS=-seed=${seed} -max_total_time=${seconds}`],
  {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  },
)
const out = `${r.stdout}\n${r.stderr}`
const stat = (name) => Number(new RegExp(`stat::${name}:\\s+(\\d+)`).exec(out)?.[1] ?? NaN)
const last = [...out.matchAll(/#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)\/(\S+)/g)].at(-1)
if (r.status !== 0) {
  process.stderr.write(out.split('\n').slice(-40).join('\n'))
  console.log(`fuzz campaign FAILED after ${last?.[1] ?? '?'} inputs (seed ${seed}); see the crash input in build/firmware/libfuzzer/`)
  process.exit(1)
}
console.log(`Firmware fuzz campaign: ${seconds} s, seed ${seed}, ${cpus()[0]?.model ?? '?'}\n`)
console.log('| inputs | inputs/s | coverage (edges) | features | corpus | crashes |')
console.log('|---:|---:|---:|---:|---:|---:|')
console.log(
  `| ${stat('number_of_executed_units')} | ${stat('average_exec_per_sec')} | ${last?.[2] ?? '?'} | ${last?.[3] ?? '?'} | ${last?.[4] ?? '?'} inputs (${last?.[5] ?? '?'}) | 0 |`,
)
