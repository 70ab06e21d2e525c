/**
 * Firmware tests run as child processes of make: the host-built unit tests (test and sim
 * ports), the ASan/UBSan fuzz driver, the two libFuzzer targets (with the line coverage they
 * reach in each firmware source), the compile check of the MicroBlaze port and the Versal port
 * (objects, then its register-model test, test/firmware/versal_hal_test.c). Each must exit 0
 * and end with the project's closing line, with tests found and none failed.
 */
import { execFile } from 'node:child_process'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const CLOSING = /^(\d+) passed, (\d+) failed$/

interface MakeRun {
  code: number
  stdout: string
  stderr: string
}

const make = (target: string): Promise<MakeRun> =>
  new Promise((resolve) => {
    execFile(
      'make',
      ['--no-print-directory', '-C', 'firmware', target],
      { cwd: root, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1
        resolve({ code, stdout, stderr })
      },
    )
  })

const expectClosing = (run: MakeRun): void => {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0)
  const lines = run.stdout.trimEnd().split('\n')
  expect(lines.filter((l) => CLOSING.test(l)), 'exactly one closing line').toHaveLength(1)
  const match = CLOSING.exec(lines.at(-1) ?? '')
  expect(match, `last line: ${lines.at(-1)}`).not.toBeNull()
  expect(Number(match?.[1])).toBeGreaterThan(0)
  expect(Number(match?.[2])).toBe(0)
}

describe.each(['test', 'fuzz', 'xilinx-check', 'versal-check'])('make %s', (target) => {
  it('exits 0 and closes with "N passed, 0 failed", N > 0', async () => {
    expectClosing(await make(target))
  })
})

/** The fuzz targets must keep reaching every firmware source, not only the receive path. */
const MIN_LINE_COVERAGE = 85

describe('make libfuzzer', () => {
  it(`runs both targets without a crash and covers every firmware source to ${MIN_LINE_COVERAGE} % of its lines`, async () => {
    const run = await make('libfuzzer')
    expectClosing(run)
    const covered = new Map([...run.stdout.matchAll(/^coverage (\S+\.c) ([\d.]+)%$/gm)].map((m) => [m[1], Number(m[2])]))
    const sources = readdirSync(path.join(root, 'firmware/src')).filter((f) => f.endsWith('.c'))
    expect(sources.length).toBeGreaterThan(0)
    for (const source of sources) {
      expect(covered.get(source), `${source} line coverage`).toBeGreaterThanOrEqual(MIN_LINE_COVERAGE)
    }
  })
})
