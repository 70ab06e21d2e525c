/** What the probe and its firmware report, and what the host's decoder counts. */
import type { CounterKey, HistogramKindKey, LinkStatKey, TapKey } from './generated.js'

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

/** Statistics the firmware keeps about the UART link it receives on (LINK_STATS, from the spec). */
export type FirmwareLinkStats = Record<LinkStatKey, number>

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
  /** places where the sequence number jumped (one per gap, however many frames it lost) */
  seqGaps: number
  /** frames lost in those gaps: the sum of how far each jump went (a repeat or step back loses none) */
  lostFrames: number
  unknownFrames: number
  bytes: number
}

/**
 * One interval record of the probe's sampler (register words SMP_*): what SAMPLE_PERIOD
 * clocks saw. Counts are of the interval only; averages divide by `cycles`.
 */
export interface IntervalRecord {
  /** TIMESTAMP (probe clocks since reset) of the interval's last clock */
  ts: number
  cycles: number
  mrdCount: number
  mrdBytes: number
  cpldCount: number
  cpldBytes: number
  /** reads outstanding summed over the interval's clocks: average = occSum / cycles */
  occSum: number
  occPeak: number
  /** first-completion latency in clocks, summed over latCount reads */
  latSum: number
  latCount: number
}

/** Why the firmware sent a HISTOGRAM frame (its reason byte, in order). */
export const HISTOGRAM_REASONS = ['periodic', 'on-demand', 'final'] as const
export type HistogramReason = (typeof HISTOGRAM_REASONS)[number]

/**
 * One decoded HISTOGRAM frame: one of the tracker's latency histograms (`kind`: last or first
 * completion), read from the same shadows as snapshot `snapshotIndex` (so its bins add up to
 * that snapshot's count of the kind, HISTOGRAM_KINDS' countCounter: latLastCount, latFirstCount).
 */
/**
 * A latency histogram's bin layout (spec/registers.json latencyHistogram; the HISTOGRAM frames
 * carry it): sub-bins per octave, the first octave's lower edge in clocks, bins before the
 * overflow bin. Its edges: core/latency-histogram.ts binEdges.
 */
export interface HistogramLayout {
  subBins: number
  firstEdgeClocks: number
  bins: number
}

export interface LatencyHistogram {
  /** device frame sequence number (u16) */
  seq: number
  reason: HistogramReason
  kind: HistogramKindKey
  snapshotIndex: number
  /** the bins' layout, as the frame carried it (core/latency-histogram.ts: binEdges) */
  layout: HistogramLayout
  /** layout.bins + 1 counts: bin k holds latencies in [edges[k], edges[k+1]), the last bin every longer one */
  bins: number[]
  receivedAt: number
}

/** The latency histograms read with one snapshot, one of each kind (HISTOGRAM_KINDS). */
export type LatencyHistograms = Record<HistogramKindKey, LatencyHistogram>

/**
 * One decoded TAP_SNAPSHOT frame: every counter of a further probe tap (TAPS: the switch
 * design's host side, `hostSide`), snapshotted together with SNAPSHOT `snapshotIndex`.
 */
export interface TapSnapshot {
  /** device frame sequence number (u16) */
  seq: number
  tap: TapKey
  snapshotIndex: number
  counters: Counters
  receivedAt: number
}

/** One decoded TAP_HISTOGRAM frame: a latency histogram of a further tap. */
export interface TapHistogram extends LatencyHistogram {
  tap: TapKey
}

/** One decoded INTERVAL frame. */
export interface IntervalBatch {
  /** device frame sequence number (u16) */
  seq: number
  /** index of records[0]: records the firmware took from the probe since reset (u32, wraps) */
  firstIndex: number
  /** records the firmware dropped, oldest first, since its previous INTERVAL frame */
  dropped: number
  /** SAMPLE_OVERFLOW: records the probe's FIFO dropped since reset (u32, wraps) */
  overflow: number
  records: IntervalRecord[]
  receivedAt: number
}

/** Reply of LINK_INFO: the probe's info registers and its sampler and filter settings. */
export interface LinkInfo {
  linkGen: number
  linkWidth: number
  tagBits: number
  filterEnabled: boolean
  mps: number
  mrrs: number
  rcb: number
  sampleDepth: number
  clockHz: number
  buildId: number
  samplePeriodCycles: number
  filterBase: number
  filterLimit: number
}
