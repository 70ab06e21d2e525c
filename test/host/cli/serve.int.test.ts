/** `pcie-scope serve --twin` spawned for real: prints the server URL on stdout, stops cleanly on SIGTERM. */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const ready = existsSync(`${root}build/twin/pcie-scope-twin`) && existsSync(`${root}host/src/server/index.ts`)

describe('pcie-scope serve --twin', () => {
  it('prints the URL, records its session, and exits 0 on SIGTERM', async () => {
    const captures = mkdtempSync(join(tmpdir(), 'ps-serve-captures-'))
    expect(ready, 'the twin is not built: run `npm run build:twin`').toBe(true)
    const child = spawn(process.execPath, ['bin/pcie-scope.mjs', 'serve', '--twin', '--http', '127.0.0.1:0'], {
      cwd: root,
      // the session is recorded: into a temporary root, not the checkout's captures/
      env: { ...process.env, PCIE_SCOPE_FROM_SOURCE: '1', PCIE_SCOPE_CAPTURES: captures },
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
      child.kill('SIGTERM')
      const [code] = (await once(child, 'exit')) as [number | null]
      expect(code).toBe(0)
      expect(stderr).toContain(`recording the session into ${captures}/serve-`)
      const [name] = readdirSync(captures)
      const manifest = JSON.parse(readFileSync(join(captures, name!, 'manifest.json'), 'utf8'))
      expect(manifest).toMatchObject({ status: 'complete', source: 'twin' })
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      rmSync(captures, { recursive: true, force: true })
    }
  })
})
