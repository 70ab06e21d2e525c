/**
 * scripts/check-format.mjs as CI runs it: the repository's C/C++ is clang-formatted, and the
 * check really fails (exit 1, the file named, the fix command printed) on a file that is not.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const script = path.join(root, 'scripts/check-format.mjs')

interface Run {
  code: number
  stdout: string
  stderr: string
}

const checkFormat = (...files: string[]): Promise<Run> =>
  new Promise((resolve) => {
    execFile(process.execPath, [script, ...files], { cwd: root }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1
      resolve({ code, stdout, stderr })
    })
  })

describe('scripts/check-format.mjs', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'check-format-'))
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

  it('passes on the repository (firmware/, test/firmware/)', async () => {
    const run = await checkFormat()
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0)
    expect(run.stdout).toMatch(/^check-format: \d+ files formatted$/m)
  })

  it('fails on an unformatted file, names it and prints the fix command', async () => {
    const bad = path.join(tmp, 'unformatted.c')
    writeFileSync(bad, 'int  f( int x ){\n  return x+1;}\n')
    const run = await checkFormat(bad)
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1)
    expect(run.stdout).toContain(`  ${bad}\n`)
    expect(run.stdout).toContain(`clang-format -i ${bad}`)
  })

  it('passes on a formatted file given by path', async () => {
    const good = path.join(tmp, 'formatted.c')
    writeFileSync(good, 'int f(int x) { return x + 1; }\n')
    const run = await checkFormat(good)
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0)
    expect(run.stdout).toContain('check-format: 1 files formatted')
  })
})
