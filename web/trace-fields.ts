/**
 * One read's records with their header fields decoded, for the trace view's detail (DOM-free):
 * a column per record (the request, then its completions), a row per field; a field a record's
 * kind lacks (a request's status, a completion's address) reads "–".
 */
import type { TraceReport, TraceReportRecord } from '../host/src/core/trace-report.js'

/** Completion Status (PCIe Base, docs/pcie.md): 000 SC, 001 UR, 010 CRS, 100 CA; the rest reserved. */
const STATUS_NAMES: Record<number, string> = { 0: 'SC', 1: 'UR', 2: 'CRS', 4: 'CA' }

const hex = (n: number, digits: number) => '0x' + n.toString(16).padStart(digits, '0')
const bits = (n: number, width: number) => n.toString(2).padStart(width, '0')
/** a Requester ID as bus:device.function */
const bdf = (rid: number) => `${(rid >>> 8).toString(16).padStart(2, '0')}:${((rid >>> 3) & 0x1f).toString(16).padStart(2, '0')}.${rid & 7}`
const dash = (v: number | undefined, f: (n: number) => string) => (v === undefined ? '–' : f(v))

/** The field rows, in the order the detail shows them. */
export const FIELD_LABELS = [
  'kind',
  'Fmt / Type',
  'Length',
  'Requester ID',
  'tag',
  'address',
  'bytes requested',
  'status',
  'Byte Count',
  'Lower Address',
  'tap clock',
  'time',
  'stream',
  'segment',
  'tap',
] as const

/** One record's fields, in FIELD_LABELS order; `clockHz` turns its clock into ns since the probe's reset. */
export function recordFields(r: TraceReportRecord, clockHz: number): string[] {
  return [
    r.kind,
    `${bits(r.fmt, 3)} / ${bits(r.type, 5)}`,
    `${r.lengthDw} DW`,
    `${hex(r.requesterId, 4)} (${bdf(r.requesterId)})`,
    String(r.tag),
    dash(r.address, (a) => hex(a, 12)),
    dash(r.requestedBytes, (b) => `${b} B`),
    dash(r.status, (s) => `${STATUS_NAMES[s] ?? 'reserved'} (${bits(s, 3)})`),
    dash(r.byteCount, (b) => `${b} B`),
    dash(r.lowerAddress, (l) => hex(l, 2)),
    `${r.clock} clocks`,
    `${((r.clock * 1e9) / clockHz).toFixed(1)} ns`,
    r.stream,
    String(r.segment),
    String(r.tap),
  ]
}

export interface ReadDetail {
  /** a title per record: its index, its kind, and the trigger mark */
  columns: string[]
  /** the records' indices, in column order */
  records: number[]
  rows: { label: string; values: string[] }[]
}

/** The detail of read `i` of the report. */
export function readDetail(report: TraceReport, i: number): ReadDetail {
  const read = report.reads[i]!
  const recs = read.records.map((k) => report.tlps[k]!)
  const fields = recs.map((r) => recordFields(r, report.clockHz))
  return {
    columns: read.records.map((k, j) => `record ${k} ${recs[j]!.kind}${k === report.triggerIndex ? ' (trigger)' : ''}`),
    records: [...read.records],
    rows: FIELD_LABELS.map((label, f) => ({ label, values: fields.map((v) => v[f]!) })),
  }
}
