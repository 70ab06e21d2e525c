/**
 * The switch design's host side next to its GPU side (DOM-free). The host side's TAP_SNAPSHOT and
 * TAP_HISTOGRAM frames (via the server) are paired with the GPU side's SNAPSHOT and HISTOGRAM of
 * the same snapshot index, so that both columns describe the same reads: the GPU side's latency
 * is the host side's plus the time in the switch, its traversal both ways (8 clocks, 32 ns at
 * 250 MHz, on the twin) and any wait there while the host has no room for more reads. Latency
 * means and the outstanding averages come from the counters (exact, since the clear); p50 and
 * p99 from the histograms (good to one bin, 256 ns at 250 MHz). In endpoint mode no tap frame
 * arrives and `seen` stays false.
 */
import type { Counters, LatencyHistogram, Snapshot, TapHistogram, TapSnapshot } from '../host/src/core/probe.js'
import type { TapReadings } from '../host/src/core/wire.js'
import { histogramTotal, noLatencyHistograms, latencyPercentilesNs, observedLatency } from '../host/src/core/latency-histogram.js'
import type { HistogramKindKey } from '../host/src/core/generated.js'

/** GPU-side snapshots kept for a host-side snapshot to find its partner (a batch holds a few). */
const KEEP_GPU_SNAPSHOTS = 32

/** One tap's figures. */
export interface SideFigures {
  /** mean last-completion latency since the clear (LAT_LAST_SUM / LAT_LAST_COUNT), ns; null before a read completed */
  meanNs: number | null
  /** from the newest last-completion histogram (paired by snapshot); null without one */
  p50Ns: number | null
  p99Ns: number | null
  /** average reads outstanding since the clear (OUTSTANDING_SUM / TRACKER_CYCLES) */
  outstandingAvg: number | null
  /** the same over the interval between the two newest paired snapshots */
  outstandingInterval: number | null
  /** reads completed since the clear */
  reads: number
}

export interface HostSideComparison {
  gpu: SideFigures
  host: SideFigures
  /** GPU side minus host side (null where either is): for the latencies, the time in the switch (traversal plus any queueing) */
  diff: { meanNs: number | null; p50Ns: number | null; p99Ns: number | null; outstandingAvg: number | null }
  /** the mean latency difference in probe clocks */
  meanDiffClocks: number | null
  /** the snapshot the counters are of, and the one the histograms are of (null without a pair) */
  snapshotIndex: number
  histogramSnapshotIndex: number | null
  /** a percentile fell in a histogram's overflow bin: it is a lower bound */
  overflow: boolean
}

interface SnapshotPair {
  gpu: Snapshot
  host: TapSnapshot
}

interface HistogramPair {
  gpu: LatencyHistogram
  host: TapHistogram
}

const sub = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a - b)

const meanLatencyNs = (c: Counters, clockHz: number): number | null =>
  c.latLastCount > 0 && clockHz > 0 ? (c.latLastSum / c.latLastCount / clockHz) * 1e9 : null

const outstandingAvg = (c: Counters): number | null => (c.trackerCycles > 0 ? c.outstandingSum / c.trackerCycles : null)

/** Average outstanding between two counter sets of one tap; null across a clear or an idle tracker. */
const outstandingBetween = (prev: Counters, cur: Counters): number | null => {
  const dc = cur.trackerCycles - prev.trackerCycles
  const dSum = cur.outstandingSum - prev.outstandingSum
  return dc > 0 && dSum >= 0 ? dSum / dc : null
}

export class HostSide {
  /** the newest host-side snapshot paired with the GPU side's of the same index, and the one before */
  private pair: SnapshotPair | undefined
  private prevPair: SnapshotPair | undefined
  /** the newest host-side histograms paired with the GPU side's of the same snapshot, by kind */
  private histograms = noLatencyHistograms<HistogramPair>()
  private readonly gpuByIndex = new Map<number, Snapshot>()
  /** host-side frames received: the page shows the comparison only once the probe has a host side */
  frames = 0

