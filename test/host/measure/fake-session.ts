/**
 * A fake DeviceSession for the recording tests: the fake probe's counters move as the fake runner
 * "issues" 128-B reads, in `stream` steps each followed by a streamed snapshot.
 */
import { ProbeClient } from '../../../host/src/device/client.js'
import type { DeviceSession } from '../../../host/src/device/session.js'
import { PsError } from '../../../host/src/core/errors.js'
import type { Workload, WorkloadResult, WorkloadRunner } from '../../../host/src/core/workload.js'
import { duplexPair, FakeDevice } from '../device/fake-device.js'
import { zeroBySize } from '../../../host/src/core/size-classes.js'
import type { CounterKey } from '../../../host/src/core/generated.js'

const sessions: DeviceSession[] = []
export const closeSessions = async (): Promise<void> => {
  await Promise.all(sessions.splice(0).map((s) => s.close()))
}

export const fakeSession = async (
  opts: { lie?: boolean; runner?: boolean; stream?: number; fail?: boolean; extra?: Partial<Record<CounterKey, number>> } = {},
) => {
  const [host, dev] = duplexPair()
  const device = new FakeDevice(dev)
  const client = new ProbeClient(host, { timeoutMs: 500 })
  const info = await client.hello()
  const order: string[] = []
  const runner: WorkloadRunner = {
    kind: 'twin',
    run: async (w: Workload): Promise<WorkloadResult> => {
      order.push(`run while enabled=${device.enabled}`)
      const n = w.bytes / 128
      const steps = Math.max(1, opts.stream ?? 1)
      for (let i = 0; i < steps; i++) {
        const part = Math.floor((n * (i + 1)) / steps) - Math.floor((n * i) / steps)
        if (device.enabled) {
          device.counters.mrd128 += part
          device.counters.mrdBytes += part * 128
          device.counters.cpldCount += part
          device.counters.cpldBytes += part * 128
          device.counters.cycles += part * 4
          device.counters.timestamp += part * 4 // the free-running clock ticks as CYCLES does
          // the tracker: each read 1 µs (250 clocks) from request to its one CplD
          device.counters.trackerCycles += part * 4
          device.counters.readsStarted += part
          device.counters.readsRetired += part
          device.counters.latLastCount += part
          device.counters.latLastSum += part * 250
          device.counters.latLastMin = 250
          device.counters.latLastMax = 250
          device.histogramBins[3]! += part // 250 clocks: bin 3 of 64-clock bins, [192, 256)
          device.counters.outstandingSum += part * 250
          device.counters.outstandingPeak = 64
          // other traffic the run puts beside its reads, once per run
          if (i === 0) for (const [k, v] of Object.entries(opts.extra ?? {})) device.counters[k as CounterKey] += v
        }
        if (opts.stream) {
          device.sendSnapshot(false)
          await new Promise((r) => setImmediate(r))
        }
      }
      if (opts.fail) throw new PsError('PS_TWIN_EXITED', 'the twin exited mid-run (test)')
      const count = opts.lie ? n + 1 : n
      return {
        workload: w,
        issued: { count, bySize: { ...zeroBySize(), '128': count }, bytes: w.bytes },
        completions: n,
        payloadErrors: 0,
        simCycles: w.bytes / 32,
        wallSeconds: 0.01,
      }
    },
  }
  const s: DeviceSession = {
    source: 'twin',
    path: '/dev/fake',
    info,
    client,
    runner: opts.runner === false ? undefined : runner,
    close: () => client.close(),
  }
  sessions.push(s)
  return { s, device, order }
}
