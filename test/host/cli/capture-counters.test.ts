// `capture --gpu --pattern P --counters` in process, on a fake addon: the kernel runs (its
// progress reports 5 ms apart) while the fake replays recorded H200 merged-aligned samples after
// it, so the clock offset places the kernels inside the recorded series.
import { describe, expect, it } from 'vitest'
import type { CountersCaptureReport } from '../../../host/src/cli/capture-counters.js'
import { runCliWithAddon } from './run-cli.js'
import { fixtureEvents } from '../gpu-counters/fixtures.js'
import { fakePredict, type FakeAddonOptions } from '../workload/fake-addon.js'

const run = (args: string[], o: FakeAddonOptions) => runCliWithAddon(['capture', ...args], o)

const KERNELS = [
  { phase: 'fill', done: 1, total: 1 },
  { phase: 'kernel', done: 0, total: 5 },
  { phase: 'kernel', done: 5, total: 5 },
  { phase: 'memcpy', done: 1, total: 1 },
]

describe('capture --gpu --counters', () => {
  it('--json: the series over the kernels, run and per-kernel totals, the model beside the counters', async () => {
    // the recorded samples arrive just after the kernels, whatever the machine's load made of
    // the time before them: the clock offset then places the kernels at the series' end
    let release = () => {}
    const later = new Promise<void>((r) => (release = r))
    const r = await run(['--gpu', '--pattern', 'merged-aligned', '--bytes', '1048576', '--counters', '--json'], {
      counters: { events: fixtureEvents('h200-merged-aligned-100us.csv', 100), later },
      progress: KERNELS,
      progressGapMs: 5,
      onProgressDone: () => void setTimeout(release, 2),
    })
    expect(r.code, r.stderr).toBe(0)
    expect(r.addon.counterRuns).toEqual([{ intervalUs: 100, pollMs: 10 }])
    expect(r.stderr).toMatch(/GPU counters: pm-sampling on GH100, every 100 µs/)
    const rep = JSON.parse(r.stdout) as CountersCaptureReport
    expect(rep.kernel).toEqual({ repeats: 5, medianMs: 1048576 / 50e6, gbps: 50 })
    // the kernels took ~5 ms of host time on a quiet machine (~50 samples of 100 µs; a loaded one
    // stretches the gaps between them): the series is that window, not the recording's 600 samples
    expect(rep.series.length).toBeGreaterThan(20)
    expect(rep.series.length).toBeLessThan(600)
    for (const s of rep.series) {
      expect((s.startNs + s.endNs) / 2).toBeGreaterThanOrEqual(rep.window.startNs)
      expect((s.startNs + s.endNs) / 2).toBeLessThanOrEqual(rep.window.endNs)
    }
    expect(rep.run.samples).toBe(rep.series.length)
    expect(rep.run.readBytes).toBe(rep.series.reduce((n, s) => n + s.readBytes, 0))
    expect(rep.perKernel.readBytes).toBeCloseTo(rep.run.readBytes / 5, 6)
    expect(rep.perKernel.requests).toBeCloseTo(rep.run.requests / 5, 6)
    expect(rep.run.meanRequestBytes!).toBeGreaterThan(120)
    expect(rep.run.readGBps).toBeGreaterThan(40)
    const predicted = fakePredict({ pattern: 'merged-aligned', bytes: 1048576, offset: 0, elementBytes: 4, l1: 'ideal' }).count
    expect(rep.model).toEqual({
      requests: predicted,
      counterRequests: rep.perKernel.requests,
      difference: rep.perKernel.requests - predicted,
      ratio: rep.perKernel.requests / predicted,
    })
    expect(rep.window.precisionNs).toBe(10e6)
  })

  it('without a counter source: PS_GPU_COUNTERS_UNAVAILABLE, exit 1', async () => {
    const r = await run(['--gpu', '--pattern', 'strided', '--counters', '--json'], {})
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/\[PS_GPU_COUNTERS_UNAVAILABLE\]: no GPU counter source works here\./)
    expect(r.addon.runs).toEqual([])
  })

  it.each([
    [['--pattern', 'strided', '--counters'], /--counters samples the GPU around its kernel: it needs --gpu/],
    [['--gpu', '--port', '/dev/null', '--pattern', 'strided', '--counters'], /--port does not apply/],
    [['--gpu', '--pattern', 'strided', '--counters', '--out', 'x'], /--out does not apply/],
    [['--gpu', '--pattern', 'bfs-aligned', '--graph', 'kron:8', '--counters'], /--counters takes a micro pattern/],
  ])('refuses %j with exit 2', async (args, why) => {
    const r = await run(args, {})
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(why)
  })
})
