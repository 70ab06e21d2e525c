/** `pcie-scope watch --gpu` in process, on a fake addon replaying recorded H200 samples. */
import { describe, expect, it } from 'vitest'
import { formatWatchLine, type WatchSummary } from '../../../host/src/cli/watch.js'
import { derive } from '../../../host/src/gpu-counters/derive.js'
import { runCliWithAddon } from './run-cli.js'
import { fixtureEvents } from '../gpu-counters/fixtures.js'
import { nativeError, type FakeAddonOptions } from '../workload/fake-addon.js'

const run = (args: string[], o: FakeAddonOptions) => runCliWithAddon(['watch', ...args], o)

// 600 samples of 100 µs: 60 ms of GPU time, so the live lines are 0.5-s windows of none: one line at the end
const REPLAY = { counters: { events: fixtureEvents('h200-merged-aligned-100us.csv', 50, 3) } }

describe('watch --gpu', () => {
  it('--json: one summary object on stdout; live lines and the source on stderr', async () => {
    const r = await run(['--gpu', '--interval-us', '100', '--duration', '0.01', '--json'], REPLAY)
    expect(r.code, r.stderr).toBe(0)
    expect(r.addon.counterRuns).toEqual([{ device: 0, intervalUs: 100, source: 'auto' }])
    const s = JSON.parse(r.stdout) as WatchSummary
    expect(s).toMatchObject({ samples: 600, lost: 3, overflow: false, selfWriteBytesPerSample: 92, roundTripNs: 1250 })
    expect(s.source).toMatchObject({ source: 'pm-sampling', chip: 'GH100' })
    expect(s.seconds).toBeCloseTo(0.06, 3)
    expect(s.samplesPerSecond).toBeGreaterThan(9900)
    // the thread's CPU from the first batch (0.001 s) to the last (0.551 s), not its set-up
    expect(s.cpuShare).toBeCloseTo(0.55 / s.seconds, 6)
    expect(s.derived.meanRequestBytes!).toBeGreaterThan(127)
    expect(s.derived.readGBps).toBeGreaterThan(50)
    expect(s.peak.readGBps).toBeGreaterThanOrEqual(s.derived.readGBps - 1e-9)
    expect(r.stderr).toMatch(/watching pm-sampling on GH100: pcie__read_bytes.sum, pcie__write_bytes.sum every 100 us/)
    expect(r.stderr).toMatch(/read +\d+\.\d\d GB\/s .*MRd .*mean +12\d\.\d B .*\[600 samples, 3 lost\]/)
  })
  it('without --json: the live lines and a summary on stdout', async () => {
    const r = await run(['--gpu', '--duration', '0.01', '--rtt-ns', '2500', '--self-write-bytes', '1'], REPLAY)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^t= +\d+\.\ds +read +\d+\.\d\d GB\/s/m)
    expect(r.stdout).toMatch(/600 samples in 0\.060 s .*3 lost/)
    expect(r.stdout).toMatch(/round trip 2500 ns/)
  })
  it('NVML fallback: says why PM sampling was refused, and takes nothing off the writes', async () => {
    const events = fixtureEvents('h200-strided-1ms.csv', 100)
    const start = events[0]!
    if (start.type !== 'start') throw new Error('the fixture starts with its source')
    start.info = {
      ...start.info,
      source: 'nvml',
      chip: 'NVIDIA H200',
      fallbackReason: 'cuptiPmSamplingEnable failed: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES',
    }
    const r = await run(['--gpu', '--duration', '0.01', '--json'], { counters: { events } })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/PM sampling refused: .*INSUFFICIENT_PRIVILEGES/)
    expect((JSON.parse(r.stdout) as WatchSummary).selfWriteBytesPerSample).toBe(0)
  })
  it('no source: exit 1 with the stable code; without --gpu or with a bad interval: usage, exit 2', async () => {
    const none = await run(['--gpu', '--duration', '1'], {
      counters: { reject: nativeError('PS_GPU_COUNTERS_UNAVAILABLE', 'no GPU counter source works here.') },
    })
    expect(none.code).toBe(1)
    expect(none.stderr).toMatch(/error \[PS_GPU_COUNTERS_UNAVAILABLE\]: no GPU counter source works here/)
    expect((await run(['--duration', '1'], REPLAY)).code).toBe(2)
    expect((await run(['--gpu', '--interval-us', '0'], REPLAY)).code).toBe(2)
    const bad = await run(['--gpu', '--duration', '1'], {
      counters: { reject: nativeError('PS_GPU_COUNTERS_BAD_ARGUMENT', 'intervalUs must be a number from 1 to 10000000.') },
    })
    expect(bad.code).toBe(2)
  })
})

describe('formatWatchLine', () => {
  it('names the window end, both rates, requests, mean size, in flight, samples and lost', () => {
    const d = derive({ startNs: 0, endNs: 500e6, samples: 5000, readBytes: 27.5e9, writeBytes: 3.2e9 + 5000 * 92 })
    expect(formatWatchLine(d, 7)).toBe(
      't=   0.5s  read  55.00 GB/s  write   6.40 GB/s  MRd  400.0 M/s  mean  125.5 B  in flight ~500  [5000 samples, 7 lost]',
    )
  })
})
