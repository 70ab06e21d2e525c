// bench/twin-rate.mjs: twin builds compared on the same simulation. Fake twins (scripts printing
// a done line) stand in for builds, so the test needs no Verilated model: two that simulate the
// same thing are timed and compared, one that simulates something else is refused.
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { root } from '../native/cuda/gpu-runner.js'

function fakeTwin(dir: string, name: string, simCycles: number, wallSeconds: number) {
  const path = join(dir, name)
  const done = { event: 'done', pattern: 'merged-aligned', mrd: { count: 1000 }, simCycles, wallSeconds }
  writeFileSync(path, `#!/bin/sh\necho 'pcie-scope-twin: batch run'\necho '${JSON.stringify(done)}'\n`)
  chmodSync(path, 0o755)
  return path
}

const bench = (args: string[]) =>
  spawnSync(process.execPath, ['bench/twin-rate.mjs', '--runs', '3', '--modes', 'switch', '--patterns', 'merged-aligned', ...args], {
    cwd: root,
    encoding: 'utf8',
  })

describe('bench/twin-rate.mjs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'twin-rate-'))
  const slow = fakeTwin(dir, 'slow', 2600, 0.002)
  const fast = fakeTwin(dir, 'fast', 2600, 0.001)
  const other = fakeTwin(dir, 'other', 2601, 0.001)

  it('times builds that simulate the same thing and gives the ratio to the first', () => {
    const r = bench([slow, fast])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toContain('Every build gave the same done line')
    // 1000 MRds in 2 ms and in 1 ms
    expect(r.stdout).toMatch(/\| switch \| merged-aligned \| 1000 \| 0\.500 M \[0\.50–0\.50\] \| 1\.000 M \[1\.00–1\.00\] \| 2\.00× \|/)
  })

  it('refuses a build whose simulation differs (here by one cycle)', () => {
    const r = bench([slow, other])
    expect(r.status).not.toBe(0)
    expect(r.stderr).toMatch(/simulate switch merged-aligned differently/)
  })
})
