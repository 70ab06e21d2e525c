#!/usr/bin/env node
// pcie-scope CLI entry: runs the compiled dist/host/cli/main.js (`npm run build:ts`).
// PCIE_SCOPE_FROM_SOURCE=1 runs host/src/cli/main.ts through tsx instead (development, tests).
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const dist = new URL('../dist/host/cli/main.js', import.meta.url)
const src = new URL('../host/src/cli/main.ts', import.meta.url)

let mod
if (process.env.PCIE_SCOPE_FROM_SOURCE === '1') {
  const { register } = await import('tsx/esm/api')
  register()
  mod = await import(src.href)
} else if (existsSync(fileURLToPath(dist))) {
  mod = await import(dist.href)
} else {
  process.stderr.write('pcie-scope: dist/host/cli/main.js is missing: run `npm run build:ts` first\n')
  process.exit(1)
}

const code = await mod.main(process.argv)
process.exitCode = code
// a leaked handle must not keep a finished command alive
setTimeout(() => process.exit(code), 3000).unref()
