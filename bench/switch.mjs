#!/usr/bin/env node
/**
 * The switch RTL (hdl/rtl/switch/) at length and in area, printed as Markdown for bench/RESULTS.md.
 *
 * 1. A long seeded random run per layout: tb_sw_router under Verilator with N random TLPs per
 *    direction (the vitest gate runs 1 500 at 1 segment, 800 at 4), checked against the golden
 *    router like the short run, plus the full-rate phase, the throughput test (--full-rate beats
 *    per direction whose every segment holds a forwarded TLP; as many beats out, no bubble), at
 *    1 segment of 256 bits and 4 segments of 512 bits.
 * 2. Yosys synth_xilinx -family xcup of sw_router at 256 and 512 bits, and at 512 bits with 4
 *    segments: flip-flops, LUTs, LUT RAM.
 *
 * Usage: node bench/switch.mjs [--random N] [--seed S] [--full-rate BEATS]
 * Needs verilator and yosys (scripts/setup.mjs installs them).
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rtlFiles } from '../hdl/file-list.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : dflt
}
const random = Number(arg('random', '8000'))
const seed = Number(arg('seed', '2'))
const fullRate = Number(arg('full-rate', '4096'))
const out = join(root, 'build/bench/switch')
mkdirSync(out, { recursive: true })

const RTL = rtlFiles('hdl/rtl/switch/sw_router.f')

function run(cmd, args) {
  const t0 = process.hrtime.bigint()
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 256 << 20 })
  const s = Number(process.hrtime.bigint() - t0) / 1e9
  if (r.status !== 0) {
    process.stderr.write(`${cmd} ${args.join(' ')} failed:\n${(r.stdout ?? '').slice(-4000)}${r.stderr ?? ''}\n`)
    process.exit(1)
  }
  return { stdout: r.stdout, seconds: s }
}

// 1. long random run, per layout
function longRun(segments, dataDw) {
  const golden = join(out, `golden_seg${segments}`)
  const gen = run('npx', [
    'tsx',
    'test/hdl/switch-golden.ts',
    '--out',
    golden,
    '--seed',
    String(seed),
    '--random',
    String(random),
    '--segments',
    String(segments),
    '--data-dw',
    String(dataDw),
    '--full-rate',
    String(fullRate),
  ])
  const cap = 4 * random + 4 * fullRate + 4096
  const mdir = join(out, `verilator_seg${segments}`)
  mkdirSync(mdir, { recursive: true })
  run('verilator', [
    '--binary',
    '--timing',
    '-j',
    '2',
    '-Ihdl/rtl/generated',
    `-DGOLDEN_DIR="${golden}"`,
    `-DTB_MAXB=${cap}`,
    `-DTB_MAXT=${cap}`,
    `-DTB_SEGS=${segments}`,
    `-DTB_DW=${dataDw}`,
    '--top-module',
    'tb_sw_router',
    '-Mdir',
    mdir,
    '-o',
    'Vtb',
    'hdl/tb/tb_sw_router.sv',
    ...RTL,
  ])
  const sim = run(join(mdir, 'Vtb'), [])
  return {
    segments,
    dataDw,
    gen,
    sim,
    closing: /^(\d+) passed, (\d+) failed$/m.exec(sim.stdout),
    full: [...sim.stdout.matchAll(/^full rate .*$/gm)].map((m) => m[0]),
    multi: /^beats with several TLP starts: .*$/m.exec(sim.stdout)?.[0],
    clocks: [...sim.stdout.matchAll(/^phase \d+ done at (\d+)$/gm)].pop()?.[1],
  }
}
const runs = [longRun(1, 8), longRun(4, 16)]

// 2. area
// width null: the RTL's default (256), as test/hdl/switch.int.test.ts synthesises it; a number: set
// through chparam (Yosys 0.23 maps the re-derived module differently, so 256 is reported both ways)
function synth(width, segments = 1) {
  const report = join(out, `synth_${width ?? 'default'}_seg${segments}.log`)
  const script = [
    `read_verilog -Ihdl/rtl/generated ${RTL.join(' ')}`,
    ...(width ? [`chparam -set TLP_DATA_WIDTH ${width} -set TLP_SEG_COUNT ${segments} sw_router`] : []),
    'synth_xilinx -family xcup -top sw_router -flatten',
    'select -assert-none t:$dlatch t:LDCE t:LDPE',
    `tee -o ${report} stat -tech xilinx`,
  ].join('; ')
  const r = run('yosys', ['-q', '-p', script])
  const stat = readFileSync(report, 'utf8')
  const cell = (n) => Number(new RegExp(`^\\s+${n}\\s+(\\d+)$`, 'm').exec(stat)?.[1] ?? 0)
  const luts = [1, 2, 3, 4, 5, 6].reduce((a, k) => a + cell(`LUT${k}`), 0)
  const lcs = Number(/Estimated number of LCs:\s+(\d+)/.exec(stat)?.[1])
  return {
    width,
    segments,
    ffs: cell('FDRE') + cell('FDSE'),
    luts,
    lcs,
    lutram: cell('RAM32M16') + cell('RAM64M8') + cell('RAM32M') + cell('RAM64M'),
    seconds: r.seconds,
  }
}
const areas = [synth(null), synth(256), synth(512), synth(512, 4)]

const date = new Date().toISOString().slice(0, 10)
const yosys = spawnSync('yosys', ['-V'], { encoding: 'utf8' }).stdout.trim().split(' ').slice(0, 2).join(' ')
const L = []
L.push(`### ${date}: sw_router, seed ${seed}, ${random} random TLPs per direction, ${fullRate} full-rate beats`, '')
L.push(`Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; ${yosys}`, '')
for (const r of runs) {
  L.push(`${r.segments} segment(s) of ${(32 * r.dataDw) / r.segments} bits (${32 * r.dataDw}-bit beats):`, '')
  L.push(`- golden vectors: ${r.gen.stdout.trim()} (${r.gen.seconds.toFixed(1)} s);`)
  L.push(
    `- Verilator run: ${r.closing ? `${r.closing[1]} passed, ${r.closing[2]} failed` : 'no closing line'}, ${r.clocks} clocks, ${r.sim.seconds.toFixed(1)} s;`,
  )
  L.push(`- ${r.multi ?? 'no several-starts line'};`)
  for (const f of r.full) L.push(`- ${f}`)
  L.push('')
}
L.push('| TLP_DATA_WIDTH | segments | flip-flops | LUTs | LUT RAM cells | Yosys LCs | synth s |', '|---|---|---|---|---|---|---|')
for (const a of areas)
  L.push(
    `| ${a.width ? `${a.width} (chparam)` : '256 (default)'} | ${a.segments} | ${a.ffs} | ${a.luts} | ${a.lutram} | ${a.lcs} | ${a.seconds.toFixed(0)} |`,
  )
process.stdout.write(L.join('\n') + '\n')
if (runs.some((r) => !r.closing || r.closing[2] !== '0')) process.exit(1)
