#!/usr/bin/env node
/**
 * The twin's simulation rate, one build against another, printed as Markdown for
 * bench/RESULTS.md: MRds simulated per wall second in batch mode (RTL, link and traffic model; no
 * PTY or firmware), each pattern and mode run by every build in turn, --runs times, so load on the
 * machine falls on all of them alike. The first build is the baseline; the ratio is each later
 * build's median rate over it.
 *
 * Before timing anything it checks that every build gives the same done line (cycles, MRd counts
 * and sizes, completions, payload errors: everything but the wall time) on each pattern and mode,
 * so a faster build is not a different simulation (--cycles-may-differ: the same but for the
 * simulated clock count, which a longer pipeline changes; the clocks are printed). With
 * --instructions it also counts each build's instructions under valgrind (callgrind; needs
 * valgrind, and a build without -march=native on a machine whose CPU has AVX-512: CMake
 * PS_TWIN_NATIVE=OFF) on a smaller workload, which, unlike wall time, does not depend on load.
 *
 * Usage: node bench/twin-rate.mjs [--runs N] [--bytes N] [--modes switch,endpoint]
 *          [--patterns merged-aligned,strided,merged-misaligned] [--instructions [--ibytes N]]
 *          [--cycles-may-differ]
 *          [BASELINE_TWIN] [TWIN ...]
 * Builds default to build/twin/pcie-scope-twin alone (then only the rates, no ratio); to compare
 * with an older commit: git worktree add /tmp/base REV && cmake -S /tmp/base/native/twin -B
 * /tmp/base-build -G Ninja -DCMAKE_BUILD_TYPE=Release && ninja -C /tmp/base-build, then pass
 * /tmp/base-build/pcie-scope-twin first.
 */
