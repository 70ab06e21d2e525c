#!/usr/bin/env node
/**
 * Benchmarks of the twin, printed as Markdown for bench/RESULTS.md:
 *
 * 1. A CLI capture of each of the three patterns (1 MiB each): wall time of the whole command (twin
 *    start, PTY, firmware hello, workload, on-demand snapshot, exit), median of N runs; the
 *    baseline measured in the same run is the twin's batch mode on the same workload (RTL +
 *    model, no PTY/firmware/host), so the ratio is what the real UART path costs.
 * 2. Simulation rate: MRds and clock cycles the twin simulates per wall second (batch mode,
 *    64 MiB); the baseline is the traffic model alone (--model-only), so the ratio is the share
 *    of the model's speed that survives driving the Verilated RTL and the link.
 *
 * Usage: node bench/twin-capture.mjs [--runs N] [--capture-bytes N] [--sim-bytes N] [--mode switch|endpoint]
 * (--mode: the twin's design for every capture and batch run; without it the twin's default, the switch)
 * Needs `npm run build` first (npm test or npm start do it).
 */
import { spawnSync } from 'node:child_process'
import { cpus, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const twin = join(root, 'build/twin/pcie-scope-twin')
const cli = join(root, 'bin/pcie-scope.mjs')
const patterns = ['merged-aligned', 'strided', 'merged-misaligned']

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name)
  return i > 0 ? Number(process.argv[i + 1]) : dflt
}
const runs = arg('--runs', 5)
const captureBytes = arg('--capture-bytes', 1 << 20)
const simBytes = arg('--sim-bytes', 64 << 20)
const modeAt = process.argv.indexOf('--mode')
const mode = modeAt > 0 ? process.argv[modeAt + 1] : undefined
if (mode !== undefined && mode !== 'switch' && mode !== 'endpoint') throw new Error('--mode must be switch or endpoint')
const modeArgs = mode ? ['--mode', mode] : []

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

function timed(cmd, args) {
  const t0 = process.hrtime.bigint()
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24 })
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`)
  return { seconds, out: JSON.parse(r.stdout.trim().split('\n').pop()) }
}

const batch = (pattern, bytes, extra = []) => timed(twin, [...modeArgs, '--run', pattern, '--bytes', String(bytes), ...extra])

const lines = []
const say = (s = '') => lines.push(s)

say(
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
)
say(`Design: ${mode ?? 'switch (the twin default)'}`)
say()
say(`### CLI captures (${captureBytes} B, median of ${runs})`)
say()
say(
  '| pattern | `pcie-scope capture --twin … --json` wall s | twin batch, same workload (baseline) wall s | ratio | probe: MRds | probe: simulated µs | probe: GB/s (ceiling) |',
)
say('|---|---|---|---|---|---|---|')
for (const p of patterns) {
  const cap = []
  const base = []
  let last
  for (let i = 0; i < runs; i++) {
    const c = timed(process.execPath, [cli, 'capture', '--twin', ...modeArgs, '--pattern', p, '--bytes', String(captureBytes), '--json'])
    cap.push(c.seconds)
    last = c.out
    base.push(batch(p, captureBytes).seconds)
  }
  const mc = median(cap)
  const mb = median(base)
  say(
    `| ${p} | ${mc.toFixed(3)} | ${mb.toFixed(3)} | ${(mc / mb).toFixed(1)}× | ${last.requests.count} | ${(last.seconds * 1e6).toFixed(1)} | ${last.rates.gbPerSecond.toFixed(2)} (${last.pcie.ceilingGbPerSecond?.toFixed(2) ?? '–'}) |`,
  )
}
say()
say(`### Simulation rate (twin batch mode, ${simBytes} B, median of ${Math.max(3, Math.ceil(runs / 2))})`)
say()
say('| pattern | MRds | simulated cycles | twin MRd/s | twin cycles/s | model alone MRd/s (baseline) | twin / model |')
say('|---|---|---|---|---|---|---|')
const n = Math.max(3, Math.ceil(runs / 2))
for (const p of patterns) {
  const t = Array.from({ length: n }, () => batch(p, simBytes))
  const m = Array.from({ length: n }, () => batch(p, simBytes, ['--model-only']))
  const tw = median(t.map((r) => r.out.wallSeconds))
  const mw = median(m.map((r) => r.out.wallSeconds))
  const mrds = t[0].out.mrd.count
  const cycles = t[0].out.simCycles
  const twinRate = mrds / tw
  const modelRate = mrds / mw
  say(
    `| ${p} | ${mrds} | ${cycles} | ${(twinRate / 1e6).toFixed(2)} M | ${(cycles / tw / 1e6).toFixed(2)} M | ${(modelRate / 1e6).toFixed(2)} M | ${(twinRate / modelRate).toFixed(2)} |`,
  )
}
console.log(lines.join('\n'))
