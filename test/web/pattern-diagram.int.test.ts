// The page's warp table against the model it was generated from: web/generated/warp-table.ts is
// what `pcie-scope-model --warp-table` prints now (fresh), and the page's prediction of a run's
// reads from it (web/predict.ts) equals pcie-scope-model's for every spec pattern and lane width.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ELEMENT_BYTES, L1_LOADS, PATTERN_SPECS } from '../../host/src/core/workload.js'
import { modelWarpTable, warpTablePath, warpTableSource } from '../../scripts/gen-warp-table.mjs'
import { predictedReads } from '../../web/predict.js'
import { patternEntry } from '../../web/pattern-diagram.js'
import { WARP_TABLE } from './warp-table.js'
import { root, runRunner } from '../native/cuda/gpu-runner.js'

interface ModelOut {
  mrd: { count: number; bySize: Record<string, number>; bytes: number }
}

describe('the warp table and pcie-scope-model', () => {
  const table = modelWarpTable() // builds build/gpu-stub's model

  it('web/generated/warp-table.ts is what the model prints (run node scripts/gen-warp-table.mjs)', () => {
    expect(readFileSync(warpTablePath, 'utf8')).toBe(warpTableSource(table))
  })

  it('the predicted reads of every spec pattern and lane width equal the model’s, at one, three and 256 table blocks', () => {
    const model = resolve(root, 'build/gpu-stub/pcie-scope-model')
    for (const p of PATTERN_SPECS)
      for (const e of ELEMENT_BYTES)
        for (const offset of [...new Set([0, p.defaultOffset, 32, 4 * e])])
          for (const l1 of L1_LOADS)
            for (const bytes of [WARP_TABLE.bytes, 256 * WARP_TABLE.bytes, 3 * WARP_TABLE.bytes]) {
              const what = `${p.name} E=${e} +${offset} ${l1} ${bytes} B`
              const r = runRunner(model, [
                '--pattern',
                p.name,
                '--bytes',
                String(bytes),
                '--offset',
                String(offset),
                '--element-bytes',
                String(e),
                '--l1',
                l1,
              ])
              expect(r.status, `${what}: ${r.stderr}`).toBe(0)
              const m = (r.objects[0] as unknown as ModelOut).mrd
              const w = { pattern: p.name, bytes, offset, elementBytes: e, l1 }
              const predicted = predictedReads(w, WARP_TABLE)
              expect(predicted, what).toMatchObject({ count: m.count, bytes: m.bytes, bySize: m.bySize, exact: true })
              if (bytes === WARP_TABLE.bytes) expect(patternEntry(p.name, e, offset, WARP_TABLE)!.totals[0]![l1].count, what).toBe(m.count)
            }
  })
})
