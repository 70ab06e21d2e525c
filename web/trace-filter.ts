/**
 * The trace view's table filter (DOM-free): by tag, address range, size class, how the read ended
 * and a last-completion latency above N ns. Parsed from the form's strings (an empty field filters
 * nothing), applied to the report's reads as a list of their indices.
 */
import { SIZE_CLASSES, sizeClassIndex } from '../host/src/core/size-classes.js'
import type { TraceReadRow, TraceReport } from '../host/src/core/trace-report.js'

export type ReadEnd = TraceReadRow['end']
/** how a read can end (core/trace.ts pairReads): its byte count reached, an error completion, still open at the trace's end */
export const READ_ENDS: readonly ReadEnd[] = ['done', 'error', 'open']

export interface TraceFilter {
  tag: number | null
  /** inclusive byte addresses */
  addrFrom: number | null
  addrTo: number | null
  /** index into SIZE_CLASSES */
  sizeClass: number | null
  end: ReadEnd | null
  /** last-completion latency strictly above this (reads without one never pass) */
  minLatencyNs: number | null
}

export const NO_FILTER: TraceFilter = { tag: null, addrFrom: null, addrTo: null, sizeClass: null, end: null, minLatencyNs: null }

/** The form's fields as typed. */
export interface TraceFilterInput {
  tag: string
  addrFrom: string
  addrTo: string
  /** a SIZE_CLASSES key, or '' */
  size: string
  /** a READ_ENDS value, or '' */
  end: string
  minLatencyNs: string
}

const wholeNumber = (text: string, what: string): number | null => {
  const t = text.trim()
  if (t === '') return null
  if (!/^(0x[0-9a-f]+|\d+)$/i.test(t)) throw new Error(`${what}: "${t}" is no whole number (decimal or 0x hex)`)
  const n = Number(t)
  if (!Number.isSafeInteger(n)) throw new Error(`${what}: "${t}" is beyond 2^53`)
  return n
}

/** The filter the form says, or the first field it cannot read. */
export function parseFilter(v: TraceFilterInput): { filter: TraceFilter } | { error: string } {
  try {
    const addrFrom = wholeNumber(v.addrFrom, 'address from')
    const addrTo = wholeNumber(v.addrTo, 'address to')
    if (addrFrom !== null && addrTo !== null && addrTo < addrFrom) throw new Error('address range: "to" is below "from"')
    const lat = v.minLatencyNs.trim()
    if (lat !== '' && !(Number(lat) >= 0)) throw new Error(`latency above: "${lat}" is no number of ns`)
    const sizeClass = v.size === '' ? null : SIZE_CLASSES.findIndex((c) => c.key === v.size)
    if (sizeClass === -1) throw new Error(`size: no class "${v.size}"`)
    if (v.end !== '' && !READ_ENDS.includes(v.end as ReadEnd)) throw new Error(`end: no state "${v.end}"`)
    return {
      filter: {
        tag: wholeNumber(v.tag, 'tag'),
        addrFrom,
        addrTo,
        sizeClass,
        end: v.end === '' ? null : (v.end as ReadEnd),
        minLatencyNs: lat === '' ? null : Number(lat),
      },
    }
  } catch (e) {
    return { error: (e as Error).message }
  }
}

export const passes = (r: TraceReadRow, f: TraceFilter): boolean =>
  (f.tag === null || r.tag === f.tag) &&
  (f.addrFrom === null || r.address >= f.addrFrom) &&
  (f.addrTo === null || r.address <= f.addrTo) &&
  (f.sizeClass === null || sizeClassIndex(r.requestedBytes) === f.sizeClass) &&
  (f.end === null || r.end === f.end) &&
  (f.minLatencyNs === null || (r.lastLatencyNs !== null && r.lastLatencyNs > f.minLatencyNs))

/** The indices of the reads that pass, in report (request) order. */
export function filterReads(report: Pick<TraceReport, 'reads'>, f: TraceFilter): Uint32Array {
  const out = new Uint32Array(report.reads.length)
  let n = 0
  report.reads.forEach((r, i) => {
    if (passes(r, f)) out[n++] = i
  })
  return out.slice(0, n)
}

/** Where read `i` stands among `ids` (ascending), or null when the filter hides it. */
export function positionOf(ids: Uint32Array, i: number): number | null {
  let lo = 0
  let hi = ids.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (ids[mid]! < i) lo = mid + 1
    else hi = mid
  }
  return ids[lo] === i ? lo : null
}
