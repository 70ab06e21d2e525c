/**
 * A recording as relational tables: one table per record kind, flat columns, one row per record
 * (intervals: one row per sampler record, so a batch of 12 is 12 rows). Parquet export and
 * `pcie-scope query` both load these (docs/contracts.md §5.2 is the schema). Counter columns come
 * from the generated COUNTERS list (spec/registers.json), lower-cased, so a spec counter appears
 * here without an edit.
 *
 * Integers are BIGINT, not UBIGINT: counters are exact below 2^53 on the host anyway, and signed
 * columns let SQL take differences between rows (`mrd_bytes - lag(mrd_bytes)`) without overflow.
 */
import { counterValue } from '../core/counter-value.js'
import { COUNTERS } from '../core/generated.js'
import { binEdges, histogramTotal, latencyPercentilesNs, observedLatency, type ObservedLatency } from '../core/latency-histogram.js'
import type { Counters, LatencyHistogram, Snapshot } from '../core/probe.js'
import { elementBytesOf, idBytesOf, isGraphWorkload, l1Of, type AnyWorkload } from '../core/workload.js'
import type { AnyRecord, RecordError, RecordType } from './format.js'

export type ColumnType = 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'VARCHAR'
export type Cell = number | string | boolean | null

export interface Column {
  name: string
  type: ColumnType
}

export interface TableDef {
  /** the SQL table name (plural of the record kind) */
  name: string
  record: RecordType
  columns: readonly Column[]
  /** the rows one record of this kind adds, cells in column order (`seen`: what was read before it) */
  rows: (r: AnyRecord, clockHz: number, seen?: TableContext) => Cell[][]
}

/**
 * What reading a recording in order has seen so far that a later row needs: each tap's newest
 * counters, whose smallest and largest latency bound a histogram's percentiles (the page's rule,
 * core/latency-histogram.ts), so p50/p99 never lie outside what was observed.
 */
export class TableContext {
  private readonly newest = new Map<string, { epoch: number; counters: Counters }>()

  /** Take note of a record (every record, in order, before its rows). */
  note(r: AnyRecord): void {
    if (r.t === 'snapshot') this.newest.set('gpuSide', { epoch: r.epoch ?? 0, counters: r.snapshot.counters })
    else if (r.t === 'tap-snapshot') this.newest.set(r.tapSnapshot.tap, { epoch: r.epoch ?? 0, counters: r.tapSnapshot.counters })
  }

  /** The observed bounds of a histogram of `tap` in `epoch`, when the newest counters can bound it. */
  observed(tap: string, epoch: number, h: LatencyHistogram): ObservedLatency | undefined {
    const c = this.newest.get(tap)
    return c && c.epoch === epoch ? observedLatency(c.counters, h.kind, histogramTotal(h.bins)) : undefined
  }
}

const big = (name: string): Column => ({ name, type: 'BIGINT' })
const dbl = (name: string): Column => ({ name, type: 'DOUBLE' })
const text = (name: string): Column => ({ name, type: 'VARCHAR' })
const bool = (name: string): Column => ({ name, type: 'BOOLEAN' })

// a graph kernel's run has no bytes, offset or lane width (NULL); a micro pattern's no graph or id width
const WORKLOAD_COLUMNS = [
  big('run_id'),
  text('origin'),
  text('pattern'),
  big('bytes'),
  big('offset'),
  big('element_bytes'),
  text('l1'),
  text('graph'),
  big('id_bytes'),
]
const workloadCells = (id: number, origin: string, w: AnyWorkload): Cell[] =>
  isGraphWorkload(w)
    ? [id, origin, w.pattern, null, null, null, l1Of(w), w.graph, idBytesOf(w)]
    : [id, origin, w.pattern, w.bytes, w.offset, elementBytesOf(w), l1Of(w), null, null]
const errorCells = (e: RecordError | null): Cell[] => [e?.code ?? null, e?.message ?? null]

/** lower-cased spec counter names: MRD_128 → mrd_128 */
const counterColumn = (name: string): string => name.toLowerCase()

const snapshotCells = (s: Snapshot, clockHz: number): Cell[] => [
  s.seq,
  s.index,
  s.onDemand,
  s.enabled,
  s.counters.timestamp / clockHz,
  ...COUNTERS.map((c) => counterValue(s.counters, c)),
  s.firmware.rxFrames,
  s.firmware.rxBadFrames,
  s.firmware.rxOverflows,
  s.firmware.unknownCommands,
  s.firmware.txDropped,
]

const ratio = (num: number, den: number): number | null => (den > 0 ? num / den : null)

