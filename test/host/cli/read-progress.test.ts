import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { watchReadProgress } from '../../../host/src/cli/read-progress.js'
import { newReadStats, readRecords, segmentBytes } from '../../../host/src/capture/reader.js'
import { main, type CliIo } from '../../../host/src/cli/main.js'
import { newWriter, removeRoots, tempRoot, writeRun } from '../capture/fixtures.js'

afterEach(removeRoots)

const capture = () => {
  const dir = join(tempRoot(), 'c')
  const w = newWriter(dir)
  writeRun(w)
  w.close()
  return dir
}
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('watchReadProgress', () => {
  it('draws the bytes read after the delay and erases the bar when stopped', async () => {
    const dir = capture()
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
    const dir = capture()
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

  it('the CLI draws no bar when stderr is not a terminal', async () => {
    const dir = capture()
    let stderr = ''
    const io: CliIo = { stdout: () => undefined, stderr: (s) => void (stderr += s), stderrIsTTY: false }
    expect(await main(['node', 'pcie-scope', 'export', dir, '--format', 'jsonl'], io)).toBe(0)
    expect(stderr).not.toContain('\r')
  })
})
