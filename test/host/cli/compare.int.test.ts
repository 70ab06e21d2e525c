// `pcie-scope compare` and `summary` end to end: two recordings made by `capture --twin` (the real
// twin, its RTL probe), compared by name and by path, as text, JSON and the HTML report; the
// summary `capture` prints and carries in --json is the one the recording keeps.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunResult } from '../../../host/src/measure/run.js'
import type { Comparison } from '../../../host/src/core/compare.js'
import type { RunEntry } from '../../../host/src/core/run-summary.js'
import { runCli } from './run-cli.js'

const root = resolve(import.meta.dirname, '../../..')
const work = mkdtempSync(join(tmpdir(), 'ps-compare-'))
const captured = new Map<string, RunResult>()

beforeAll(async () => {
  const r = spawnSync(process.execPath, [resolve(root, 'scripts/build-twin.mjs')], { cwd: root, encoding: 'utf8' })
  expect(r.status, r.stdout + r.stderr).toBe(0)
  for (const [name, pattern] of [
    ['narrow', 'strided'],
    ['wide', 'merged-aligned'],
  ] as const) {
    const c = await runCli('capture', '--twin', '--pattern', pattern, '--bytes', '262144', '--out', name, '--dir', work, '--json')
    expect(c.code, c.stderr).toBe(0)
    captured.set(name, JSON.parse(c.stdout) as RunResult)
  }
}, 120_000)
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('pcie-scope compare (recordings of the real twin)', () => {
  it('capture --json carries the summary the recording keeps', async () => {
    const narrow = captured.get('narrow')!
    expect(narrow.summary.requests.count).toBe(262144 / 32)
    expect(narrow.summary.model?.matchesProbe).toBe(true)
    expect(narrow.summary.latencyNs.p50).not.toBeNull()
    const r = await runCli('summary', 'narrow', '--dir', work, '--json')
    expect(r.code, r.stderr).toBe(0)
    const runs = (JSON.parse(r.stdout) as { runs: RunEntry[] }).runs
    expect(runs).toHaveLength(1)
    expect(runs[0]).toMatchObject({ key: 'narrow#1', recording: 'narrow', origin: 'capture', source: 'twin' })
    expect(runs[0]!.summary).toEqual(narrow.summary)
  })

  it('compares two recordings: every metric with its change, the limits, and why', async () => {
    const r = await runCli('compare', 'narrow', join(work, 'wide'), '--dir', work, '--json')
    expect(r.code, r.stderr).toBe(0)
    const c = JSON.parse(r.stdout) as Comparison
    expect(c.runs.map((e) => e.key)).toEqual(['narrow#1', 'wide#1'])
    const gb = c.metrics.find((m) => m.key === 'gbPerSecond')!
    expect(gb.values[1]!).toBeGreaterThan(gb.values[0]!)
    expect(c.metrics.find((m) => m.key === 'meanRequestBytes')!.values).toEqual([32, 128])
    expect(c.sentences).toHaveLength(1)
    expect(c.sentences[0]).toMatch(
      /^wide #1 \(merged-aligned 262144 B\) is [\d.]+× faster than narrow #1 \(strided 262144 B\) \([\d.]+ → [\d.]+ GB\/s\): /,
    )
  })

  it('prints the comparison as text and writes the HTML report', async () => {
    const file = join(work, 'cmp.html')
    const r = await runCli('compare', 'narrow', 'wide#1', '--dir', work, '--html', file)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/is [\d.]+× faster than/)
    expect(r.stdout).toMatch(/^payload \(GB\/s\)\s+[\d.]+\s+[\d.]+ \(\+\d+ %\)$/m)
    expect(r.stdout).toMatch(/^limit\s+/m)
    expect(r.stderr).toContain(`report written to ${file}`)
    const html = readFileSync(file, 'utf8')
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).toContain('narrow #1 (strided 262144 B)')
    expect(html).not.toMatch(/<script|\ssrc=|\shref=/i)
  })

  it('writes one recording as a report (summary --html)', async () => {
    const file = join(work, 'one.html')
    const r = await runCli('summary', 'wide', '--dir', work, '--html', file)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^wide #1 \(merged-aligned 262144 B\), twin, /)
    expect(r.stdout).toMatch(/^ {2}limit\s+/m)
    expect(readFileSync(file, 'utf8')).toContain('<table class="bench-summary" data-run="wide#1">')
  })

  it('refuses one run (usage), an unknown run and an unknown recording', async () => {
    const one = await runCli('compare', 'narrow', '--dir', work)
    expect(one.code).toBe(2)
    expect(one.stderr).toMatch(/\[PS_USAGE\]: a comparison needs two runs or more/)
    const id = await runCli('compare', 'narrow', 'wide#7', '--dir', work)
    expect(id.code).toBe(1)
    expect(id.stderr).toMatch(/\[PS_RECORDING_NOT_FOUND\]: recording wide holds no completed run 7/)
    const bad = await runCli('compare', 'narrow', 'wide#x', '--dir', work)
    expect(bad.code).toBe(2)
    expect((await runCli('compare', 'narrow', 'nothing', '--dir', work)).stderr).toMatch(/PS_RECORDING_NOT_FOUND/)
  })
})
