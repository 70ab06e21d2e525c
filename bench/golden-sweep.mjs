#!/usr/bin/env node
/**
 * The probe's self-checking benches at length, swept over their parameters, printed as Markdown for
 * bench/RESULTS.md. Each configuration is built once with Verilator (the flags of verilateBench in
 * test/hdl/tools.ts) and run over several seeds; `npm test` runs one short seed of a few of them.
 *
 *   tb_probe_tracker       its own cycle model (no golden vectors): segments 1/2/4 x tag width 8/10
 *                          builds, each run with RCB 64/128 and MPS 128/256 (plusargs) over --seeds
 *                          seeds of --cycles traffic clocks. Headers only: no data width.
 *   tb_pcie_scope_bar_top  golden vectors (test/hdl/golden.ts, one tsx process writes them all):
 *                          data width 256/512 x tag width 8/10 x MPS 128/256 builds, one segment
 *                          (the bench drives one TLP per beat); every run has CPL_SPLIT 0, 64 and
 *                          128 in its phases (RCB is a register, not a build parameter).
 *   tb_probe_counters      the same golden vectors, segments 1/2/4 (headers only).
 *   tb_probe_trace         its own reference model (docs/trace.md): segments 1/2/4 x tag width 8/10
 *                          with a 64-record ring (filled often), and one 4 096-record build, over
 *                          --seeds seeds of --trace-rounds rounds (arm, traffic, read back).
 *
 * A configuration's mismatches are its bench's failed checks (every counter/statistic against the
 * model at every snapshot, plus the bench's end-of-run checks); a run without its closing line, or
 * one that exits non-zero, counts as a mismatch too. Exits 1 on any.
 *
 * Usage: node bench/golden-sweep.mjs [--seeds 2] [--cycles 100000] [--golden-seeds 3] [--scale 3]
 *                                    [--trace-rounds 200] [--only tracker|top|counters|trace]
 * Needs verilator and Node's tsx (scripts/setup.mjs installs them).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rtlFiles } from '../hdl/file-list.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : dflt
}
const seeds = Number(arg('seeds', '2'))
const cycles = Number(arg('cycles', '100000'))
const goldenSeeds = Number(arg('golden-seeds', '3'))
const scale = Number(arg('scale', '3'))
const traceRounds = Number(arg('trace-rounds', '200'))
const only = arg('only', '')
const out = join(root, 'build/bench/golden-sweep')
mkdirSync(out, { recursive: true })

const TRACKER_RTL = rtlFiles('hdl/rtl/probe_tracker.f')
const ALL_RTL = rtlFiles('hdl/rtl/pcie_scope_bar_top.f')
const COUNTERS_RTL = rtlFiles('hdl/rtl/probe_counters.f')
const TRACE_RTL = rtlFiles('hdl/rtl/probe_trace.f')

function run(cmd, args, opts = {}) {
  const t0 = process.hrtime.bigint()
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 256 << 20, ...opts })
  return {
    status: r.status,
    stdout: r.stdout ?? '',
    out: `${r.stdout ?? ''}${r.stderr ?? ''}`,
    seconds: Number(process.hrtime.bigint() - t0) / 1e9,
  }
}

/** Build once (skipped when the binary is newer than every source and the generated include). */
function build(name, top, params, files, defines = []) {
  const mdir = join(out, name)
  const bin = join(mdir, 'Vtb')
  const sources = [...files, `hdl/tb/${top}.sv`, 'hdl/rtl/generated/pcie_scope_regs.vh'].map((f) => join(root, f))
  const fastBuild = ['-MAKEFLAGS', 'VM_PARALLEL_BUILDS=0', '--unroll-stmts', '1000']
  const args = [
    '--binary',
    '--timing',
    '-j',
    '2',
    ...fastBuild,
    '-Mdir',
    mdir,
    '-o',
    'Vtb',
    '-Ihdl/rtl/generated',
    // the tracker's RAMs as synthesised (XOR banks, block-RAM copies and their forwarding), not
    // the one memory (probe_ram_model) simulators otherwise build
    '+define+PROBE_RAM_BANKS',
    ...defines,
    ...params,
    '--top-module',
    top,
    `hdl/tb/${top}.sv`,
    ...files,
  ]
  // the build's arguments beside it: a binary built with other flags is built again
  const stamp = join(mdir, 'args.json')
  const fresh = existsSync(bin) && existsSync(stamp) && readFileSync(stamp, 'utf8') === JSON.stringify(args)
  if (fresh && sources.every((f) => statSync(f).mtimeMs < statSync(bin).mtimeMs)) return { bin, seconds: 0 }
  mkdirSync(mdir, { recursive: true })
  const r = run('verilator', args)
  if (r.status !== 0) {
    process.stderr.write(`verilator ${name} failed:\n${r.out.slice(-4000)}\n`)
    process.exit(1)
  }
  writeFileSync(stamp, JSON.stringify(args))
  return { bin, seconds: r.seconds }
}

