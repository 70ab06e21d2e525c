// The real addon's GPU counters (native/sampler through native/addon/gpu_counters.cpp). Everywhere:
// bad options answer PS_GPU_COUNTERS_BAD_ARGUMENT. Without a GPU (CI): no source runs, and the
// sampler answers PS_GPU_COUNTERS_UNAVAILABLE with one sentence naming why each source could not.
// On a GPU (`nvidia-smi -L` lists one): samples stream in order, lost ones counted; elsewhere those
// tests are skipped and their titles say why.
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { isPsError } from '../../../host/src/core/errors.js'
import { GpuCounterSampler, type GpuCounterEvent } from '../../../host/src/gpu-counters/sampler.js'
import { loadAddon, type NativeAddon, type NativeGpuCountersEvent } from '../../../host/src/native/addon.js'
import { gpuPresent } from '../cuda/gpu-runner.js'
import { runCli } from '../../host/cli/run-cli.js'

const root = resolve(import.meta.dirname, '../../..')
const GPU = gpuPresent()
const SKIP_GPU = GPU ? '' : ' (skipped: no GPU, `nvidia-smi -L` lists none)'
const SKIP_NO_GPU = GPU ? ' (skipped: this machine has a GPU)' : ''
const ONE_SENTENCE = /^[^\n]+\.$/
let addon: NativeAddon

beforeAll(() => {
  const r = spawnSync(process.execPath, [resolve(root, 'scripts/build-native.mjs')], { cwd: root, encoding: 'utf8' })
  expect(r.status, r.stdout + r.stderr).toBe(0)
  addon = loadAddon()
})

const codeOf = (e: unknown): unknown => (e as { code?: unknown }).code

describe('gpuCounters, everywhere', () => {
  it('says whether PM sampling was compiled in', () => {
    expect(typeof addon.pmSamplingBuilt).toBe('boolean')
  })
  it.each([
    [{ intervalUs: 0 }, /intervalUs/],
    [{ intervalUs: 'fast' }, /intervalUs/],
    [{ device: -1 }, /device/],
    [{ source: 'perf' }, /source must be auto, pm-sampling or nvml/],
    [{ pollMs: 5000 }, /pollMs/],
  ])('refuses %j with PS_GPU_COUNTERS_BAD_ARGUMENT', async (options, why) => {
    const events: NativeGpuCountersEvent[] = []
    const h = addon.gpuCounters(options as never, (e) => events.push(e))
    const e: unknown = await h.done.catch((x: unknown) => x)
    expect(codeOf(e)).toBe('PS_GPU_COUNTERS_BAD_ARGUMENT')
    expect((e as Error).message).toMatch(why)
    expect((e as Error).message).toMatch(ONE_SENTENCE)
    expect(events).toEqual([])
  })
  it('needs an event function', async () => {
    const bare = addon.gpuCounters as unknown as (o: object) => { done: Promise<unknown> }
    const e: unknown = await bare({}).done.catch((x: unknown) => x)
    expect(codeOf(e)).toBe('PS_GPU_COUNTERS_BAD_ARGUMENT')
  })
})

describe(`gpuCounters without a GPU${SKIP_NO_GPU}`, () => {
  it.skipIf(GPU)(`answers PS_GPU_COUNTERS_UNAVAILABLE, naming why PM sampling and NVML could not run${SKIP_NO_GPU}`, async () => {
    const events: NativeGpuCountersEvent[] = []
    const h = addon.gpuCounters({ intervalUs: 100 }, (e) => events.push(e))
    const e: unknown = await h.done.catch((x: unknown) => x)
    expect(codeOf(e)).toBe('PS_GPU_COUNTERS_UNAVAILABLE')
    expect((e as Error).message).toMatch(ONE_SENTENCE)
    expect((e as Error).message).toMatch(/PM sampling: .*; NVML: /)
    expect(events).toEqual([])
  })
  it.skipIf(GPU)(`asked for one source, names only that one${SKIP_NO_GPU}`, async () => {
    const nvml: unknown = await addon.gpuCounters({ source: 'nvml' }, () => undefined).done.catch((x: unknown) => x)
    expect(codeOf(nvml)).toBe('PS_GPU_COUNTERS_UNAVAILABLE')
    expect((nvml as Error).message).toMatch(/^NVML's PCIe counters cannot be read here: /)
    const pm: unknown = await addon.gpuCounters({ source: 'pm-sampling' }, () => undefined).done.catch((x: unknown) => x)
    expect((pm as Error).message).toMatch(/^PM sampling cannot run here: /)
  })
  it.skipIf(GPU)(`GpuCounterSampler turns it into a PsError of the same code${SKIP_NO_GPU}`, async () => {
    const e: unknown = await GpuCounterSampler.start(addon).done.catch((x: unknown) => x)
    expect(isPsError(e) && e.code).toBe('PS_GPU_COUNTERS_UNAVAILABLE')
  })
  it.skipIf(GPU)(`serve --gpu-counters exits 1 with PS_GPU_COUNTERS_UNAVAILABLE before it starts a twin${SKIP_NO_GPU}`, async () => {
    const r = await runCli('serve', '--gpu-counters', '--http', '127.0.0.1:0', '--no-record')
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/\[PS_GPU_COUNTERS_UNAVAILABLE\]: no GPU counter source works here \(PM sampling: .*; NVML: .*\)\.\n/)
  })
})

describe(`gpuCounters on a GPU${SKIP_GPU}`, () => {
  it.skipIf(!GPU)(`streams 100-µs samples for a second, contiguous, none lost, the event loop free${SKIP_GPU}`, async () => {
    const sampler = GpuCounterSampler.start(addon, { intervalUs: 100 })
    const events: GpuCounterEvent[] = []
    sampler.subscribe((e) => events.push(e))
    let ticks = 0
    const timer = setInterval(() => ticks++, 5)
    await new Promise((r) => setTimeout(r, 1500))
    const end = await sampler.stop()
    clearInterval(timer)
    expect(ticks).toBeGreaterThan(150)
    expect(events[0]?.type).toBe('start')
    const samples = events.flatMap((e) => (e.type === 'samples' ? e.samples : []))
    expect(end.samples).toBe(samples.length)
    expect(end.lost).toBe(0)
    expect(samples.length).toBeGreaterThan(5000)
    if (end.info?.source === 'pm-sampling')
      for (let i = 1; i < samples.length; i++) expect(samples[i]!.startNs).toBe(samples[i - 1]!.endNs)
  })
})
