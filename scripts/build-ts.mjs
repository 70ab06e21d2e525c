#!/usr/bin/env node
// Compiles host/src into dist/host (tsconfig.build.json), incrementally: nothing runs when every
// output is newer than the sources and configs, otherwise tsc --incremental recompiles what
// changed, and outputs whose source is gone are removed. Usage: node scripts/build-ts.mjs [--force]
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isFresh } from './fresh.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const src = join(root, 'host', 'src')
const out = join(root, 'dist', 'host')
const info = join(out, '.tsbuildinfo')
const stamp = join(out, '.built')
const inputs = [src, join(root, 'tsconfig.json'), join(root, 'tsconfig.build.json'), join(root, 'package-lock.json')]

if (!process.argv.includes('--force') && isFresh([stamp], inputs)) process.exit(0)

const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--incremental', '--tsBuildInfoFile', info], {
  cwd: root,
  stdio: 'inherit',
})
if (r.error || r.status !== 0) process.exit(r.status || 1)

// a source removed or renamed leaves its old output behind: drop every output without a source
const sourceOf = (file) => join(src, relative(out, file).replace(/\.js(\.map)?$/, '.ts'))
const prune = (dir) => {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e)
    if (statSync(p).isDirectory()) prune(p)
    else if (/\.js(\.map)?$/.test(e) && !existsSync(sourceOf(p))) rmSync(p)
  }
}
prune(out)
// tsc --incremental leaves unchanged outputs untouched: the stamp records that this build is current
writeFileSync(stamp, '')
const now = new Date()
utimesSync(stamp, now, now)
