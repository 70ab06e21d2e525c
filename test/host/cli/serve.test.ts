// `serve`'s GPU counter options, refused before anything starts.
import { describe, expect, it } from 'vitest'
import { runCli } from './run-cli.js'

describe('serve --gpu-counters options', () => {
  it.each([
    [['--device', '1'], '--device only applies with --gpu-counters'],
    [['--interval-us', '50', '--device', '0'], '--device and --interval-us only apply with --gpu-counters'],
  ])('%j without --gpu-counters exits 2', async (args, why) => {
    const r = await runCli('serve', '--no-record', ...args)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(why)
  })
  it('--interval-us out of range exits 2 with its bounds', async () => {
    const r = await runCli('serve', '--gpu-counters', '--interval-us', '0')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--interval-us.*1\.\.1000000/)
  })
})
