#!/usr/bin/env node
// Writes web/generated/warp-table.json: what one warp's loads touch (lanes, lines, sectors, the
// reads the coalescer makes) for every pattern, lane width and offset of spec/workloads.json and
// every graph kernel, from native/model through `pcie-scope-model --warp-table`. The page cannot
// run the model, so it fetches and draws this table; a new pattern in the spec gets its diagram
// by running this again (after `npm run gen` and the pattern's arithmetic in patterns.h).
// test/web/pattern-diagram.int.test.ts fails while the file is not what the model prints.
//
// Usage: node scripts/gen-warp-table.mjs [--check]
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildGpu } from './build-gpu.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const warpTablePath = join(root, 'web', 'generated', 'warp-table.json')

/** The table as the model prints it (builds the CPU-only model into build/gpu-stub). */
export function modelWarpTable() {
  const buildDir = join(root, 'build', 'gpu-stub')
  buildGpu({ cuda: false, buildDir, quiet: true })
  const r = spawnSync(join(buildDir, 'pcie-scope-model'), ['--warp-table'], { encoding: 'utf8', maxBuffer: 64 << 20 })
  if (r.status !== 0) throw new Error(`pcie-scope-model --warp-table failed (exit ${r.status}): ${r.stderr}`)
  return JSON.parse(r.stdout)
}

/**
 * The file's text: one entry a line, so a change reads as a small diff. The page fetches it
 * beside its bundle (scripts/build-web.mjs copies it), the Node tests read it.
 */
export function warpTableSource(t) {
  const { patterns, graph, ...head } = t
  const { kernels, ...example } = graph
  const lines = (xs) => xs.map((x) => `    ${JSON.stringify(x)}`).join(',\n')
  const fields = (o) =>
    Object.entries(o)
      .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}, `)
      .join('')
  return `{ ${fields(head)}"patterns": [
${lines(patterns)}
  ],
  "graph": { ${fields(example)}"kernels": [
${lines(kernels)}
  ] }
}
`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = warpTableSource(modelWarpTable())
  if (process.argv.includes('--check')) {
    if (readFileSync(warpTablePath, 'utf8') !== text) {
      console.error(`${warpTablePath} is stale: run node scripts/gen-warp-table.mjs`)
      process.exit(1)
    }
  } else writeFileSync(warpTablePath, text)
}
