// A stand-in for the native addon (host/src/native/addon.ts) for unit tests: predictions from a
// caller-given table or a simple rule, GPU runs that resolve, reject or wait for cancel() as told,
// progress reports delivered in order. Injected, never module-mocked.
import type {
  GpuDevice,
  GpuProgress,
  GpuRunRequest,
  GpuRunResult,
  NativeAddon,
  NativeGpuCountersEnd,
  NativeGpuCountersEvent,
  NativeGpuCountersOptions,
  NativeWorkload,
  Prediction,
} from '../../../host/src/native/addon.js'
import { zeroBySize } from '../../../host/src/core/size-classes.js'

export const FAKE_DEVICE: GpuDevice = {
  name: 'Fake H200',
  pciBusId: '0000:65:00.0',
  pcieGen: 5,
  pcieWidth: 16,
  smCount: 132,
  computeCapability: '9.0',
  nvidiaDriver: '570.86.15',
  driverVersion: 12080,
  runtimeVersion: 12080,
}

/** An Error as the addon makes them: a stable code and one sentence. */
export const nativeError = (code: string, message: string): Error => Object.assign(new Error(message), { code })

/** The model's numbers for 4-B lanes and an ideal L1 (test/native/model expectations). */
export const fakePredict = (w: NativeWorkload): Prediction => {
  const lines = Math.ceil(w.bytes / 128)
  const by = zeroBySize()
  if (w.pattern === 'strided') by['32'] = lines * 4
  else if (w.pattern === 'merged-aligned') by['128'] = lines
  else {
    by['96'] = lines
    by['32'] = lines
  }
  return { count: by['32'] + by['96'] + by['128'], bytes: w.bytes, instructions: lines, bySize: by, predictedGbps: 21.5 }
}

export interface FakeAddonOptions {
  cudaBuilt?: boolean
  /** what gpuRun does: resolve with this result (default: a plausible one), or reject */
  gpu?: 'ok' | { reject: Error } | 'wait-for-cancel'
  devices?: GpuDevice[] | { reject: Error }
  progress?: GpuProgress[]
  /** the progress reports this far apart in time (default: all at once) */
  progressGapMs?: number
  /** called once a run has reported its last progress, before it resolves */
  onProgressDone?: () => void
  /**
   * what gpuCounters does: replay these events, then end when stopped (default:
   * PS_GPU_COUNTERS_UNAVAILABLE); with `later`, the start event at once and the batches once it
   * settles; with `fail`, end with that error after the events instead
   */
  counters?: { events: NativeGpuCountersEvent[]; later?: Promise<unknown>; fail?: Error } | { reject: Error }
}

export interface FakeAddon extends NativeAddon {
  runs: GpuRunRequest[]
  predictions: NativeWorkload[]
  cancels: number
  /** gpuCounters calls and their options */
  counterRuns: NativeGpuCountersOptions[]
}

export const fakeResult = (req: GpuRunRequest): GpuRunResult => ({
  device: { ...FAKE_DEVICE },
  kernel: { medianMs: req.bytes / 50e6, minMs: req.bytes / 51e6, maxMs: req.bytes / 49e6 },
  memcpyH2d: { medianMs: req.bytes / 55e6, minMs: req.bytes / 56e6, maxMs: req.bytes / 54e6 },
  payloadBytes: req.bytes,
  kernelGbps: 50,
  memcpyGbps: 55,
  ratioToMemcpy: 50 / 55,
  checksum: { gpu: '0x0000000000001234', cpu: '0x0000000000001234', ok: true },
  threads: 256,
  blocks: 1,
})

export const makeFakeAddon = (o: FakeAddonOptions = {}): FakeAddon => {
  const addon: FakeAddon = {
    runs: [],
    predictions: [],
    cancels: 0,
    counterRuns: [],
    model: { elementBytes: [4] },
    cudaBuilt: o.cudaBuilt ?? true,
    gpuBenchLinked: true,
    predictSync: (w) => {
      addon.predictions.push(w)
      return fakePredict(w)
    },
    predict: async (w) => addon.predictSync(w),
    // gen5 x16 of native/model/link.h
    linkTlpBytesPerSecond: (gen, lanes) => (gen === 5 && lanes === 16 ? 56850030247.169395 : null),
    gpuDevices: async () => {
      if (o.devices && 'reject' in o.devices) throw o.devices.reject
      return o.devices ?? [{ ...FAKE_DEVICE }]
    },
    gpuRunMulti: async (req) => {
      addon.runs.push(req)
      return {
        devices: req.devices.map((d) => ({
          device: { ...FAKE_DEVICE, pciBusId: `0000:0${d}:00.0` },
          alone: { ...fakeResult(req), kernelGbps: 50 },
          together: { ...fakeResult(req), kernelGbps: 45 },
        })),
        togetherWallMs: 1,
        totalGbps: 45 * req.devices.length,
        sumAloneGbps: 50 * req.devices.length,
      }
    },
    gpuRun: (req, onProgress) => {
      addon.runs.push(req)
      let cancel = () => {
        addon.cancels++
      }
      const promise = new Promise<GpuRunResult>((resolve, reject) => {
        setImmediate(async () => {
          for (const p of o.progress ?? []) {
            if (o.progressGapMs) await new Promise((r) => setTimeout(r, o.progressGapMs))
            onProgress?.(p)
          }
          o.onProgressDone?.()
          const mode = o.gpu ?? 'ok'
          if (mode === 'ok') resolve(fakeResult(req))
          else if (mode === 'wait-for-cancel') {
            cancel = () => {
              addon.cancels++
              reject(nativeError('PS_GPU_CANCELLED', 'the run was cancelled.'))
            }
          } else reject(mode.reject)
        })
      })
      return { promise, cancel: () => cancel() }
    },
    // graphs: unit tests of graph code paths use the real addon (test/native/addon)
    predictGraph: () => Promise.reject(nativeError('PS_WORKLOAD_INVALID', 'the fake addon has no graph model.')),
    pmSamplingBuilt: false,
    gpuCounters: (options, onEvent) => {
      addon.counterRuns.push(options)
      const c = o.counters ?? { reject: nativeError('PS_GPU_COUNTERS_UNAVAILABLE', 'no GPU counter source works here.') }
      if ('reject' in c) return { done: Promise.reject(c.reject), stop: () => undefined }
      let stopped = false
      let finish: (() => void) | undefined
      const done = new Promise<NativeGpuCountersEnd>((resolve, reject) => {
        let samples = 0
        let lost = 0
        const replay = (events: NativeGpuCountersEvent[]) => {
          for (const e of events) {
            if (e.type === 'batch') {
              samples = e.samples
              lost = e.lost
            }
            onEvent(e)
          }
        }
        const end = () => {
          if (c.fail) return reject(c.fail)
          finish = () => resolve({ samples, lost, threadCpuSeconds: 0.01, overflow: false })
          if (stopped) finish()
        }
        setImmediate(() => {
          if (!c.later) {
            replay(c.events)
            return end()
          }
          replay(c.events.filter((e) => e.type === 'start'))
          void c.later.then(() => {
            replay(c.events.filter((e) => e.type !== 'start'))
            end()
          })
        })
      })
      return {
        done,
        stop: () => {
          stopped = true
          finish?.()
        },
      }
    },
    gpuGraphRun: () => ({
      promise: Promise.reject(nativeError('PS_GPU_NO_DEVICE', 'no CUDA device is usable on this machine.')),
      cancel: () => undefined,
    }),
  }
  return addon
}
