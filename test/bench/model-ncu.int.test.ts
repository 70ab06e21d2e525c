// bench/model-ncu.mjs: the scheduled LRU model against the Nsight Compute counts recorded on an
// H100 (test/bench/fixtures/ncu/h100-2026-11-24.json), for the rows that run in seconds. The
// slow rows (strided at 32 MiB and more, BFS on scale-20 graphs) are in bench/RESULTS.md.
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildRunner, root } from '../native/cuda/gpu-runner.js'

const build = resolve(root, 'build/gpu-stub') // pcie-scope-model needs no CUDA

interface ModelResult {
  mrd: number
  errorPercent: number
  seconds: number
}
interface Row {
  name: string
  set: string
  measured: number
  goal: number | null
  lru: ModelResult
  ideal?: ModelResult
}

const replay = (args: string[]) => {
  const r = spawnSync(process.execPath, ['bench/model-ncu.mjs', '--build', build, '--json', ...args], {
    cwd: root,
    encoding: 'utf8',
  })
  expect(r.status, r.stderr).toBe(0)
  return (JSON.parse(r.stdout) as { rows: Row[] }).rows
}

beforeAll(() => {
  const b = buildRunner('gpu-stub', ['--no-cuda'])
  expect(b.status, b.output).toBe(0)
})

describe('bench/model-ncu.mjs (recorded H100 counts against the LRU model)', () => {
  it('predicts every merged kernel and every L1-bypassing kernel within 5 % of the H100', () => {
    const rows = replay(['--set', 'micro', '--models', 'lru', '--match', '^(merged-|strided-e\\d+-bypass)'])
    expect(rows).toHaveLength(15)
    for (const r of rows) expect(Math.abs(r.lru.errorPercent), r.name).toBeLessThan(5)
    // the recorded counts themselves: 64 MiB of 128-B reads, plus the runner's own 192
    expect(rows.find((r) => r.name === 'merged-aligned-e4-ideal')).toMatchObject({ measured: 524480, lru: { mrd: 524288 } })
    // misaligned with default loads: the real GPU merges some straddling reads the model keeps apart
    expect(rows.find((r) => r.name === 'merged-misaligned-e4-ideal')!.lru.errorPercent).toBeCloseTo(-2.2, 1)
  })

  it('keeps the strided walk ideal while its lines fit the L1 (<= 4 blocks per SM), as the sweep measured', () => {
    const rows = replay(['--set', 'sweep', '--models', 'lru', '--match', '^strided-e(4|16)-ideal (1|4|16) MiB$'])
    expect(rows).toHaveLength(6)
    for (const r of rows) {
      const bytes = Number(/ (\d+) MiB$/.exec(r.name)![1]) << 20
      expect(r.lru.mrd, r.name).toBe(bytes / 32) // 4 reads per 128-B line: nothing evicted
      expect(Math.abs(r.lru.errorPercent), r.name).toBeLessThan(1.1)
    }
  })

  it('predicts the strided walk under L1 pressure with the fitted random L1 (docs/gpu-model.md)', () => {
    // 16-B lanes, 64 MiB: 8 blocks per SM keep 2 048 lines in flight against the 1 891 fitted
    const [r] = replay(['--set', 'micro', '--match', '^strided-e16-ideal$'])
    expect(r!.lru.mrd).toBe(2271670) // seeded victims: the same count every run
    expect(r!.ideal!.mrd).toBe(2097152)
    expect(Math.abs(r!.lru.errorPercent)).toBeLessThan(1) // the H100 measured 2 253 120
    expect(r!.ideal!.mrd).toBeLessThan(r!.measured) // the ideal L1 stays a lower bound
  })
})