const closing = (s) => {
  const m = [...s.matchAll(/^(\d+) passed, (\d+) failed$/gm)].pop()
  return m ? { passed: Number(m[1]), failed: Number(m[2]) } : undefined
}

const rows = []
const failures = []
/** One simulation: checks and TLPs from its output; a missing closing line or a non-zero exit is a mismatch. */
function simulate(row, bin, plusargs, tlpsOf) {
  const r = run(bin, plusargs)
  const c = closing(r.stdout)
  const tlps = tlpsOf(r.stdout)
  row.runs += 1
  row.tlps += tlps ?? 0
  row.passed += c?.passed ?? 0
  const bad = (c?.failed ?? 1) + (c && r.status !== 0 && c.failed === 0 ? 1 : 0) + (tlps === undefined ? 1 : 0)
  row.mismatches += bad
  row.simSeconds += r.seconds
  if (bad > 0) {
    failures.push(
      `${row.label} ${plusargs.join(' ')}:\n${r.out
        .split('\n')
        .filter((l) => /FAIL|Error|passed/.test(l))
        .slice(0, 12)
        .join('\n')}`,
    )
  }
}
const newRow = (bench, cfg, buildSeconds) => ({
  bench,
  ...cfg,
  label: `${bench} ${Object.entries(cfg)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')}`,
  runs: 0,
  tlps: 0,
  passed: 0,
  mismatches: 0,
  buildSeconds,
  simSeconds: 0,
})

const t0 = process.hrtime.bigint()

// 1. tb_probe_tracker: its own model, seeds and RCB/MPS at run time
if (!only || only === 'tracker') {
  for (const seg of [1, 2, 4]) {
    for (const tag of [8, 10]) {
      const b = build(`tracker_s${seg}_t${tag}`, 'tb_probe_tracker', [`-GSEG=${seg}`, `-GTAG_WIDTH=${tag}`], TRACKER_RTL)
      let first = true
      for (const rcb of [64, 128]) {
        for (const mps of [128, 256]) {
          const row = newRow('tb_probe_tracker', { width: '—', seg, tag, rcb, mps }, first ? b.seconds : 0)
          first = false
          for (let s = 1; s <= seeds; s++) {
            const seed = 1000 * seg + 100 * tag + 10 * (rcb / 64) + mps / 128 + 7919 * s
            simulate(row, b.bin, [`+SEED=${seed}`, `+TRAFFIC_CYCLES=${cycles}`, `+RCB=${rcb}`, `+MPS=${mps}`], (o) => {
              const m = /^TLPs: (\d+) accepted/m.exec(o)
              return m ? Number(m[1]) : undefined
            })
          }
          rows.push(row)
          process.stderr.write(`${row.label}: ${row.tlps} TLPs, ${row.mismatches} mismatches\n`)
        }
      }
    }
  }
}

// 2. golden vectors: one tsx process writes every (strb, mps, seed) set
const goldenSets = []
if (!only || only === 'top' || only === 'counters') {
  for (const strb of [8, 16])
    for (const mps of [128, 256]) for (let s = 1; s <= goldenSeeds; s++) goldenSets.push({ strb, mps, seed: 100 + s })
  const dirOf = (g) => join(out, 'golden', `strb${g.strb}_mps${g.mps}_seed${g.seed}`)
  const jobs = JSON.stringify(goldenSets.map((g) => ({ ...g, dir: dirOf(g) })))
  const code = `import('./test/hdl/golden.ts').then((m) => { for (const j of JSON.parse(process.env.SWEEP_JOBS)) m.writeVectors(j.dir, j.seed, j.strb, ${scale}, j.mps) })`
  const g = run('npx', ['tsx', '-e', code], { env: { ...process.env, SWEEP_JOBS: jobs } })
  if (g.status !== 0) {
    process.stderr.write(`golden vectors failed:\n${g.out.slice(-4000)}\n`)
    process.exit(1)
  }
  process.stderr.write(`golden vectors: ${goldenSets.length} sets in ${g.seconds.toFixed(1)} s\n`)
  for (const gs of goldenSets) gs.dir = dirOf(gs)
}
/** The bench reads GOLDEN_DIR at run time: a link re-pointed at each vector set. */
function pointGolden(link, dir) {
  rmSync(link, { force: true })
  symlinkSync(dir, link)
}
const reqCpl = (re) => (o) => {
  const m = re.exec(o)
  return m ? Number(m[1]) + Number(m[2]) : undefined
}

