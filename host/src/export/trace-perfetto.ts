/**
 * Perfetto / Chrome trace-event JSON of a TLP trace (docs/trace.md), as export/perfetto.ts writes
 * recordings (opens in ui.perfetto.dev and chrome://tracing):
 *
 *   process "pcie-scope trace tap N" (pid N + 1), one thread (track) per tag, "tag T" (tid T + 1,
 *     sorted by tag)
 *   one slice per paired read on its tag's track, from the request to the completion that ended
 *     it ("MRd 128 B"; args: address, requester, bytes requested and carried, completions, end,
 *     first and last latency in ns, the record indices); a read still open at the trace's end runs
 *     to its last record
 *   instants: "trigger" on the "trigger" track (tid 1026, first) at the trigger record, and
 *     "unexpected CPLD" (or CPL) on the completion's tag track, and "CPLD of an earlier read" for a
 *     completion whose read came before the first record
 *
 * Timestamps are µs of probe time since the probe's reset (clock / clockHz).
 */
import type { Pairing, Trace } from '../core/trace.js'
import type { TraceEvent } from './perfetto.js'

const TID_TRIGGER = 1024 + 2

export interface TracePerfettoMeta {
  clockHz: number
  /** the run's description (the pattern, the trigger), in otherData */
  [key: string]: unknown
}

export const tracePerfetto = (
  trace: Pick<Trace, 'tap' | 'records' | 'triggerIndex'>,
  pairing: Pairing,
  meta: TracePerfettoMeta,
): { displayTimeUnit: 'ns'; otherData: Record<string, unknown>; traceEvents: TraceEvent[] } => {
  const hz = meta.clockHz
  const us = (clock: number) => (clock / hz) * 1e6
  const ns = (clocks: number | undefined) => (clocks === undefined ? null : (clocks / hz) * 1e9)
  const pid = trace.tap + 1
  const events: TraceEvent[] = [{ name: 'process_name', ph: 'M', ts: 0, pid, args: { name: `pcie-scope trace tap ${trace.tap}` } }]
  const tags = new Set<number>()
  for (const r of pairing.reads) tags.add(r.tag)
  for (const k of [...pairing.unexpected, ...pairing.earlier]) tags.add(trace.records[k]!.tag)
  for (const tag of [...tags].sort((a, b) => a - b)) {
    events.push({ name: 'thread_name', ph: 'M', ts: 0, pid, tid: tag + 1, args: { name: `tag ${tag}` } })
    events.push({ name: 'thread_sort_index', ph: 'M', ts: 0, pid, tid: tag + 1, args: { sort_index: tag } })
  }
  const lastClock = trace.records.at(-1)?.clock ?? 0
  for (const r of pairing.reads) {
    const end = r.lastLatency !== undefined ? r.requestClock + r.lastLatency : lastClock
    events.push({
      name: `MRd ${r.requestedBytes} B`,
      cat: 'read',
      ph: 'X',
      ts: us(r.requestClock),
      dur: us(end) - us(r.requestClock),
      pid,
      tid: r.tag + 1,
      args: {
        address: '0x' + r.address.toString(16),
        requesterId: r.requesterId,
        tag: r.tag,
        requestedBytes: r.requestedBytes,
        bytes: r.bytes,
        completions: r.completions,
        end: r.end,
        firstLatencyNs: ns(r.firstLatency),
        lastLatencyNs: ns(r.lastLatency),
        records: r.records,
      },
    })
  }
  const stray = [...pairing.unexpected.map((k) => [k, 'unexpected'] as const), ...pairing.earlier.map((k) => [k, 'earlier'] as const)]
  for (const [k, why] of stray.sort((a, b) => a[0] - b[0])) {
    const c = trace.records[k]!
    events.push({
      name: why === 'unexpected' ? `unexpected ${c.kind}` : `${c.kind} of an earlier read`,
      ph: 'i',
      s: 't',
      ts: us(c.clock),
      pid,
      tid: c.tag + 1,
      args: { record: k, tag: c.tag, requesterId: c.requesterId },
    })
  }
  const t = trace.triggerIndex !== undefined ? trace.records[trace.triggerIndex] : undefined
  if (t) {
    events.push({ name: 'thread_name', ph: 'M', ts: 0, pid, tid: TID_TRIGGER, args: { name: 'trigger' } })
    events.push({ name: 'thread_sort_index', ph: 'M', ts: 0, pid, tid: TID_TRIGGER, args: { sort_index: -1 } })
    events.push({
      name: 'trigger',
      ph: 'i',
      s: 't',
      ts: us(t.clock),
      pid,
      tid: TID_TRIGGER,
      args: {
        record: trace.triggerIndex,
        kind: t.kind,
        tag: t.tag,
        ...(t.address !== undefined ? { address: '0x' + t.address.toString(16) } : {}),
      },
    })
  }
  return { displayTimeUnit: 'ns', otherData: { ...meta, tap: trace.tap, records: trace.records.length }, traceEvents: events }
}