  /** whether the probe has a host side (the switch design): a tap frame has arrived */
  get seen(): boolean {
    return this.frames > 0
  }

  /** A GPU-side snapshot, kept for the host-side snapshot of the same index that follows it. */
  gpuSnapshot(s: Snapshot): void {
    this.gpuByIndex.set(s.index, s)
    if (this.gpuByIndex.size > KEEP_GPU_SNAPSHOTS) this.gpuByIndex.delete(this.gpuByIndex.keys().next().value!)
  }

  tapSnapshot(t: TapSnapshot): void {
    if (t.tap !== 'hostSide') return
    this.frames++
    const gpu = this.gpuByIndex.get(t.snapshotIndex)
    if (!gpu) return // its SNAPSHOT was dropped (a slow client's batch): no pair
    if (this.pair && t.snapshotIndex <= this.pair.host.snapshotIndex)
      this.prevPair = undefined // the firmware restarted
    else this.prevPair = this.pair
    this.pair = { gpu, host: t }
  }

  /** A host-side histogram, with the GPU side's newest of its kind (which comes first). */
  tapHistogram(h: TapHistogram, gpu: LatencyHistogram | null): void {
    if (h.tap !== 'hostSide') return
    this.frames++
    if (gpu && gpu.snapshotIndex === h.snapshotIndex) this.histograms[h.kind] = { gpu, host: h }
  }

  /** What a (re)connected page gets in hello: the newest readings, paired with the newest GPU side's. */
  restore(r: TapReadings | undefined, gpuHistograms: Record<HistogramKindKey, LatencyHistogram | null>): void {
    if (!r) return
    if (r.snapshot) this.tapSnapshot(r.snapshot)
    for (const [kind, h] of Object.entries(r.histograms) as [HistogramKindKey, TapHistogram | null][])
      if (h) this.tapHistogram(h, gpuHistograms[kind])
  }

  /** A new time axis (hello, a firmware restart): nothing is paired any more. */
  reset(): void {
    this.pair = undefined
    this.prevPair = undefined
    this.histograms = noLatencyHistograms<HistogramPair>()
    this.gpuByIndex.clear()
    this.frames = 0
  }

  /** Both sides and their difference, or null before a host-side snapshot was paired. */
  comparison(clockHz: number): HostSideComparison | null {
    const pair = this.pair
    if (!pair) return null
    const h = this.histograms.last
    // within the smallest and largest latency each side's counters saw
    const pct = (x: LatencyHistogram | undefined, c: Counters) =>
      x ? latencyPercentilesNs(x.bins, x.layout, clockHz, observedLatency(c, x.kind, histogramTotal(x.bins))) : null
    const gp = pct(h?.gpu, pair.gpu.counters)
    const hp = pct(h?.host, pair.host.counters)
    const side = (c: Counters, prev: Counters | undefined, p: typeof gp): SideFigures => ({
      meanNs: meanLatencyNs(c, clockHz),
      p50Ns: p?.p50 ?? null,
      p99Ns: p?.p99 ?? null,
      outstandingAvg: outstandingAvg(c),
      outstandingInterval: prev ? outstandingBetween(prev, c) : null,
      reads: c.latLastCount,
    })
    const gpu = side(pair.gpu.counters, this.prevPair?.gpu.counters, gp)
    const host = side(pair.host.counters, this.prevPair?.host.counters, hp)
    const meanDiff = sub(gpu.meanNs, host.meanNs)
    return {
      gpu,
      host,
      diff: {
        meanNs: meanDiff,
        p50Ns: sub(gpu.p50Ns, host.p50Ns),
        p99Ns: sub(gpu.p99Ns, host.p99Ns),
        outstandingAvg: sub(gpu.outstandingAvg, host.outstandingAvg),
      },
      meanDiffClocks: meanDiff === null ? null : (meanDiff * clockHz) / 1e9,
      snapshotIndex: pair.host.snapshotIndex,
      histogramSnapshotIndex: h?.host.snapshotIndex ?? null,
      overflow: (gp?.overflow ?? false) || (hp?.overflow ?? false),
    }
  }
}
