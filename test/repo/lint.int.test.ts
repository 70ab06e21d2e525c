// `npm run lint` as a test: ESLint and Prettier over the TypeScript and JavaScript, clang-format
// over the C and C++ (scripts/check-format.mjs has its own tests in test/scripts/).
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')
const bin = (name: string) => join(root, 'node_modules/.bin', name)
const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { cwd: root, encoding: 'utf8', timeout: 180_000 })

describe('lint and format', () => {
  it('ESLint finds nothing', () => {
    const r = run(bin('eslint'), ['--max-warnings=0', '.'])
    expect(r.stdout + r.stderr, 'fix with `npx eslint --fix .`').toBe('')
    expect(r.status).toBe(0)
  })
  it('Prettier finds every file formatted', () => {
    const r = run(bin('prettier'), ['--check', '--log-level=warn', '.'])
    expect(r.stdout + r.stderr, 'fix with `npm run format`').toBe('')
    expect(r.status).toBe(0)
  })
  it('clang-format finds every C and C++ file formatted', () => {
    const r = run(process.execPath, [join(root, 'scripts/check-format.mjs')])
    expect(r.status, r.stdout + r.stderr).toBe(0)
  })
})
