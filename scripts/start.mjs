#!/usr/bin/env node
/** `npm start`: set up, then serve the twin, the server and the UI (demo workloads loop). */
import { join } from 'node:path'
import { root, run, setup } from './setup.mjs'

try {
  await setup('start')
} catch (e) {
  process.stderr.write(`[start] set-up failed: ${e instanceof Error ? e.message : String(e)}\n`)
  process.exit(1)
}
const extra = process.argv.slice(2)
process.exit(run(process.execPath, [join(root, 'bin/pcie-scope.mjs'), 'serve', '--twin', '--demo', ...extra]))
