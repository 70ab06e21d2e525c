// Builds pcie-scope-gpu-counters (native/sampler, CMake, the program alone) and checks its command
// line: the options table refuses bad values with exit 2 and one line naming the option; a
// device that no machine has answers one {"error":{code,message}} line with exit 3.
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { cmakeBuild } from '../cmake.js'

const root = resolve(import.meta.dirname, '../../..')
const src = resolve(root, 'native/sampler')
const build = resolve(root, 'build/sampler-program')
const program = resolve(build, 'pcie-scope-gpu-counters')

function run(cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 16 << 20, timeout: 60_000 })
  if (r.error) throw r.error
  return r
}

beforeAll(() => cmakeBuild(src, build))

describe('pcie-scope-gpu-counters options', () => {
  it.each([
    [['--bogus'], 'unknown option --bogus'],
    [['--interval-us', '0'], '--interval-us needs an integer in 1..10000000'],
    [['--interval-us'], '--interval-us needs an integer in 1..10000000'],
    [['--device', '64'], '--device needs an integer in 0..63'],
    [['--source', 'perf'], '--source must be auto, pm-sampling or nvml'],
    [['--duration', 'soon'], '--duration needs seconds, a number from 0 (until a signal) to 86400'],
    [['--duration', '-1'], '--duration needs seconds, a number from 0 (until a signal) to 86400'],
    [['--tick-ms', '0'], '--tick-ms needs an integer in 1..86400000'],
    [['--poll-ms', '60001'], '--poll-ms needs an integer in 1..60000'],
  ])('refuses %j with exit 2', (args, message) => {
    const r = run(program, args)
    expect(r.status).toBe(2)
    expect(r.stderr.split('\n')[0]).toBe(`pcie-scope-gpu-counters: ${message}`)
    expect(r.stderr).toContain('usage: pcie-scope-gpu-counters')
    expect(r.stdout).toBe('')
  })

  it('prints its usage for --help', () => {
    const r = run(program, ['--help'])
    expect(r.stderr).toMatch(/^usage: pcie-scope-gpu-counters \[--device N\]/)
  })

  it('answers one error line with exit 3 when no source runs', () => {
    const r = run(program, ['--device', '63', '--duration', '0.1', '--interval-us', '1000'])
    expect(r.status).toBe(3)
    const lines = r.stdout.trim().split('\n')
    expect(lines).toHaveLength(1)
    const e = (JSON.parse(lines[0]!) as { error: { code: string; message: string } }).error
    expect(e.code).toMatch(/^PS_GPU_COUNTERS_(UNAVAILABLE|FAILED)$/)
    expect(e.message).toMatch(/^[^\n]+\.$/)
  })
})
