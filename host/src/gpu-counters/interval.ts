/**
 * A window of GPU counter samples as one GpuCounterInterval (core/wire.ts): the sums and what
 * derive.ts makes of them, the form the server streams and records and `capture --counters` prints.
 */
import type { GpuCounterInterval } from '../core/wire.js'
import { defaultSelfWrite, derive, IDLE_ROUND_TRIP_NS, type CounterWindow } from './derive.js'
import type { GpuCounterSourceInfo } from './samples.js'

export const counterInterval = (w: CounterWindow, info: GpuCounterSourceInfo, device: number, lost: number): GpuCounterInterval => {
  const d = derive(w, { selfWriteBytesPerSample: defaultSelfWrite(info.source), roundTripNs: IDLE_ROUND_TRIP_NS })
  return {
    counterSource: info.source,
    device,
    startNs: w.startNs,
    endNs: w.endNs,
    samples: w.samples,
    lost,
    readBytes: w.readBytes,
    writeBytes: w.writeBytes,
    readGBps: d.readGBps,
    writeGBps: d.writeGBps,
    requests: d.requests,
    requestsPerSecond: d.requestsPerSecond,
    payloadGBps: d.payloadGBps,
    meanRequestBytes: d.meanRequestBytes,
    inFlight: d.inFlight,
  }
}
