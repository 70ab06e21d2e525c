// Ctrl-C during `pcie-scope capture --twin --out DIR` against the real twin: the run is cancelled
// (not the twin killed under it), the exit code is 130, and the recording keeps what it had, with
// the run recorded as cancelled.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../host/src/cli/main.js'
import type { CliIo } from '../../../host/src/cli/io.js'
import { runCli } from './run-cli.js'

const root = resolve(import.meta.dirname, '../../..')
const work = mkdtempSync(join(tmpdir(), 'ps-capture-interrupt-'))

beforeAll(() => {
  const r = spawnSync(process.execPath, [resolve(root, 'scripts/build-twin.mjs')], { cwd: root, encoding: 'utf8' })
  expect(r.status, r.stdout + r.stderr).toBe(0)
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('pcie-scope capture, interrupted (real twin)', () => {
  it('Ctrl-C cancels the run: exit 130, a message, and the recording kept with the cancelled run', async () => {
    let interrupt: (() => void) | undefined
    let watching = false
    let stderr = ''
    const io: CliIo = {
      stdout: () => undefined,
      stderr: (s) => {
        stderr += s
        // a 1-GiB strided run takes the twin tens of seconds: interrupt it once it is under way
        if (s.includes('running strided') && interrupt) setTimeout(() => interrupt?.(), 300)
      },
      untilSignal: async () => 'SIGTERM',
      onInterrupt: (handler) => {
        interrupt = handler
        watching = true
        return () => {
          watching = false
        }
      },
    }
    const out = join(work, 'cut')
    const started = Date.now()
    const code = await main(['node', 'pcie-scope', 'capture', '--twin', '--pattern', 'strided', '--bytes', '1073741824', '--out', out], io)
    expect(code, stderr).toBe(130)
    expect(Date.now() - started).toBeLessThan(20_000)
    expect(stderr).toMatch(/interrupted: cancelling the run \(Ctrl-C again to quit at once\)/)
    expect(stderr).toContain(`interrupted: what was recorded is kept in ${out}`)
    expect(stderr).not.toMatch(/PS_TWIN_EXITED|unexpected error/)
    expect(watching).toBe(false) // the handler is gone once the recording ends

    const info = await runCli('info', out, '--json')
    expect(info.code, info.stderr).toBe(0)
    const described = JSON.parse(info.stdout) as { runs: number; byType: Record<string, number> }
    expect(described.byType['run-start']).toBe(1)
    expect(described.byType['snapshot']).toBeGreaterThanOrEqual(1)
    const records = await runCli('export', out, '--format', 'jsonl')
    expect(records.code, records.stderr).toBe(0)
    const run = records.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { t: string; error?: { code?: string } | null })
      .find((r) => r.t === 'run')
    expect(run?.error?.code).toBe('PS_RUN_CANCELLED')
  })

  it('a twin that stops (SIGSTOP) mid-run: PS_TWIN_HUNG once it has been silent the hang timeout, exit 1, the recording kept as interrupted', async () => {
    let stderr = ''
    let stoppedPid: number | undefined
    const stopTheTwin = () => {
      const pids = spawnSync('pgrep', ['-P', String(process.pid), '-f', 'pcie-scope-twin'], { encoding: 'utf8' }).stdout.trim()
      stoppedPid = Number(pids.split('\n')[0])
      process.kill(stoppedPid, 'SIGSTOP')
    }
    const io: CliIo = {
      stdout: () => undefined,
      stderr: (s) => {
        stderr += s
        if (s.includes('running strided') && stoppedPid === undefined) setTimeout(stopTheTwin, 300)
      },
      untilSignal: async () => 'SIGTERM',
      onInterrupt: () => () => undefined,
    }
    const out = join(work, 'hung')
    const started = Date.now()
    try {
      const code = await main(
        ['node', 'pcie-scope', 'capture', '--twin', '--pattern', 'strided', '--bytes', '1073741824', '--out', out],
        io,
      )
      expect(code, stderr).toBe(1)
    } finally {
      if (stoppedPid) spawnSync('kill', ['-KILL', String(stoppedPid)])
    }
    // 5 s of silence, the cancel's grace, the twin's end: well inside the 1-GiB run's deadline
    expect(Date.now() - started).toBeLessThan(30_000)
    expect(stoppedPid).toBeGreaterThan(0)
    expect(stderr).toMatch(/\[PS_TWIN_HUNG\]: the twin stopped answering: nothing from it, a PING's answer included, for 5000 ms/)
    expect(stderr).toContain(`what was recorded is kept in ${out}`)
    const info = await runCli('info', out, '--json')
    expect(info.code, info.stderr).toBe(0)
    const described = JSON.parse(info.stdout) as { status: string; note: string | null; byType: Record<string, number> }
    expect(described.status).toBe('interrupted')
    expect(described.note).toContain('stopped answering')
    expect(described.byType['snapshot']).toBeGreaterThanOrEqual(1)
  })

  it('a terminal Ctrl-C (SIGINT to the whole foreground process group) ends in the cancelled run and exit 130', async () => {
    const out = join(work, 'terminal')
    // the CLI as a shell starts it: a process group of its own, which a terminal's Ctrl-C signals whole
    const cli = spawn(
      process.execPath,
      [join(root, 'bin/pcie-scope.mjs'), 'capture', '--twin', '--pattern', 'strided', '--bytes', '1073741824', '--out', out],
      {
        cwd: root,
        env: { ...process.env, PCIE_SCOPE_FROM_SOURCE: '1' },
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    )
    let stderr = ''
    let pressed = false
    cli.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
      if (pressed || !stderr.includes('running strided')) return
      pressed = true
      setTimeout(() => process.kill(-cli.pid!, 'SIGINT'), 300)
    })
    const code = await new Promise<number | null>((res) => cli.once('close', (c) => res(c)))
    expect(code, stderr).toBe(130)
    expect(stderr).toContain(`interrupted: what was recorded is kept in ${out}`)
    expect(stderr).not.toMatch(/PS_TWIN_EXITED|unexpected error/)
  })
})
