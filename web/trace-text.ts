/**
 * The trace view's words (DOM-free): the line that sums a trace up, a read's table cells and its
 * title in the detail, and the POST /api/trace body of the form.
 */
import type { TraceReadRow, TraceReport } from '../host/src/core/trace-report.js'
import { int } from './model.js'
import { READ_ENDS } from './trace-filter.js'

const fmtNs = (v: number | null) => (v === null ? '–' : v.toFixed(1))
export const hexAddress = (a: number): string => '0x' + a.toString(16).padStart(12, '0')

/** What the trace holds: the run, the records, how its reads ended, the trigger. */
export function traceSummary(r: TraceReport): string {
  const ended = (e: string) => r.reads.filter((x) => x.end === e).length
  const trigger =
    r.triggerIndex === null
      ? `trigger ${r.trigger} never fired`
      : `trigger ${r.trigger} at record ${int(r.triggerIndex)}${r.triggerRecord ? ` (${r.triggerRecord.kind} tag ${r.triggerRecord.tag})` : ''}`
  return (
    `${r.pattern}, ${int(r.bytes)} B: ${int(r.records)} records of tap ${r.tap} (ring ${int(r.depth)}), ${r.lost} lost · ` +
    `${int(r.reads.length)} reads (${READ_ENDS.map((e) => `${int(ended(e))} ${e}`).join(', ')}), ` +
    `${int(r.unexpected.length)} unexpected completions${r.earlier.length ? `, ${int(r.earlier.length)} of reads before the first record` : ''} · ${trigger}`
  )
}

/** The table's columns. */
export const READ_COLUMNS = ['record', 'tag', 'address', 'req B', 'bytes', 'cpls', 'end', 'first ns', 'last ns'] as const

/** A read's cells, in READ_COLUMNS order. */
export const readCells = (r: TraceReadRow): string[] => [
  String(r.record),
  String(r.tag),
  hexAddress(r.address),
  String(r.requestedBytes),
  String(r.bytes),
  String(r.completions),
  r.end,
  fmtNs(r.firstLatencyNs),
  fmtNs(r.lastLatencyNs),
]

/** The detail's heading: which read, and how it went. */
export const readTitle = (r: TraceReadRow): string =>
  `read of record ${r.record}: tag ${r.tag}, ${r.requestedBytes} B at ${hexAddress(r.address)}, ${r.end}, ` +
  `first ${fmtNs(r.firstLatencyNs)} ns, last ${fmtNs(r.lastLatencyNs)} ns`

/** The form's fields as typed. */
export interface TraceFormValues {
  pattern: string
  bytes: string
  trigger: string
  /** what is recorded (`type=mrd|cpld & addr=BASE:LIMIT`); blank records everything */
  filter: string
  /** the tap: 0 the GPU side, 1 the switch design's host side */
  tap: string
  pre: string
}

/** The POST /api/trace body: the trigger as typed (the server parses it), blank fields left to the server's defaults. */
export function traceRequestBody(v: TraceFormValues): Record<string, unknown> {
  return {
    pattern: v.pattern,
    bytes: Number(v.bytes),
    ...(v.trigger.trim() === '' ? {} : { trigger: v.trigger }),
    ...(v.filter.trim() === '' ? {} : { filter: v.filter }),
    ...(v.tap.trim() === '' || v.tap === '0' ? {} : { tap: Number(v.tap) }),
    ...(v.pre.trim() === '' ? {} : { pre: Number(v.pre) }),
  }
}
