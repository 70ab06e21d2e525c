/**
 * `pcie-scope serve --twin` spawned for real: prints the server URL on stdout, says in words on
 * stderr when its twin dies and restarts it, stops cleanly on SIGTERM; SIGKILLed mid-run, it leaves
 * a recording that `ls` lists as interrupted and `export` still reads.
 */
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const ready = existsSync(`${root}build/twin/pcie-scope-twin`) && existsSync(`${root}host/src/server/index.ts`)

/** The process under `root` (its child, grandchild…) whose name is `name`, from /proc. */
const descendantNamed = (root: number, name: string): number | undefined => {
  const parent = new Map<number, number>()
  const comm = new Map<number, string>()
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
      const close = stat.lastIndexOf(')')
      comm.set(Number(d), stat.slice(stat.indexOf('(') + 1, close))
      parent.set(Number(d), Number(stat.slice(close + 2).split(' ')[1]))
    } catch {
      /* gone meanwhile */
    }
  }
  const under = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true
    return false
  }
  // the kernel keeps 15 characters of a name
  return [...comm].find(([pid, c]) => name.startsWith(c) && c.length >= 15 && under(pid))?.[0]
}

const until = async (ok: () => boolean, timeoutMs = 20_000) => {
  const t0 = Date.now()
  while (!ok()) {
    if (Date.now() - t0 > timeoutMs) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('pcie-scope serve --twin', () => {
  it('prints the URL, tells the terminal when its twin dies and restarts it, records its session, exits 0 on SIGTERM', async () => {
    const recordings = mkdtempSync(join(tmpdir(), 'ps-serve-recordings-'))
    expect(ready, 'the twin is not built: run `npm run build:twin`').toBe(true)
    const child = spawn(process.execPath, ['bin/pcie-scope.mjs', 'serve', '--twin', '--http', '127.0.0.1:0'], {
      cwd: root,
      // the session is recorded: into a temporary root, not the checkout's recordings/
      env: { ...process.env, PCIE_SCOPE_FROM_SOURCE: '1', PCIE_SCOPE_RECORDINGS: recordings },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    try {
      const [line] = (await Promise.race([
        once(createInterface({ input: child.stdout }), 'line'),
        once(child, 'exit').then(() => {
          throw new Error(`serve exited early: ${stderr}`)
        }),
      ])) as [string]
      expect(line).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
      const res = await fetch(line)
      expect(res.status).toBeLessThan(500)
      // the twin dies: the terminal says so in words, and the server restarts it
      const twinPid = descendantNamed(child.pid!, 'pcie-scope-twin')
      expect(twinPid, 'the twin process under serve').toBeDefined()
      process.kill(twinPid!, 'SIGKILL')
      await until(
        () =>
          /the twin was killed by SIGKILL; restarting it in 500 ms/.test(stderr) && /the twin is running again \(restart 1/.test(stderr),
      )
      const status = await fetch(new URL('/api/status', line), {
        headers: { authorization: `Bearer ${new URL(line).searchParams.get('token')}` },
      })
      expect(await status.json()).toMatchObject({
        connected: true,
        supervision: { restarts: 1, lastFailure: { reason: 'exit', signal: 'SIGKILL' } },
      })
      child.kill('SIGTERM')
      const [code] = (await once(child, 'exit')) as [number | null]
      expect(code).toBe(0)
      expect(stderr).toContain(`recording the session into ${recordings}/serve-`)
      const [name] = readdirSync(recordings)
      const manifest = JSON.parse(readFileSync(join(recordings, name!, 'manifest.json'), 'utf8'))
      expect(manifest).toMatchObject({ status: 'complete', source: 'twin' })
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      rmSync(recordings, { recursive: true, force: true })
    }
  })

  it('SIGKILLed mid-run: the recording is listed as interrupted and still exports what it kept', async () => {
    const recordings = mkdtempSync(join(tmpdir(), 'ps-serve-killed-'))
    expect(ready, 'the twin is not built: run `npm run build:twin`').toBe(true)
    const env = { ...process.env, PCIE_SCOPE_FROM_SOURCE: '1', PCIE_SCOPE_RECORDINGS: recordings }
    const child = spawn(process.execPath, ['bin/pcie-scope.mjs', 'serve', '--twin', '--http', '127.0.0.1:0'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    try {
      const [line] = (await Promise.race([
        once(createInterface({ input: child.stdout }), 'line'),
        once(child, 'exit').then(() => {
          throw new Error(`serve exited early: ${stderr}`)
        }),
      ])) as [string]
      const token = new URL(line).searchParams.get('token')
      // a run long enough to be cut off (256 MiB of strided reads: seconds of simulation)
      void fetch(new URL('/api/run', line), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pattern: 'strided', bytes: 256 * 1024 * 1024 }),
      }).catch(() => undefined) // the server dies under it
      const segment = () => {
        const [name] = readdirSync(recordings)
        const f = name ? join(recordings, name, 'segment-000001.jsonl') : ''
        return f && existsSync(f) ? readFileSync(f, 'utf8') : ''
      }
      await until(() => segment().includes('"t":"run-start"'))
      const twinPid = descendantNamed(child.pid!, 'pcie-scope-twin')
      child.kill('SIGKILL')
      await once(child, 'exit')
      if (twinPid !== undefined) {
        try {
          process.kill(twinPid, 'SIGKILL') // its stdin closed with the server; make sure
        } catch {
          /* already gone */
        }
      }
      const cli = (...args: string[]) => spawnSync(process.execPath, ['bin/pcie-scope.mjs', ...args], { cwd: root, env, encoding: 'utf8' })
      const ls = cli('ls', '--dir', recordings, '--json')
      expect(ls.status, ls.stderr).toBe(0)
      const listed = JSON.parse(ls.stdout) as { recordings: Array<{ name: string; status: string }> }
      expect(listed.recordings).toHaveLength(1)
      expect(listed.recordings[0]).toMatchObject({ status: 'interrupted' })
      const exp = cli('export', listed.recordings[0]!.name, '--format', 'jsonl', '--dir', recordings)
      expect(exp.status, exp.stderr).toBe(0)
      const kinds = exp.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { t: string }).t)
      expect(kinds[0]).toBe('device')
      expect(kinds).toContain('run-start')
      expect(kinds).not.toContain('run') // the run never finished: nothing pretends it did
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      rmSync(recordings, { recursive: true, force: true })
    }
  })
})
