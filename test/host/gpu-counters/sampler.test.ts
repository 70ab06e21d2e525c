// GpuCounterSampler on a fake addon replaying recorded H200 batches: events in order to every
// subscriber, the summary, and the addon's codes as PsErrors.
import { describe, expect, it } from 'vitest'
import { isPsError } from '../../../host/src/core/errors.js'
import { GpuCounterSampler, type GpuCounterEvent } from '../../../host/src/gpu-counters/sampler.js'
import { makeFakeAddon, nativeError } from '../workload/fake-addon.js'
import { fixtureEvents } from './fixtures.js'

describe('GpuCounterSampler', () => {
  it('gives each subscriber the start, then every batch as samples, in order', async () => {
    const addon = makeFakeAddon({ counters: { events: fixtureEvents('h200-merged-aligned-100us.csv', 100, 2) } })
    const sampler = GpuCounterSampler.start(addon, { intervalUs: 100 })
    const a: GpuCounterEvent[] = []
    const b: string[] = []
    sampler.subscribe((e) => a.push(e))
    const off = sampler.subscribe((e) => b.push(e.type))
    sampler.subscribe(() => {
      throw new Error('a broken subscriber')
    })
    await new Promise((r) => setImmediate(r))
    off()
    const end = await sampler.stop()
    expect(addon.counterRuns).toEqual([{ intervalUs: 100 }])
    expect(a[0]).toMatchObject({ type: 'start', info: { source: 'pm-sampling', chip: 'GH100' } })
    const batches = a.filter((e) => e.type === 'samples')
    expect(batches).toHaveLength(6)
    expect(batches.flatMap((e) => e.samples)).toHaveLength(600)
    expect(batches.at(-1)).toMatchObject({ lost: 2, delivered: 600, overflow: false })
    expect(b).toEqual(['start', ...Array(6).fill('samples')])
    expect(end).toMatchObject({ samples: 600, lost: 2, info: { source: 'pm-sampling' } })
    expect(sampler.source?.metrics).toHaveLength(2)
  })
  it('no source here: PS_GPU_COUNTERS_UNAVAILABLE with the reason', async () => {
    const addon = makeFakeAddon({
      counters: {
        reject: nativeError('PS_GPU_COUNTERS_UNAVAILABLE', 'no GPU counter source works here (PM sampling: no driver; NVML: no driver).'),
      },
    })
    const e: unknown = await GpuCounterSampler.start(addon).done.catch((x: unknown) => x)
    expect(isPsError(e) && e.code).toBe('PS_GPU_COUNTERS_UNAVAILABLE')
    expect((e as Error).message).toMatch(/PM sampling: no driver/)
  })
  it('bad options are usage errors; other failures PS_GPU_COUNTERS_FAILED', async () => {
    const bad = makeFakeAddon({
      counters: { reject: nativeError('PS_GPU_COUNTERS_BAD_ARGUMENT', 'intervalUs must be a number from 1 to 10000000.') },
    })
    const e1: unknown = await GpuCounterSampler.start(bad).done.catch((x: unknown) => x)
    expect(isPsError(e1) && e1.code).toBe('PS_USAGE')
    const failed = makeFakeAddon({ counters: { reject: nativeError('PS_GPU_COUNTERS_FAILED', 'cuptiPmSamplingDecodeData failed.') } })
    const e2: unknown = await GpuCounterSampler.start(failed).done.catch((x: unknown) => x)
    expect(isPsError(e2) && e2.code).toBe('PS_GPU_COUNTERS_FAILED')
  })
  it('started() resolves with the source once it runs, at once after that', async () => {
    const sampler = GpuCounterSampler.start(makeFakeAddon({ counters: { events: fixtureEvents('h200-idle-1ms.csv') } }))
    expect(await sampler.started()).toMatchObject({ source: 'pm-sampling', chip: 'GH100' })
    expect((await sampler.started()).chip).toBe('GH100')
    await sampler.stop()
  })
  it("started() rejects with the sampler's PsError when no source runs, and after its timeout", async () => {
    const e: unknown = await GpuCounterSampler.start(makeFakeAddon())
      .started()
      .catch((x: unknown) => x)
    expect(isPsError(e) && e.code).toBe('PS_GPU_COUNTERS_UNAVAILABLE')
    // events held back: the start never comes within 20 ms
    const held = makeFakeAddon({ counters: { events: [], later: new Promise(() => undefined) } })
    const slow = GpuCounterSampler.start(held)
    const t: unknown = await slow.started(20).catch((x: unknown) => x)
    expect(isPsError(t) && t.code).toBe('PS_GPU_COUNTERS_UNAVAILABLE')
    expect((t as Error).message).toBe('the GPU counters did not start within 0.02 s.')
  })
})
