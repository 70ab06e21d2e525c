#!/usr/bin/env node
// Bundles the web UI: web/main.ts → dist/web/main.js (esm, minified, sourcemap) and copies
// index.html and style.css next to it. --test bundles web/test-entry.ts instead: the same page
// plus the hooks the browser tests read (window.__pcieScope), which the production bundle lacks.
// Usage: node scripts/build-web.mjs [--outdir DIR] [--test]
import { copyFile, mkdir } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const i = process.argv.indexOf('--outdir')
const outdir = i > 0 && process.argv[i + 1] ? resolve(process.argv[i + 1]) : join(root, 'dist', 'web')

const entry = process.argv.includes('--test') ? 'test-entry.ts' : 'main.ts'

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
await Promise.all(['index.html', 'style.css'].map((f) => copyFile(join(root, 'web', f), join(outdir, f))))
const bytes = Object.values(result.metafile.outputs).reduce((a, o) => a + (o.bytes ?? 0), 0)
if (process.argv.includes('--verbose')) console.log(`web: ${outdir} (${(bytes / 1024).toFixed(0)} KiB incl. map)`)
