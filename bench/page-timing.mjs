#!/usr/bin/env node
/**
 * The page's timing in Chromium, printed as Markdown for bench/RESULTS.md: the rate chart's update
 * at 600 points while streaming (bench/page/chart-update.timing.ts) and the trace timeline's
 * redraw at 50 000 records while zoomed and panned (bench/page/trace-redraw.timing.ts), each timed
 * in the page with performance.now() (web/update-timing.ts). They run on the fake session, one at
 * a time; each fails when its figure exceeds its budget (3 ms for the fastest tenth of the chart
 * updates, 50 ms for the median redraw). Wall time in a shared machine: the load is printed.
 *
 * Usage: node bench/page-timing.mjs [--only chart|trace]
 * Needs Chromium (scripts/setup.mjs installs it for the e2e tests).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const i = process.argv.indexOf('--only')
const only = i > 0 ? process.argv[i + 1] : undefined
if (only !== undefined && only !== 'chart' && only !== 'trace') throw new Error('--only takes chart or trace')
const files = { chart: 'bench/page/chart-update.timing.ts', trace: 'bench/page/trace-redraw.timing.ts' }
const picked = only ? [files[only]] : Object.values(files)
const out = { chart: join(root, 'build/e2e/chart-update.json'), trace: join(root, 'build/e2e/trace-redraw.json') }
for (const f of Object.values(out)) rmSync(f, { force: true })

const r = spawnSync(join(root, 'node_modules/.bin/vitest'), ['run', '--config', 'bench/page/vitest.config.ts', ...picked], {
  cwd: root,
  stdio: 'inherit',
})
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim()
const read = (f) => {
  try {
    return JSON.parse(readFileSync(f, 'utf8'))
  } catch {
    return undefined
  }
}
const f1 = (x) => (x == null ? '' : Number(x).toFixed(1))
console.log(
  `\n${cpus().length} × ${cpus()[0]?.model.trim() ?? '?'}, ${new Date().toISOString().slice(0, 10)}, commit ${commit}: \`node bench/page-timing.mjs${only ? ` --only ${only}` : ''}\`\n`,
)
const chart = read(out.chart)
if (chart) {
  console.log('| commit | load | updates | p10 ms | p25 ms | median ms | p95 ms | max ms |')
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|')
  console.log(
    `| ${commit} | ${f1(chart.loadAverage)} | ${chart.updates} | ${f1(chart.p10Ms)} | ${f1(chart.p25Ms)} | ${f1(chart.medianMs)} | ${f1(chart.p95Ms)} | ${f1(chart.maxMs)} |\n`,
  )
}
const trace = read(out.trace)
if (trace) {
  console.log('| commit | load | redraws | median ms | p90 ms | max ms | the whole trace, ms |')
  console.log('|---|---:|---:|---:|---:|---:|---:|')
  console.log(
    `| ${commit} | ${f1(trace.loadavg)} | ${trace.redraws} | ${f1(trace.medianMs)} | ${f1(trace.p90Ms)} | ${f1(trace.maxMs)} | ${f1(trace.wholeTraceMs)} |`,
  )
}
process.exit(r.status ?? 1)