// 3. tb_pcie_scope_bar_top: data width x tag width x MPS builds, every golden seed of its (strb, MPS)
if (!only || only === 'top') {
  for (const width of [256, 512]) {
    for (const tag of [8, 10]) {
      for (const mps of [128, 256]) {
        const name = `top_w${width}_t${tag}_m${mps}`
        const link = join(out, name, 'golden')
        const params = [`-GTLP_DATA_WIDTH=${width}`, `-GTAG_WIDTH=${tag}`, `-GMPS=${mps}`]
        const b = build(name, 'tb_pcie_scope_bar_top', params, ALL_RTL, [`-DGOLDEN_DIR="${link}"`])
        const row = newRow('tb_pcie_scope_bar_top', { width, seg: 1, tag, rcb: '0/64/128', mps }, b.seconds)
        for (const gs of goldenSets.filter((x) => x.strb === width / 32 && x.mps === mps)) {
          pointGolden(link, gs.dir)
          simulate(row, b.bin, [], reqCpl(/^(\d+) requests, (\d+) completions, \d+ beats/m))
        }
        rows.push(row)
        process.stderr.write(`${row.label}: ${row.tlps} TLPs, ${row.mismatches} mismatches\n`)
      }
    }
  }
}

// 4. tb_probe_counters: segments, the 256-bit MPS-256 vectors (headers only)
if (!only || only === 'counters') {
  for (const seg of [1, 2, 4]) {
    const name = `counters_s${seg}`
    const link = join(out, name, 'golden')
    const b = build(name, 'tb_probe_counters', [], COUNTERS_RTL, [`-DGOLDEN_DIR="${link}"`, `-DSEG_COUNT=${seg}`])
    const row = newRow('tb_probe_counters', { width: '—', seg, tag: '—', rcb: '0/64/128', mps: 256 }, b.seconds)
    for (const gs of goldenSets.filter((x) => x.strb === 8 && x.mps === 256)) {
      pointGolden(link, gs.dir)
      simulate(row, b.bin, [], reqCpl(/^SEG_COUNT \d+: (\d+) requests, (\d+) completions/m))
    }
    rows.push(row)
    process.stderr.write(`${row.label}: ${row.tlps} TLPs, ${row.mismatches} mismatches\n`)
  }
}

// 5. tb_probe_trace: its own model, seeds and rounds at run time
if (!only || only === 'trace') {
  const configs = [
    ...[1, 2, 4].flatMap((seg) => [8, 10].map((tag) => ({ seg, tag, depth: 64, rounds: traceRounds }))),
    { seg: 4, tag: 10, depth: 4096, rounds: Math.max(3, Math.round(traceRounds / 20)) },
  ]
  for (const { seg, tag, depth, rounds } of configs) {
    const params = [`-GSEG=${seg}`, `-GTAG_WIDTH=${tag}`, `-GDEPTH=${depth}`]
    const b = build(`trace_s${seg}_t${tag}_d${depth}`, 'tb_probe_trace', params, TRACE_RTL)
    const row = newRow('tb_probe_trace', { width: '—', seg, tag, rcb: '—', mps: '—' }, b.seconds)
    for (let s = 1; s <= seeds; s++) {
      simulate(row, b.bin, [`+SEED=${100 * seg + tag + 7919 * s}`, `+ROUNDS=${rounds}`], (o) => {
        const m = /^TLPs: (\d+) on the taps/m.exec(o)
        return m ? Number(m[1]) : undefined
      })
    }
    rows.push(row)
    process.stderr.write(`${row.label} depth=${depth}: ${row.tlps} TLPs, ${row.mismatches} mismatches\n`)
  }
}

const wall = Number(process.hrtime.bigint() - t0) / 1e9
const sum = (k) => rows.reduce((a, r) => a + r[k], 0)
const version = (cmd, args) => run(cmd, args).out.trim().split('\n')[0]
const L = []
L.push(`### ${new Date().toISOString().slice(0, 10)}: ${rows.length} configurations, ${sum('tlps').toLocaleString('en-US')} TLPs`, '')
L.push(`Command: \`node bench/golden-sweep.mjs ${process.argv.slice(2).join(' ')}\``.replace(/ `$/, '`'), '')
L.push(
  `Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, load average at the end ${loadavg()[0].toFixed(1)}; Node ${process.version}; ` +
    `${version('verilator', ['--version'])}; ${version('iverilog', ['-V'])}`,
  '',
)
L.push(
  '| bench | data width | segments | tag width | RCB | MPS | runs | TLPs | checks passed | mismatches | build s | sim s |',
  '|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|',
)
for (const r of rows) {
  L.push(
    `| ${r.bench} | ${r.width} | ${r.seg} | ${r.tag} | ${r.rcb} | ${r.mps} | ${r.runs} | ${r.tlps} | ${r.passed} | ${r.mismatches} | ${r.buildSeconds.toFixed(0)} | ${r.simSeconds.toFixed(1)} |`,
  )
}
L.push(
  `| **total** | | | | | | ${sum('runs')} | ${sum('tlps')} | ${sum('passed')} | ${sum('mismatches')} | ${sum('buildSeconds').toFixed(0)} | ${sum('simSeconds').toFixed(1)} |`,
  '',
)
L.push(`Wall time ${wall.toFixed(0)} s (builds, golden vectors and simulations).`)
process.stdout.write(L.join('\n') + '\n')
if (failures.length) {
  process.stderr.write(`\n${failures.length} failing runs:\n${failures.slice(0, 10).join('\n\n')}\n`)
}
if (sum('mismatches') > 0 || rows.length === 0) process.exit(1)
