/**
 * What the GPU's two PCIe byte counters say about its reads of host memory, per interval
 * (docs/gpu-counters.md gives each assumption and where it was measured):
 *
 *   readBytes  = bytes into the GPU  ~ completions: payload + a 12-B CplD header each
 *   writeBytes = bytes out of the GPU ~ read requests: a 16-B header each (64-bit MRd), no payload
 *
 * so requests = writeBytes / 16, payload = readBytes - 12 x requests, mean request size =
 * payload / requests (one completion per request: the H100/H200 measurements never split a
 * request of up to 128 B), reads in flight = request rate x round trip (Little's law). The GPU's
 * own writes (its MWr: header and payload) also count in writeBytes and inflate the request
 * estimate; PM sampling's records are such writes, ~92 B a sample on GH100, and are taken off.
 */
import type { GpuCounterSample, GpuCounterSourceName } from './samples.js'

/** 64-bit-address MRd: a 4-DW header, no data (PCIe Base Spec; the H200's ncu counts 16 B per request). */
export const MRD_HEADER_BYTES = 16
/** CplD: a 3-DW header before its data. */
export const CPL_HEADER_BYTES = 12
/** What PM sampling's own records add to pcie__write_bytes per sample (H200, idle GPU, bench/RESULTS.md). */
export const PM_SAMPLING_SELF_WRITE_BYTES = 92
/** One dependent 4-B host-memory read on an idle H200 (Gen5 x16), median of five (bench/RESULTS.md). */
export const IDLE_ROUND_TRIP_NS = 1250

export interface DeriveOptions {
  /** bytes each sample adds to writeBytes by the sampler itself (default by source: PM sampling 92, NVML 0) */
  selfWriteBytesPerSample?: number
  /** the round trip for Little's law (default IDLE_ROUND_TRIP_NS: idle, so a lower bound under load) */
  roundTripNs?: number
}

/** One interval, or a sum of several. */
export interface CounterWindow {
  startNs: number
  endNs: number
  /** samples summed */
  samples: number
  readBytes: number
  writeBytes: number
  sysmemReadSectors?: number
  sysmemWriteSectors?: number
}

export interface DerivedRates {
  startNs: number
  endNs: number
  seconds: number
  samples: number
  /** GB/s = 1e9 B/s of TLP bytes, as counted */
  readGBps: number
  writeGBps: number
  /** writeBytes less the sampler's own, floored at 0 */
  requestWriteBytes: number
  /** MRds from the outgoing bytes (an upper bound where the GPU also writes) */
  requests: number
  requestsPerSecond: number
  /** readBytes less a CplD header per request */
  payloadBytes: number
  payloadGBps: number
  /** payload / requests; null without requests */
  meanRequestBytes: number | null
  /** share of readBytes that is completion headers; null without reads */
  completionOverhead: number | null
  /** Little's law with the round trip given */
  inFlight: number
  /** L2 sysmem read sectors x 32 B where sampled, else null */
  sysmemReadBytes: number | null
}

export const defaultSelfWrite = (source: GpuCounterSourceName): number => (source === 'pm-sampling' ? PM_SAMPLING_SELF_WRITE_BYTES : 0)

/** Sums samples into one window (empty: a window of zero length at 0). */
export const sumWindow = (samples: readonly GpuCounterSample[]): CounterWindow => {
  const w: CounterWindow = {
    startNs: samples[0]?.startNs ?? 0,
    endNs: samples.at(-1)?.endNs ?? 0,
    samples: samples.length,
    readBytes: 0,
    writeBytes: 0,
  }
  for (const s of samples) {
    w.readBytes += s.readBytes
    w.writeBytes += s.writeBytes
    if (s.sysmemReadSectors !== undefined) w.sysmemReadSectors = (w.sysmemReadSectors ?? 0) + s.sysmemReadSectors
    if (s.sysmemWriteSectors !== undefined) w.sysmemWriteSectors = (w.sysmemWriteSectors ?? 0) + s.sysmemWriteSectors
  }
  return w
}

/** The derived rates of a window; `selfWriteBytesPerSample` defaults to PM sampling's. */
export const derive = (w: CounterWindow, options: DeriveOptions = {}): DerivedRates => {
  const self = options.selfWriteBytesPerSample ?? PM_SAMPLING_SELF_WRITE_BYTES
  const rtt = options.roundTripNs ?? IDLE_ROUND_TRIP_NS
  const seconds = Math.max(0, w.endNs - w.startNs) / 1e9
  const per = (v: number) => (seconds > 0 ? v / seconds : 0)
  const requestWriteBytes = Math.max(0, w.writeBytes - self * w.samples)
  const requests = requestWriteBytes / MRD_HEADER_BYTES
  const payloadBytes = Math.max(0, w.readBytes - CPL_HEADER_BYTES * requests)
  const requestsPerSecond = per(requests)
  return {
    startNs: w.startNs,
    endNs: w.endNs,
    seconds,
    samples: w.samples,
    readGBps: per(w.readBytes) / 1e9,
    writeGBps: per(w.writeBytes) / 1e9,
    requestWriteBytes,
    requests,
    requestsPerSecond,
    payloadBytes,
    payloadGBps: per(payloadBytes) / 1e9,
    meanRequestBytes: requests >= 1 ? payloadBytes / requests : null,
    completionOverhead: w.readBytes > 0 ? Math.min(1, (CPL_HEADER_BYTES * requests) / w.readBytes) : null,
    inFlight: requestsPerSecond * rtt * 1e-9,
    sysmemReadBytes: w.sysmemReadSectors === undefined ? null : w.sysmemReadSectors * 32,
  }
}

/**
 * Groups samples into windows of `windowNs` on the samples' clock (a sample belongs to the window
 * its start lies in), in order; the live lines of `watch` and a page's points.
 */
export class WindowAccumulator {
  private current: GpuCounterSample[] = []
  private windowStart: number | undefined
  constructor(private readonly windowNs: number) {
    if (!(windowNs > 0)) throw new RangeError('windowNs must be positive')
  }

  /** Adds samples; returns the windows they closed. */
  push(samples: readonly GpuCounterSample[]): CounterWindow[] {
    const closed: CounterWindow[] = []
    for (const s of samples) {
      this.windowStart ??= s.startNs
      if (s.startNs >= this.windowStart + this.windowNs && this.current.length > 0) {
        closed.push(sumWindow(this.current))
        this.current = []
        this.windowStart = s.startNs
      }
      this.current.push(s)
    }
    return closed
  }

  /** The window still open (samples since the last one closed), or undefined. */
  flush(): CounterWindow | undefined {
    if (this.current.length === 0) return undefined
    const w = sumWindow(this.current)
    this.current = []
    this.windowStart = undefined
    return w
  }
}
