/**
 * `npm start` sets up through scripts/setup.mjs before it serves: on a built tree that set-up
 * rebuilds nothing (the TypeScript step leaves dist/ as it was) and prints one line per step,
 * never a build tool's own output (cmake-js's INFO lines, tsc, Verilator) unless a step fails.
 */
import { spawnSync } from 'node:child_process'
import { statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const node = (script: string, ...args: string[]) =>
  spawnSync(process.execPath, [path.join(root, 'scripts', script), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PCIE_SCOPE_NO_APT: '1' },
  })

describe("npm start's set-up on a built tree", () => {
  it('rebuilds no TypeScript and prints one line a step, no build tool output', () => {
    // current first (a no-op after npm test's own set-up), then its stamp must not move
    expect(node('build-ts.mjs').status).toBe(0)
    const stamp = path.join(root, 'dist/host/.built')
    const built = statSync(stamp).mtimeMs
    const r = node('setup.mjs', 'start')
    const lines = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l !== '')
    expect(r.status, lines.join('\n')).toBe(0)
    // its own lines only ("[setup] …": a step built, npm dependencies installed after a change)
    expect(lines.filter((l) => !l.startsWith('[setup] '))).toEqual([])
    const steps = lines.flatMap((l) => /^\[setup\] built: (.+) \(\d+\.\d s\)$/.exec(l)?.[1] ?? [])
    expect(steps.sort()).toEqual(['TypeScript', 'native addon', 'twin (Verilator + firmware + traffic model)', 'web UI bundle'].sort())
    expect(statSync(stamp).mtimeMs).toBe(built)
  }, 120_000)
})
