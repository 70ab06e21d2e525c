#!/usr/bin/env node
/**
 * The traffic model against the Nsight Compute counts recorded on a real GPU, without the GPU:
 * replays test/bench/fixtures/ncu/h100-2026-11-24.json (the H100's MRd counts for every micro
 * kernel at 64 MiB, the strided L1 sweep, BFS on kron:20 and urand:20; provenance inside) through
 * pcie-scope-model with the scheduled LRU model and the ideal one, and prints, per kernel, the
 * measured MRds, each model's prediction and error, and each model's wall time (the LRU/ideal
 * ratio measured in the same run).
 *
 * Usage: node bench/model-ncu.mjs [--build DIR] [--set micro,sweep,graphs] [--models lru,ideal]
 *                                 [--recorded FILE] [--match REGEX] [--json]
 *   --build DIR  where pcie-scope-model is (default build/gpu; build/gpu-stub needs no CUDA)
 *   --set        which recorded tables (default all; graphs generate kron:20 and urand:20 once
 *                into the graph cache and take minutes)
 *   --match      only the rows whose name matches REGEX
 * On a GPU host, bench/gpu-ncu.mjs profiles anew and prints the same comparison.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const OFF_LIMIT_PERCENT = 5
const BFS_LIMIT_PERCENT = 7 // the goal for BFS merged / aligned

const errorPercent = (pred, meas) => ((meas - pred) / pred) * 100

/** One pcie-scope-model run: its JSON and its wall seconds (process start included). */
function model(bin, args) {
  const t0 = process.hrtime.bigint()
  const r = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 16 << 20 })
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9
  if (r.error) throw new Error(`${bin}: ${r.error.message}`)
  if (r.status !== 0) throw new Error(`pcie-scope-model ${args.join(' ')}: ${r.stdout}${r.stderr}`)
  return { json: JSON.parse(r.stdout), seconds }
}

/** The cases of the recorded file: { name, set, args, measured MRds, goal (percent or null) }. */
export function recordedCases(rec, sets) {
  const out = []
  if (sets.includes('micro'))
    for (const r of rec.micro) {
      const offset = r.pattern === 'merged-misaligned' ? 32 : 0
      const args = ['--pattern', r.pattern, '--bytes', String(r.usefulBytes), '--offset', String(offset)]
      args.push('--element-bytes', String(r.elementBytes), '--l1', r.l1)
      out.push({ name: r.kernel, set: 'micro', args, measured: r.mrd, goal: OFF_LIMIT_PERCENT })
    }
  if (sets.includes('sweep'))
    for (const s of rec.sweep)
      for (const [e, perLine] of Object.entries(s.mrdPerLine)) {
        const args = ['--pattern', 'strided', '--bytes', String(s.bytes), '--element-bytes', e, '--l1', 'ideal']
        const measured = Math.round(perLine * (s.bytes / 128))
        out.push({ name: `strided-e${e}-ideal ${s.bytes >> 20} MiB`, set: 'sweep', args, measured, goal: OFF_LIMIT_PERCENT })
      }
  if (sets.includes('graphs'))
    for (const g of rec.graphs) {
      const args = ['--pattern', g.pattern, '--graph', g.graph, '--source', String(g.source), '--id-bytes', '8']
      const goal = g.pattern === 'bfs-naive' ? null : BFS_LIMIT_PERCENT
      out.push({ name: g.kernel, set: 'graphs', args, measured: g.mrd, goal })
    }
  return out
}

/** Every case through every model: rows with per-model { mrd, errorPercent, seconds }. */
export function replay(bin, cases, models) {
  return cases.map((c) => {
    const row = { name: c.name, set: c.set, measured: c.measured, goal: c.goal }
    for (const m of models) {
      const { json, seconds } = model(bin, [...c.args, '--l1-model', m])
      row[m] = { mrd: json.mrd.count, errorPercent: errorPercent(json.mrd.count, c.measured), seconds }
    }
    return row
  })
}

const fmtInt = (v) => Math.round(v).toLocaleString('en-US')
const fmtPct = (v) => `${v >= 0 ? '+' : ''}${v.toFixed(1)} %`

export function markdown(rows, models) {
  const L = [
    `| kernel | MRds measured | ${models.map((m) => `${m} MRds | error`).join(' | ')} | ${models.map((m) => `${m} s`).join(' | ')} |`,
    `|---|---:|${models.map(() => '---:|---:|').join('')}${models.map(() => '---:|').join('')}`,
  ]
  for (const r of rows) {
    const off = r.goal !== null && models[0] && Math.abs(r[models[0]].errorPercent) > r.goal
    L.push(
      `| ${r.name}${off ? ' ⚠' : ''} | ${fmtInt(r.measured)} | ${models.map((m) => `${fmtInt(r[m].mrd)} | ${fmtPct(r[m].errorPercent)}`).join(' | ')} | ${models.map((m) => r[m].seconds.toFixed(2)).join(' | ')} |`,
    )
  }
  if (models.length === 2) {
    const sum = (m) => rows.reduce((a, r) => a + r[m].seconds, 0)
    L.push(
      '',
      `Wall time, all rows: ${models.map((m) => `${m} ${sum(m).toFixed(1)} s`).join(', ')} (${models[0]} / ${models[1]} = ${(sum(models[0]) / sum(models[1])).toFixed(2)}).`,
    )
  }
  return L.join('\n') + '\n'
}

function main(argv) {
  const opt = (name, dflt) => {
    const i = argv.indexOf(name)
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : dflt
  }
  const bin = join(resolve(opt('--build', join(root, 'build/gpu'))), 'pcie-scope-model')
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run build:gpu`)
  const rec = JSON.parse(readFileSync(opt('--recorded', join(root, 'test/bench/fixtures/ncu/h100-2026-11-24.json')), 'utf8'))
  const sets = opt('--set', 'micro,sweep,graphs').split(',')
  const models = opt('--models', 'lru,ideal').split(',')
  for (const m of models) if (m !== 'lru' && m !== 'ideal') throw new Error(`--models: unknown model ${m}`)
  const match = new RegExp(opt('--match', ''))
  const rows = replay(
    bin,
    recordedCases(rec, sets).filter((c) => match.test(c.name)),
    models,
  )
  process.stdout.write(argv.includes('--json') ? JSON.stringify({ gpu: rec.gpu, models, rows }) + '\n' : markdown(rows, models))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2))
  } catch (e) {
    process.stderr.write(`model-ncu: ${e instanceof Error ? e.message : String(e)}\n`)
    process.exit(1)
  }
}
