#!/usr/bin/env node
// Bundles the web UI: web/main.ts → dist/web/main.js (esm, minified, sourcemap) and copies
// index.html, style.css and the page's warp table (web/generated/warp-table.json, fetched by the
// page) next to it; into dist/web, nothing runs when the bundle is newer than web/ and the
// lockfile. --test bundles web/test-entry.ts instead: the same page plus the hooks
// the browser tests read (window.__pcieScope), which the production bundle lacks.
// Usage: node scripts/build-web.mjs [--outdir DIR] [--test] [--force]
import { copyFile, mkdir } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isFresh } from './fresh.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const i = process.argv.indexOf('--outdir')
const outdir = i > 0 && process.argv[i + 1] ? resolve(process.argv[i + 1]) : join(root, 'dist', 'web')

const test = process.argv.includes('--test')
const entry = test ? 'test-entry.ts' : 'main.ts'

// the freshness check covers the production bundle in dist/web only
const outputs = ['main.js', 'main.js.map', 'index.html', 'style.css', 'warp-table.json'].map((f) => join(outdir, f))
const inputs = [join(root, 'web'), join(root, 'package-lock.json'), fileURLToPath(import.meta.url)]
if (i < 0 && !test && !process.argv.includes('--force') && isFresh(outputs, inputs)) process.exit(0)

const { build } = await import('esbuild')
await mkdir(outdir, { recursive: true })
const result = await build({
  absWorkingDir: root,
  entryPoints: [join(root, 'web', entry)],
  outfile: join(outdir, 'main.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox110', 'safari16'],
  minify: true,
  sourcemap: true,
  legalComments: 'linked',
  logLevel: 'warning',
  metafile: true,
})
await Promise.all(
  ['index.html', 'style.css', 'generated/warp-table.json'].map((f) => copyFile(join(root, 'web', f), join(outdir, basename(f)))),
)
const bytes = Object.values(result.metafile.outputs).reduce((a, o) => a + (o.bytes ?? 0), 0)
if (process.argv.includes('--verbose')) console.log(`web: ${outdir} (${(bytes / 1024).toFixed(0)} KiB incl. map)`)
