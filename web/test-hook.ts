/**
 * What the browser tests read from the page (`window.__pcieScope`, test/e2e/browser.e2e.test.ts).
 * Only the test build's entry (web/test-entry.ts, `node scripts/build-web.mjs --test`) imports
 * this module: the production bundle carries none of it. DOM-free, so unit tests use it in Node.
 */
import type { RunReport } from '../host/src/core/wire.js'
import { histogramTotal } from '../host/src/core/latency-histogram.js'
import type { LiveState } from './live.js'
import type { Limit } from './model.js'
import type { HostSideComparison } from './host-side.js'
import { AppState, type HistogramMode, type RunBox, type RunMark } from './state.js'

/** how many run-box texts the history keeps */
const RUN_BOX_HISTORY = 100

/** The page as the browser tests read it. */
export interface TestHook {
  live: LiveState['key']
  histogram: number[]
  histogramMode: HistogramMode
  total: number
  snapshots: number
  ratePoints: number
  /** NaN points that break the rate lines */
  gaps: number
  /** the newest payload rate and ceiling in B/s (undefined before the first) */
  payloadPerSec: number | undefined
  ceilingPerSec: number | undefined
  aboveCeiling: number
  marks: RunMark[]
  wsOpen: boolean
  connected: boolean
  lastRun: RunReport | null
  /** every text the run-result box has shown, oldest first */
  runBoxHistory: string[]
  /** the newest last-completion latency histogram: reads in it, and its p50 / p99 in ns (null before one) */
  latencyReads: number
  latencyP50Ns: number | null
  latencyP99Ns: number | null
  /** the fastest read's last-completion latency (LAT_LAST_MIN of the newest snapshot), ns; null before one */
  latencyMinNs: number | null
  /** the same for the newest first-completion histogram */
  latencyFirstReads: number
  latencyFirstP50Ns: number | null
  latencyFirstP99Ns: number | null
  /** interval records drawn (INTERVAL frames through the server), the newest one's limit, and NaN breaks */
  intervalPoints: number
  intervalLimit: Limit | null
  intervalGaps: number
  /** switch mode: the host side next to the GPU side (null in endpoint mode and before the first pair) */
  hostSide: HostSideComparison | null
  /** `serve --gpu-counters`: intervals drawn, and the GPU runs' bands on the counters' time axis */
  gpuPoints: number
  gpuMarks: RunMark[]
}

/** The page's state, plus what only tests ask for: every text the run-result box has shown. */
export class TestAppState extends AppState {
  readonly runBoxHistory: string[] = []

  protected override showRunBox(b: RunBox): void {
    super.showRunBox(b)
    this.runBoxHistory.push(runBoxText(b))
    if (this.runBoxHistory.length > RUN_BOX_HISTORY) this.runBoxHistory.shift()
  }

  hook(now: number): TestHook {
    const shown = this.shownHistogram().counts
    return {
      live: this.live(now).key,
      histogram: shown,
      histogramMode: this.histogramMode,
      total: shown.reduce((a, b) => a + b, 0),
      snapshots: this.snapshotsSeen,
      ratePoints: this.mrdRate.view().filter((p) => Number.isFinite(p.y)).length,
      gaps: this.gaps,
      payloadPerSec: this.payloadRate.last()?.y,
      ceilingPerSec: this.ceilingRate.last()?.y,
      aboveCeiling: this.aboveCeilingCount,
      marks: this.marks.map((m) => ({ ...m })),
      wsOpen: this.feed === 'open',
      connected: this.feed === 'open' && (this.status?.connected ?? false),
      lastRun: this.lastRun,
      runBoxHistory: [...this.runBoxHistory],
      latencyReads: histogramTotal(this.latencyHistograms.last?.bins ?? []),
      latencyP50Ns: this.latencyPercentiles('last')?.p50 ?? null,
      latencyP99Ns: this.latencyPercentiles('last')?.p99 ?? null,
      latencyMinNs:
        this.last && this.last.counters.latLastCount > 0 && this.info ? (this.last.counters.latLastMin * 1e9) / this.info.clockHz : null,
      latencyFirstReads: histogramTotal(this.latencyHistograms.first?.bins ?? []),
      latencyFirstP50Ns: this.latencyPercentiles('first')?.p50 ?? null,
      latencyFirstP99Ns: this.latencyPercentiles('first')?.p99 ?? null,
      intervalPoints: this.intervalAvg.view().filter((p) => Number.isFinite(p.y)).length,
      intervalLimit: this.intervalLimitNow ?? null,
      intervalGaps: this.intervalGaps,
      hostSide: this.hostSideComparison(),
      gpuPoints: this.gpu.requests.view().filter((p) => Number.isFinite(p.y)).length,
      gpuMarks: this.gpu.marks.map((m) => ({ ...m })),
    }
  }
}

function runBoxText(b: RunBox): string {
  switch (b.kind) {
    case 'idle':
      return 'no run yet'
    case 'pending':
      return b.text
    case 'error':
      return b.text
    case 'report':
      return `run #${b.report.id} (${b.report.origin}) ${b.report.result.workload.pattern}`
  }
}