// a latency histogram (either tap's): where it came from, its reads, p50/p99 by the host's one
// rule (core/latency-histogram.ts, within the latencies observed), and the bins' lower edges in clocks and the bins themselves as JSON arrays
const HISTOGRAM_COLUMNS = [
  big('at_ms'),
  big('seq'),
  text('reason'),
  text('kind'),
  big('snapshot_index'),
  text('edges_json'),
  big('reads'),
  dbl('p50_ns'),
  dbl('p99_ns'),
  bool('overflow'),
  text('bins_json'),
]
const histogramCells = (at: number, h: LatencyHistogram, clockHz: number, observed: ObservedLatency | undefined): Cell[] => {
  const p = latencyPercentilesNs(h.bins, h.layout, clockHz, observed)
  return [
    at,
    h.seq,
    h.reason,
    h.kind,
    h.snapshotIndex,
    JSON.stringify(binEdges(h.layout)),
    histogramTotal(h.bins),
    p?.p50 ?? null,
    p?.p99 ?? null,
    p?.overflow ?? null,
    JSON.stringify(h.bins),
  ]
}

const TABLES_BY_RECORD: readonly TableDef[] = [
  {
    name: 'snapshots',
    record: 'snapshot',
    columns: [
      big('at_ms'),
      big('seq'),
      big('snapshot_index'),
      bool('on_demand'),
      bool('enabled'),
      dbl('time_s'),
      ...COUNTERS.map((c) => big(counterColumn(c.name))),
      big('fw_rx_frames'),
      big('fw_rx_bad_frames'),
      big('fw_rx_overflows'),
      big('fw_unknown_commands'),
      big('fw_tx_dropped'),
    ],
    rows: (r, hz) => (r.t === 'snapshot' ? [[r.at, ...snapshotCells(r.snapshot, hz)]] : []),
  },
  {
    name: 'intervals',
    record: 'interval',
    columns: [
      big('at_ms'),
      big('batch_seq'),
      big('sample_index'),
      big('batch_dropped'),
      big('batch_overflow'),
      big('ts'),
      dbl('time_s'),
      big('cycles'),
      big('mrd_count'),
      big('mrd_bytes'),
      big('cpld_count'),
      big('cpld_bytes'),
      big('occ_sum'),
      big('occ_peak'),
      big('lat_sum'),
      big('lat_count'),
      dbl('outstanding_avg'),
      dbl('latency_avg_cycles'),
    ],
    rows: (r, hz) =>
      r.t !== 'interval'
        ? []
        : r.batch.records.map((s, i) => [
            r.at,
            r.batch.seq,
            r.batch.firstIndex + i,
            r.batch.dropped,
            r.batch.overflow,
            s.ts,
            s.ts / hz,
            s.cycles,
            s.mrdCount,
            s.mrdBytes,
            s.cpldCount,
            s.cpldBytes,
            s.occSum,
            s.occPeak,
            s.latSum,
            s.latCount,
            ratio(s.occSum, s.cycles),
            ratio(s.latSum, s.latCount),
          ]),
  },
  {
    name: 'histograms',
    record: 'histogram',
    columns: HISTOGRAM_COLUMNS,
    rows: (r, hz, seen) =>
      r.t === 'histogram' ? [histogramCells(r.at, r.histogram, hz, seen?.observed('gpuSide', r.epoch ?? 0, r.histogram))] : [],
  },
  {
    // the switch design's host side: the same columns as snapshots but the firmware's link
    // statistics (those are the SNAPSHOT's), with the tap and the SNAPSHOT it was taken with
    name: 'tap_snapshots',
    record: 'tap-snapshot',
    columns: [
      big('at_ms'),
      big('seq'),
      text('tap'),
      big('snapshot_index'),
      dbl('time_s'),
      ...COUNTERS.map((c) => big(counterColumn(c.name))),
    ],
    rows: (r, hz) => {
      if (r.t !== 'tap-snapshot') return []
      const t = r.tapSnapshot
      return [[r.at, t.seq, t.tap, t.snapshotIndex, t.counters.timestamp / hz, ...COUNTERS.map((c) => counterValue(t.counters, c))]]
    },
  },
  {
    name: 'tap_histograms',
    record: 'tap-histogram',
    columns: [...HISTOGRAM_COLUMNS.slice(0, 2), text('tap'), ...HISTOGRAM_COLUMNS.slice(2)],
    rows: (r, hz, seen) => {
      if (r.t !== 'tap-histogram') return []
      const [at, seq, ...rest] = histogramCells(r.at, r.histogram, hz, seen?.observed(r.histogram.tap, r.epoch ?? 0, r.histogram))
      return [[at!, seq!, r.histogram.tap, ...rest]]
    },
  },
  {
    name: 'run_starts',
    record: 'run-start',
    columns: [big('at_ms'), ...WORKLOAD_COLUMNS, big('baseline_timestamp')],
    rows: (r) =>
      r.t === 'run-start' ? [[r.at, ...workloadCells(r.id, r.origin, r.workload), r.baseline?.counters.timestamp ?? null]] : [],
  },
  {
    name: 'runs',
    record: 'run',
    columns: [
      big('at_ms'),
      ...WORKLOAD_COLUMNS,
      big('probe_from'),
      big('probe_to'),
      text('error_code'),
      text('error_message'),
      text('result_json'),
    ],
    rows: (r) =>
      r.t === 'run'
        ? [
            [
              r.at,
              ...workloadCells(r.id, r.origin, r.workload),
              r.probeWindow?.from ?? null,
              r.probeWindow?.to ?? null,
              ...errorCells(r.error),
              r.result === undefined ? null : JSON.stringify(r.result),
            ],
          ]
        : [],
  },
  {
    name: 'devices',
    record: 'device',
    columns: [
      big('at_ms'),
      text('event'),
      big('probe_id'),
      big('firmware_version'),
      big('protocol_version'),
      dbl('clock_hz'),
      text('error_code'),
      text('error_message'),
    ],
    rows: (r) =>
      r.t === 'device'
        ? [
            [
              r.at,
              r.event,
              r.info?.probeId ?? null,
              r.info?.firmwareVersion ?? null,
              r.info?.protocolVersion ?? null,
              r.info?.clockHz ?? null,
              ...errorCells(r.error),
            ],
          ]
        : [],
  },
  {
    name: 'marks',
    record: 'mark',
    columns: [big('at_ms'), text('label'), text('note')],
    rows: (r) => (r.t === 'mark' ? [[r.at, r.label, r.note]] : []),
  },
  {
    name: 'gaps',
    record: 'gap',
    columns: [big('at_ms'), big('from_ms'), big('to_ms'), ...[text('reason_code'), text('reason_message')]],
    rows: (r) => (r.t === 'gap' ? [[r.at, r.from, r.to, ...errorCells(r.reason)]] : []),
  },
  {
    // the GPU's own PCIe counters (`serve --gpu-counters`): ns on the counter source's clock
    name: 'gpu_counters',
    record: 'gpu-counters',
    columns: [
      big('at_ms'),
      text('counter_source'),
      big('device'),
      dbl('start_ns'),
      dbl('end_ns'),
      big('samples'),
      big('lost'),
      dbl('read_bytes'),
      dbl('write_bytes'),
      dbl('read_gbps'),
      dbl('write_gbps'),
      dbl('requests'),
      dbl('requests_per_s'),
      dbl('payload_gbps'),
      dbl('mean_request_bytes'),
      dbl('in_flight'),
    ],
    rows: (r) =>
      r.t === 'gpu-counters'
        ? [
            [
              r.at,
              r.counterSource,
              r.device,
              r.startNs,
              r.endNs,
              r.samples,
              r.lost,
              r.readBytes,
              r.writeBytes,
              r.readGBps,
              r.writeGBps,
              r.requests,
              r.requestsPerSecond,
              r.payloadGBps,
              r.meanRequestBytes,
              r.inFlight,
            ],
          ]
        : [],
  },
  {
    name: 'frames',
    record: 'frame',
    columns: [big('at_ms'), text('dir'), big('frame_type'), big('seq'), big('length'), text('data_hex')],
    rows: (r) => {
      if (r.t !== 'frame') return []
      const b = Buffer.from(r.data, 'base64')
      return [[r.at, r.dir, b.length > 0 ? b[0]! : null, b.length >= 3 ? b.readUInt16LE(1) : null, b.length, b.toString('hex')]]
    },
  },
]

/**
 * Every table ends with `epoch`, the device's life the row belongs to (0 until a reconnect): a
 * restarted twin counts snapshot indexes and probe time from 0 again, so rows join on (epoch,
 * snapshot_index) and sort on (epoch, time_s) or at_ms.
 */
export const TABLES: readonly TableDef[] = TABLES_BY_RECORD.map((t) => ({
  ...t,
  columns: [...t.columns, big('epoch')],
  rows: (r: AnyRecord, clockHz: number, seen?: TableContext) => t.rows(r, clockHz, seen).map((row) => [...row, r.epoch ?? 0]),
}))

export const TABLE_NAMES = TABLES.map((t) => t.name)

/** The table a record kind fills (every known kind has one). */
export const tableOf = (t: RecordType): TableDef | undefined => TABLES.find((d) => d.record === t)

/** What `export --format parquet` writes without --table. */
export const DEFAULT_PARQUET_TABLE = 'snapshots'
