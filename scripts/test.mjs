#!/usr/bin/env node
/**
 * `npm test`: set everything up, run every test through vitest (HDL benches, firmware and model
 * unit tests run as child processes inside it) with coverage of the host, then print the
 * project's closing line.
 */
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { root, run, setup } from './setup.mjs'

try {
  await setup('test')
} catch (e) {
  process.stderr.write(`[test] set-up failed: ${e instanceof Error ? e.message : String(e)}\n`)
  console.log('vitest: 0 passed, 1 failed')
  process.exit(1)
}

const report = join(root, '.vitest-report.json')
rmSync(report, { force: true })
const status = run(join(root, 'node_modules/.bin/vitest'), [
  // coverage thresholds apply to the whole suite, not to a subset picked on the command line
  'run',
  ...(process.argv.length > 2 ? [] : ['--coverage']),
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
])

let passed = 0
let failed = 0
let skipped = 0
try {
  const r = JSON.parse(readFileSync(report, 'utf8'))
  passed = r.numPassedTests
  failed = r.numFailedTests
  skipped = r.numPendingTests + r.numTodoTests
  // a suite that failed to load has no tests in it but must still fail the run
  failed += r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length
} catch {
  failed += 1
}
if (passed + failed === 0) failed = 1 // a run that found no tests fails
// every test passed but vitest failed: the coverage thresholds of vitest.config.ts were missed
if (status !== 0 && failed === 0) {
  process.stderr.write('[test] vitest exited non-zero with every test passing: coverage below its thresholds (see ERROR lines above)\n')
  failed = 1
}
console.log(`vitest: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(status !== 0 || failed > 0 ? 1 : 0)
