import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { watchReadProgress } from '../../../host/src/cli/read-progress.js'
import { newReadStats, readRecords, segmentBytes } from '../../../host/src/recording/reader.js'
import { main } from '../../../host/src/cli/main.js'
import type { CliIo } from '../../../host/src/cli/io.js'
import { newWriter, removeRoots, snap, tempRoot, writeRun } from '../recording/fixtures.js'

afterEach(removeRoots)

const recording = () => {
  const dir = join(tempRoot(), 'c')
  const w = newWriter(dir)
  writeRun(w)
  w.close()
  return dir
}
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('watchReadProgress', () => {
  it('draws the bytes read after the delay and erases the bar when stopped', async () => {
    const dir = recording()
    const stats = newReadStats()
    let out = ''
    const stop = await watchReadProgress(dir, stats, 'read', { write: (s) => (out += s), enabled: true, delayMs: 0, everyMs: 5 })
    for await (const _ of readRecords(dir, { stats })) void _
    await tick(30)
    expect(stats.bytes).toBe(await segmentBytes(dir))
    expect(out).toContain(`\r\x1b[2K[${'#'.repeat(24)}] 0.0/0.0 MB read`) // a few kB: all of it read
    stop()
    expect(out.endsWith('\r\x1b[2K')).toBe(true)
  })

  it('draws nothing before the delay, nor when disabled', async () => {
    const dir = recording()
    let out = ''
    const stopLate = await watchReadProgress(dir, newReadStats(), 'read', {
      write: (s) => (out += s),
      enabled: true,
      delayMs: 10_000,
      everyMs: 5,
    })
    const stopOff = await watchReadProgress(dir, newReadStats(), 'read', {
      write: (s) => (out += s),
      enabled: false,
      delayMs: 0,
      everyMs: 5,
    })
    await tick(30)
    stopLate()
    stopOff()
    expect(out).toBe('')
  })

  it('info draws the bar on a terminal while it reads a recording and erases it; never with --json', async () => {
    const dir = join(tempRoot(), 'big')
    const w = newWriter(dir)
    for (let i = 0; i < 4000; i++)
      w.append({ t: 'snapshot', at: 1_700_000_000_000 + i, snapshot: snap(i, { mrd128: i, cycles: i * 1000 }) })
    w.close()
    let stderr = ''
    let stdout = ''
    const io: CliIo = { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), stderrIsTTY: true, progressDelayMs: 0 }
    expect(await main(['node', 'pcie-scope', 'info', dir], io)).toBe(0)
    expect(stdout).toMatch(/^records\s+4000: 4000 snapshot/m)
    expect(stderr.startsWith('\r\x1b[2K[')).toBe(true)
    expect(stderr).toMatch(/\[[#-]{24}\] [\d.]+\/[\d.]+ MB read/)
    expect(stderr.endsWith('\r\x1b[2K')).toBe(true)
    stderr = ''
    expect(await main(['node', 'pcie-scope', 'info', dir, '--json'], io)).toBe(0)
    expect(stderr).toBe('')
  })

  it('the CLI draws no bar when stderr is not a terminal', async () => {
    const dir = recording()
    let stderr = ''
    const io: CliIo = { stdout: () => undefined, stderr: (s) => void (stderr += s), stderrIsTTY: false }
    expect(await main(['node', 'pcie-scope', 'export', dir, '--format', 'jsonl'], io)).toBe(0)
    expect(stderr).not.toContain('\r')
  })
})
