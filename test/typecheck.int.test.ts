// Strict TypeScript over everything vitest runs without checking types: the host, the tests,
// the generator and the web UI (its own config with the DOM library).
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..')
const tsc = (project: string) =>
  spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', project, '--noEmit'], { cwd: root, encoding: 'utf8' })

describe('tsc --noEmit (strict)', () => {
  it('host, tests and spec generator are type-clean', () => {
    const r = tsc('tsconfig.json')
    expect(r.stdout + r.stderr).toBe('')
    expect(r.status).toBe(0)
  })
  it('the web UI is type-clean', () => {
    const r = tsc('web/tsconfig.json')
    expect(r.stdout + r.stderr).toBe('')
    expect(r.status).toBe(0)
  })
})
