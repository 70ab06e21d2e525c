/**
 * A trace's reads as timeline bars (DOM-free): each read from its request to the completion that
 * ended it (or to the trace's last record while still open), on a lane of its tag or of its
 * requester, coloured by its size class (the spec's classes, core/size-classes.ts). Times are
 * seconds since the trace's first record. Typed arrays, so 50 000 records cost a few arrays.
 */
import { sizeClassIndex } from '../host/src/core/size-classes.js'
import type { TraceReport } from '../host/src/core/trace-report.js'

export type LaneMode = 'tag' | 'requester'

export interface Lane {
  /** the tag, or the Requester ID */
  key: number
  label: string
}

export interface TraceBars {
  mode: LaneMode
  lanes: Lane[]
  /** per read (the report's order, which is request order): start and end, s since the first record */
  start: Float64Array
  end: Float64Array
  lane: Uint32Array
  /** index into SIZE_CLASSES */
  size: Uint8Array
  /** the longest bar, s (bounds how far left of a window a bar that reaches into it can start) */
  maxDuration: number
  /** the trace's extent: its first record is 0, its last at `span` */
  span: number
  /** the trigger record's time, null when it never fired or fired after the last record */
  trigger: number | null
  /** unexpected completions: when, and on which lane */
  unexpected: { t: number; lane: number }[]
  /** probe clock of the first record, and seconds per clock */
  firstClock: number
  secondsPerClock: number
}

const hex4 = (n: number) => '0x' + n.toString(16).padStart(4, '0')

/** Lanes of the keys present, in ascending order; each key's lane index. */
export function assignLanes(keys: Iterable<number>, mode: LaneMode): { lanes: Lane[]; laneOf: Map<number, number> } {
  const sorted = [...new Set(keys)].sort((a, b) => a - b)
  const lanes = sorted.map((key) => ({ key, label: mode === 'tag' ? `tag ${key}` : `rid ${hex4(key)}` }))
  return { lanes, laneOf: new Map(sorted.map((k, i) => [k, i])) }
}

export function buildBars(report: TraceReport, mode: LaneMode): TraceBars {
  const recs = report.tlps
  const firstClock = recs[0]?.clock ?? 0
  const secondsPerClock = 1 / report.clockHz
  const at = (i: number) => (recs[i]!.clock - firstClock) * secondsPerClock
  const span = recs.length > 0 ? at(recs.length - 1) : 0
  const keyOf = (r: { tag: number; requesterId: number }) => (mode === 'tag' ? r.tag : r.requesterId)
  const { lanes, laneOf } = assignLanes([...report.reads.map(keyOf), ...report.unexpected.map((i) => keyOf(recs[i]!))], mode)
  const n = report.reads.length
  const start = new Float64Array(n)
  const end = new Float64Array(n)
  const lane = new Uint32Array(n)
  const size = new Uint8Array(n)
  let maxDuration = 0
  report.reads.forEach((r, k) => {
    start[k] = at(r.record)
    // an open read reaches the trace's end; any other ends at its last completion
    end[k] = r.end === 'open' ? span : at(r.records[r.records.length - 1]!)
    lane[k] = laneOf.get(keyOf(r))!
    size[k] = sizeClassIndex(r.requestedBytes)
    maxDuration = Math.max(maxDuration, end[k] - start[k])
  })
  const t = report.triggerIndex
  return {
    mode,
    lanes,
    start,
    end,
    lane,
    size,
    maxDuration,
    span,
    trigger: t !== null && t < recs.length ? at(t) : null,
    unexpected: report.unexpected.map((i) => ({ t: at(i), lane: laneOf.get(keyOf(recs[i]!))! })),
    firstClock,
    secondsPerClock,
  }
}
