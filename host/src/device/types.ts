/**
 * The shapes that cross module boundaries on the host: what the probe reports and what a
 * workload is. Counter keys come from spec/registers.json through the generated module.
 */
import type { CounterKey } from '../protocol/generated.js'

/** The request-size classes of the probe and the counter behind each, in histogram order. */
export const SIZE_COUNTERS = { '32': 'mrd32', '64': 'mrd64', '96': 'mrd96', '128': 'mrd128', other: 'mrdOther' } as const satisfies Record<string, CounterKey>
export type SizeKey = keyof typeof SIZE_COUNTERS

/** The PCIe link between the GPU and the FPGA, as the twin models it (a board: not yet reported). */
export interface PcieLinkInfo {
  /** e.g. "gen3x16", or "ideal" for no wire limit */
  name: string
  /** TLP bytes per second one direction carries after line coding and DLLP overhead; null when ideal */
  tlpBytesPerSecond: number | null
}

/** Completion header + framing bytes on the wire per CplD (pcie-tlp.md §6.1). */
export const CPL_OVERHEAD_BYTES = 20

/**
 * Payload bytes per second the link can deliver for a given completion mix: each completion pays
 * CPL_OVERHEAD_BYTES on top of its payload. Null when the link or the mix is unknown.
 */
export const payloadCeiling = (link: PcieLinkInfo | undefined, payloadBytes: number, completions: number): number | null => {
  if (!link || link.tlpBytesPerSecond === null || payloadBytes <= 0) return null
  return (link.tlpBytesPerSecond * payloadBytes) / (payloadBytes + CPL_OVERHEAD_BYTES * completions)
}

/** Reply of the INFO command. */
export interface ProbeInfo {
  protocolVersion: number
  firmwareVersion: number
  probeId: number
  regVersion: number
  clockHz: number
  counterCount: number
  streaming: boolean
  periodMs: number
  barLatencyCycles: number
}

/**
 * Every probe counter. u64 on the wire, held as JS numbers: exact below 2^53
 * (e.g. 2^53 bytes = 50 h of a saturated Gen5 x16 link).
 */
export type Counters = Record<CounterKey, number>

/** Statistics the firmware keeps about the UART link it receives on. */
export interface FirmwareLinkStats {
  rxFrames: number
  rxBadFrames: number
  rxOverflows: number
  unknownCommands: number
  txDropped: number
}

/** One decoded SNAPSHOT frame. */
export interface Snapshot {
  /** device frame sequence number (u16) */
  seq: number
  /** snapshots sent by the firmware since reset */
  index: number
  onDemand: boolean
  enabled: boolean
  counters: Counters
  firmware: FirmwareLinkStats
  /** host receive time, ms since the epoch */
  receivedAt: number
}

/** What the host-side decoder counted on the bytes it received. */
export interface HostLinkStats {
  frames: number
  badFrames: number
  crcErrors: number
  overflows: number
  seqGaps: number
  unknownFrames: number
  bytes: number
}

/** Access patterns the traffic model (native/model) and the CUDA kernels define. */
export const PATTERNS = ['strided', 'merged-aligned', 'merged-misaligned'] as const
export type PatternName = (typeof PATTERNS)[number]

export interface Workload {
  pattern: PatternName
  /** useful bytes the kernel reads */
  bytes: number
  /** byte offset of the buffer start from a 128-B line (merged-misaligned) */
  offset: number
}

/** What the workload side (twin traffic model, later the CUDA kernel) says it did. */
export interface WorkloadResult {
  workload: Workload
  /** MRds the GPU (model) issued, by size; keys "32", "64", "96", "128", "other" */
  issued: { count: number; bySize: Record<'32' | '64' | '96' | '128' | 'other', number>; bytes: number }
  completions: number
  /** completions whose payload did not match the requested address */
  payloadErrors: number
  simCycles: number
  wallSeconds: number
}

/** Runs workloads on whatever plays the GPU: the twin's traffic model, later a real kernel. */
export interface WorkloadRunner {
  readonly kind: 'twin' | 'cuda'
  run(workload: Workload, signal?: AbortSignal): Promise<WorkloadResult>
}