import { spawnSync } from 'node:child_process'
import { cpus, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const argv = process.argv.slice(2)
const opts = { runs: 5, bytes: 64 << 20, ibytes: 4 << 20, modes: ['switch', 'endpoint'], instructions: false }
opts.patterns = ['merged-aligned', 'strided', 'merged-misaligned']
const twins = []
for (let i = 0; i < argv.length; i++) {
  const a = argv[i]
  const value = () => {
    if (i + 1 >= argv.length) throw new Error(`${a} needs a value`)
    return argv[++i]
  }
  if (a === '--runs') opts.runs = Number(value())
  else if (a === '--bytes') opts.bytes = Number(value())
  else if (a === '--ibytes') opts.ibytes = Number(value())
  else if (a === '--modes') opts.modes = value().split(',')
  else if (a === '--patterns') opts.patterns = value().split(',')
  else if (a === '--instructions') opts.instructions = true
  else if (a === '--cycles-may-differ') opts.cyclesMayDiffer = true
  else if (a.startsWith('--')) throw new Error(`unknown option ${a}`)
  else twins.push(a)
}
if (!twins.length) twins.push(join(root, 'build/twin/pcie-scope-twin'))
if (!(opts.runs >= 1)) throw new Error('--runs must be 1 or more')

function run(twin, mode, pattern, bytes) {
  const r = spawnSync(twin, ['--mode', mode, '--run', pattern, '--bytes', String(bytes)], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  })
  if (r.status !== 0) throw new Error(`${twin} --mode ${mode} --run ${pattern} failed (${r.status}): ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').pop())
}

// the done line without its wall time: what must not change between builds (with
// --cycles-may-differ, for builds whose pipelines differ in length, without its clock count too)
const result = (done) => JSON.stringify({ ...done, wallSeconds: undefined, simCycles: opts.cyclesMayDiffer ? undefined : done.simCycles })

function instructions(twin, mode, pattern) {
  const r = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--callgrind-out-file=/dev/null', twin, '--mode', mode, '--run', pattern, '--bytes', String(opts.ibytes)],
    { encoding: 'utf8', maxBuffer: 1 << 24 },
  )
  const m = /refs:\s+([\d,]+)/.exec(r.stderr ?? '')
  if (r.error || r.status !== 0 || !m) throw new Error(`valgrind on ${twin}: ${r.error?.message ?? r.stderr}`)
  return Number(m[1].replaceAll(',', ''))
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const mega = (x) => `${(x / 1e6).toFixed(3)} M`

const cases = opts.modes.flatMap((mode) => opts.patterns.map((pattern) => ({ mode, pattern })))
const out = []
out.push(
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
)
out.push(`Builds: ${twins.map((t, i) => `${i === 0 && twins.length > 1 ? 'baseline ' : ''}\`${t}\``).join(', ')}`)
out.push('')

// 1. the same simulation in every build (each case's done lines kept for the clocks below)
const checked = new Map()
for (const c of cases) {
  const dones = twins.map((t) => run(t, c.mode, c.pattern, opts.bytes))
  checked.set(c, dones)
  dones.slice(1).forEach((d, i) => {
    if (result(d) !== result(dones[0])) throw new Error(`${twins[i + 1]} and ${twins[0]} simulate ${c.mode} ${c.pattern} differently`)
  })
}
out.push(
  `Every build gave the same done line on each case (${opts.bytes} B): ${opts.cyclesMayDiffer ? '' : 'cycles, '}MRds, sizes, completions, errors.`,
)
if (opts.cyclesMayDiffer) {
  out.push('')
  out.push('Simulated clocks per build (--cycles-may-differ):')
  out.push('')
  out.push(`| mode | pattern |${twins.map((_, i) => ` build ${i + 1} |`).join('')}`)
  out.push(`|---|---|${twins.map(() => '---:|').join('')}`)
  for (const c of cases)
    out.push(
      `| ${c.mode} | ${c.pattern} |${checked
        .get(c)
        .map((d) => ` ${d.simCycles} |`)
        .join('')}`,
    )
}
out.push('')

// 2. wall rate, interleaved
const rates = new Map(cases.map((c) => [c, twins.map(() => [])]))
const mrds = new Map()
for (let r = 0; r < opts.runs; r++) {
  for (const c of cases) {
    twins.forEach((t, i) => {
      const done = run(t, c.mode, c.pattern, opts.bytes)
      mrds.set(c, done.mrd.count)
      rates.get(c)[i].push(done.mrd.count / done.wallSeconds)
    })
  }
}
out.push(`### MRd per wall second (${opts.bytes} B, ${opts.runs} interleaved runs each, median [min–max])`)
out.push('')
const ratioHead =
  twins.length > 1
    ? twins
        .slice(1)
        .map((_, i) => ` build ${i + 2} / baseline |`)
        .join('')
    : ''
out.push(`| mode | pattern | MRds |${twins.map((_, i) => ` build ${i + 1} |`).join('')}${ratioHead}`)
out.push(
  `|---|---|---:|${twins.map(() => '---:|').join('')}${twins
    .slice(1)
    .map(() => '---:|')
    .join('')}`,
)
for (const c of cases) {
  const per = rates.get(c)
  const meds = per.map(median)
  const cells = per.map((xs, i) => ` ${mega(meds[i])} [${(Math.min(...xs) / 1e6).toFixed(2)}–${(Math.max(...xs) / 1e6).toFixed(2)}] |`)
  const ratios = meds.slice(1).map((m) => ` ${(m / meds[0]).toFixed(2)}× |`)
  out.push(`| ${c.mode} | ${c.pattern} | ${mrds.get(c)} |${cells.join('')}${ratios.join('')}`)
}

// 3. instructions (load-independent)
if (opts.instructions) {
  out.push('')
  out.push(`### Instructions (valgrind callgrind, ${opts.ibytes} B)`)
  out.push('')
  out.push(`| mode | pattern |${twins.map((_, i) => ` build ${i + 1} |`).join('')}${ratioHead}`)
  out.push(
    `|---|---|${twins.map(() => '---:|').join('')}${twins
      .slice(1)
      .map(() => '---:|')
      .join('')}`,
  )
  for (const c of cases) {
    const n = twins.map((t) => instructions(t, c.mode, c.pattern))
    const ratios = n.slice(1).map((x) => ` ${(x / n[0]).toFixed(3)}× |`)
    out.push(`| ${c.mode} | ${c.pattern} |${n.map((x) => ` ${mega(x)} |`).join('')}${ratios.join('')}`)
  }
}
console.log(out.join('\n'))
