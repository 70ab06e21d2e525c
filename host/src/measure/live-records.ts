/**
 * The records of a scripted recording as they happen, in the recording format (docs/contracts.md
 * §5): the lines `capture --jsonl` prints are the lines a recording and the JSONL export hold.
 */
import type { IntervalBatch, LatencyHistogram, ProbeInfo, Snapshot, TapHistogram, TapSnapshot } from '../core/probe.js'
import type { AnyWorkload } from '../core/workload.js'
import type { ProbeClient } from '../device/client.js'
import type { AnyRecord, ProbeWindow } from '../recording/format.js'
import { recordError } from '../recording/recorder.js'

/** the one run of a scripted recording */
export const CLI_RUN_ID = 1

export interface LiveRecords {
  connected(info: ProbeInfo): void
  runStart(workload: AnyWorkload, baseline: Snapshot): void
  /** the run's record, once; nothing when no run started */
  runDone(workload: AnyWorkload, outcome: { probeWindow: ProbeWindow; result: unknown } | { error: unknown }): void
  /** stop listening to the client */
  stop(): void
}

/** Emit the client's snapshots, interval batches and latency histograms as records, and the run's records when told. */
export const liveRecords = (client: Pick<ProbeClient, 'on' | 'off'>, emit: (r: AnyRecord) => void): LiveRecords => {
  const onSnapshot = (s: Snapshot) => emit({ t: 'snapshot', at: s.receivedAt, snapshot: s })
  const onInterval = (b: IntervalBatch) => emit({ t: 'interval', at: b.receivedAt, batch: b })
  const onHistogram = (h: LatencyHistogram) => emit({ t: 'histogram', at: h.receivedAt, histogram: h })
  const onTapSnapshot = (s: TapSnapshot) => emit({ t: 'tap-snapshot', at: s.receivedAt, tapSnapshot: s })
  const onTapHistogram = (h: TapHistogram) => emit({ t: 'tap-histogram', at: h.receivedAt, histogram: h })
  client.on('snapshot', onSnapshot)
  client.on('tap-snapshot', onTapSnapshot)
  client.on('tap-histogram', onTapHistogram)
  client.on('interval', onInterval)
  client.on('histogram', onHistogram)
  let started = false
  return {
    connected: (info) => emit({ t: 'device', at: Date.now(), event: 'connect', info, error: null }),
    runStart: (workload, baseline) => {
      started = true
      emit({ t: 'run-start', at: Date.now(), id: CLI_RUN_ID, origin: 'capture', workload, baseline })
    },
    // a failure before the run started (the hello, the sampler) has no run to close
    runDone: (workload, outcome) => {
      if (!started) return
      started = false
      const common = { t: 'run', at: Date.now(), id: CLI_RUN_ID, origin: 'capture', workload } as const
      emit(
        'error' in outcome
          ? { ...common, probeWindow: null, error: recordError(outcome.error), result: null }
          : { ...common, probeWindow: outcome.probeWindow, error: null, result: outcome.result },
      )
    },
    stop: () => {
      client.off('snapshot', onSnapshot)
      client.off('tap-snapshot', onTapSnapshot)
      client.off('tap-histogram', onTapHistogram)
      client.off('interval', onInterval)
      client.off('histogram', onHistogram)
    },
  }
}
