/**
 * A trace opened from a file in the trace view: `DIR/trace.json` of `pcie-scope trace --out` (the
 * report and every record's raw words) or what `pcie-scope trace --json` printed (the report). A
 * report without decoded records (saved before reports carried them) is decoded from its words;
 * anything else is refused with PS_TRACE_FILE_INVALID naming what is missing. DOM-free.
 */
import { PsError } from '../host/src/core/errors.js'
import { decodeTraceRecord } from '../host/src/core/trace.js'
import { reportRecord, type TraceReport } from '../host/src/core/trace-report.js'

const invalid = (why: string) => new PsError('PS_TRACE_FILE_INVALID', `not a saved trace: ${why}`)

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The report a saved trace holds, with `tlps` filled in. */
export function parseTraceFile(text: string): TraceReport {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw invalid(`no JSON (${(e as Error).message})`)
  }
  if (!isObject(json)) throw invalid('the JSON is no object')
  for (const key of ['clockHz', 'records', 'tap'] as const)
    if (typeof json[key] !== 'number') throw invalid(`no number "${key}" (expected the report of pcie-scope trace --json or --out)`)
  if (!Array.isArray(json['reads']) || !Array.isArray(json['unexpected'])) throw invalid('no "reads" and "unexpected" lists')
  const report = json as unknown as TraceReport & { words?: unknown }
  if (!Array.isArray(report.tlps)) {
    if (!Array.isArray(report.words)) throw invalid('no records: neither "tlps" nor "words" (trace.json of --out keeps the words)')
    try {
      report.tlps = (report.words as number[][]).map((w) => reportRecord(decodeTraceRecord(w)))
    } catch (e) {
      throw invalid(`a record's words: ${(e as Error).message}`)
    }
  }
  // saved before completions of earlier reads were told apart: all of them were called unexpected
  if (!Array.isArray(report.earlier)) report.earlier = []
  const n = report.tlps.length
  const outside = report.reads.find((r) => !Array.isArray(r.records) || r.records.some((i) => !(i >= 0 && i < n)))
  if (outside) throw invalid(`the read of record ${outside.record} names a record beyond the ${n} held`)
  return report
}
