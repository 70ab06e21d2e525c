/**
 * The trace's trigger and filter grammar (`pcie-scope trace --trigger/--filter`, `POST /api/trace`
 * `trigger`/`filter`; docs/trace.md): terms joined by `&` (or ` and `), all of which must hold.
 * Pure and free of the device: durations become clocks at the clock the caller passes, and every
 * value is checked against the register that holds it (spec/registers.json `range`), so a refusal
 * names the term instead of coming back as the firmware's BAD_ARGUMENT.
 */
import { PsError } from './errors.js'
import { REG_RANGE, TRACE_KINDS, TRACE_TRIGGER_BITS, type TraceKind } from './generated.js'
import type { TraceArmOptions, TraceCondition, TraceTriggerSettings } from './trace.js'

/** --trigger: what fires the trace. `force` fires it right after arming, before the workload starts. */
export type TriggerSpec = { force: true; text: string } | { force: false; text: string; settings: TraceTriggerSettings }

/** --filter: what the ring records (kinds and an address window). */
export interface FilterSpec {
  text: string
  filter: NonNullable<TraceArmOptions['filter']>
}

export const TRIGGER_SYNTAX =
  'force, or conditions joined by & (or "and"): type=KIND[|KIND…] (mrd, mwr, cpld, cpl, other), addr=BASE:LIMIT, ' +
  'rid=BB:DD.F or a number, tag=N, len=N (DW) or len=NB (bytes), status=sc|ur|crs|ca or a number, ' +
  'latency>T (clocks, or with ns/us/ms), outstanding>N, timeout, unexpected'
export const FILTER_SYNTAX = 'type=KIND[|KIND…] (mrd, mwr, cpld, cpl, other) and/or addr=BASE:LIMIT, joined by & (or "and")'

/** the largest address the host writes exactly (a JS number); the registers take 64 bits */
const ADDRESS_MAX = Number.MAX_SAFE_INTEGER
const UNIT_NS: Record<string, number> = { ns: 1, us: 1000, µs: 1000, ms: 1e6 }
const STATUS_NAMES: Record<string, number> = { sc: 0, ur: 1, crs: 2, ca: 4 }

type RangedRegister = keyof typeof REG_RANGE

/** One term's refusal: which term, and what it would have accepted. */
const refuse = (what: 'trigger' | 'filter', term: string, why: string): PsError => new PsError('PS_USAGE', `${what} term '${term}': ${why}`)

/** The terms between `&` or ` and `; an empty one (`a & & b`, a trailing `&`) is refused. */
const splitTerms = (what: 'trigger' | 'filter', text: string): string[] => {
  const terms = text.split(/\s*&\s*|\s+and\s+/i).map((t) => t.trim())
  if (terms.includes('')) throw new PsError('PS_USAGE', `${what} '${text}': an empty term (two separators in a row, or one at an end)`)
  return terms
}

/** A whole number, decimal or 0x hex, up to `max`; undefined when it is not one. */
const wholeNumber = (s: string, max = Number.MAX_SAFE_INTEGER): number | undefined => {
  if (!/^(0x[0-9a-f]+|\d+)$/i.test(s)) return undefined
  const n = BigInt(s)
  return n > BigInt(max) ? Infinity : Number(n)
}

/** A value for the register `reg`, within its spec range. */
const registerValue = (what: 'trigger' | 'filter', term: string, s: string, reg: RangedRegister, label: string): number => {
  const [min, max] = REG_RANGE[reg]
  const n = wholeNumber(s)
  if (n === undefined) throw refuse(what, term, `${label} must be ${min}..${max}, decimal or 0x hex`)
  if (n < min || n > max) throw refuse(what, term, `${label} must be ${min}..${max} (${reg})`)
  return n
}

const parseKinds = (what: 'trigger' | 'filter', term: string, s: string): TraceKind[] => {
  const names = s.split(/\s*[|,]\s*/).map((k) => k.toUpperCase())
  const kinds: TraceKind[] = []
  for (const k of names) {
    if (!(TRACE_KINDS as readonly string[]).includes(k))
      throw refuse(
        what,
        term,
        `'${k.toLowerCase()}' is not a kind: ${TRACE_KINDS.map((x) => x.toLowerCase()).join(', ')}, joined by | or ,`,
      )
    if (!kinds.includes(k as TraceKind)) kinds.push(k as TraceKind)
  }
  return TRACE_KINDS.filter((k) => kinds.includes(k)) // the bits' order, whatever the text's
}

const parseWindow = (what: 'trigger' | 'filter', term: string, s: string): { base: number; limit: number } => {
  const m = /^(\S+?)\s*:\s*(\S+)$/.exec(s)
  const base = m ? wholeNumber(m[1]!, ADDRESS_MAX) : undefined
  const limit = m ? wholeNumber(m[2]!, ADDRESS_MAX) : undefined
  if (base === undefined || limit === undefined) throw refuse(what, term, 'expected addr=BASE:LIMIT (decimal or 0x hex, inclusive)')
  if (!Number.isFinite(base) || !Number.isFinite(limit)) throw refuse(what, term, `addresses must be at most 0x${ADDRESS_MAX.toString(16)}`)
  if (limit < base) throw refuse(what, term, 'the limit is below the base')
  return { base, limit }
}

/** `BB:DD.F` (hex, as lspci prints it) or a number: the 16-bit Requester ID. */
const parseRequesterId = (term: string, s: string): number => {
  const bdf = /^([0-9a-f]{1,2}):([0-9a-f]{1,2})\.([0-7])$/i.exec(s)
  if (!bdf) return registerValue('trigger', term, s, 'TRC_TRIG_RID', 'the Requester ID (BB:DD.F in hex, or a number)')
  const [bus, dev, fn] = [parseInt(bdf[1]!, 16), parseInt(bdf[2]!, 16), Number(bdf[3])]
  if (dev > 0x1f) throw refuse('trigger', term, `device ${dev} is above 0x1f`)
  return (bus << 8) | (dev << 3) | fn
}

/** `N` in DW, or `NB` in bytes: a whole number of DW either way. */
const parseLength = (term: string, s: string): number => {
  const bytes = /^(\S+?)\s*b$/i.exec(s)
  if (!bytes) return registerValue('trigger', term, s, 'TRC_TRIG_LEN', 'the Length (in DW, or bytes with a B suffix)')
  const n = wholeNumber(bytes[1]!)
  const [min, max] = REG_RANGE.TRC_TRIG_LEN
  if (n === undefined || n % 4 !== 0 || n / 4 < min || n / 4 > max)
    throw refuse('trigger', term, `bytes must be a multiple of 4 in ${min * 4}..${max * 4} (a Length of ${min}..${max} DW)`)
  return n / 4
}

const parseStatus = (term: string, s: string): number =>
  STATUS_NAMES[s.toLowerCase()] ??
  registerValue('trigger', term, s, 'TRC_TRIG_STATUS', `the status (${Object.keys(STATUS_NAMES).join(', ')}, or a number)`)

/** T in clocks, or with ns, us (µs) or ms at `clockHz`. */
const parseLatency = (term: string, s: string, clockHz: number): number => {
  const m = /^(\d+(?:\.\d+)?)\s*(ns|us|µs|ms)?$/i.exec(s)
  const [, max] = REG_RANGE.TRC_TRIG_LATENCY
  if (!m) throw refuse('trigger', term, 'expected latency>T, T in probe clocks or with ns, us or ms (latency>2us)')
  const unit = m[2]?.toLowerCase()
  const clocks = unit === undefined ? Number(m[1]) : Math.round((Number(m[1]) * UNIT_NS[unit]! * clockHz) / 1e9)
  if (!Number.isInteger(clocks)) throw refuse('trigger', term, 'a latency in clocks is a whole number')
  if (clocks > max)
    throw refuse('trigger', term, `the latency must be at most ${max} clocks (TRC_TRIG_LATENCY), ${(max / clockHz).toFixed(3)} s`)
  return clocks
}

/** The kinds of TLP a per-TLP condition can hold for (the rest hold for any; OUTSTANDING and TIMEOUT are the clock's). */
const KINDS_OF: Partial<Record<TraceCondition, readonly TraceKind[]>> = {
  ADDR: ['MRD', 'MWR'],
  STATUS: ['CPLD', 'CPL'],
  LATENCY: ['CPLD', 'CPL'],
  UNEXPECTED: ['CPLD', 'CPL'],
}

/**
 * Conditions that no one TLP meets together (`type=mrd & latency>2us`: latency is a completion's)
 * would arm a trigger that never fires: refused by name. Any empty intersection of these kind sets
 * shows in a pair, as the fixed ones fall in two disjoint groups.
 */
const refuseDisjoint = (settings: TraceTriggerSettings, termOf: Map<TraceCondition, string>): void => {
  const kindsOf = (c: TraceCondition) => (c === 'TYPE' ? settings.types! : KINDS_OF[c])
  const constrained = settings.conditions.filter((c) => kindsOf(c) !== undefined)
  const names = (ks: readonly TraceKind[]) => ks.map((k) => k.toLowerCase()).join('|')
  for (const [i, a] of constrained.entries())
    for (const b of constrained.slice(i + 1)) {
      const [ka, kb] = [kindsOf(a)!, kindsOf(b)!]
      if (ka.some((k) => kb.includes(k))) continue
      throw new PsError(
        'PS_USAGE',
        `trigger terms '${termOf.get(a)}' (${names(ka)}) and '${termOf.get(b)}' (${names(kb)}) never hold for one TLP: the trigger would never fire`,
      )
    }
}

/** One trigger term into `settings`; each condition at most once. */
const addTriggerTerm = (term: string, settings: TraceTriggerSettings, clockHz: number, termOf: Map<TraceCondition, string>): void => {
  const m = /^([a-z]+)\s*(?:([=<>])\s*(.*))?$/i.exec(term)
  if (!m) throw refuse('trigger', term, `expected ${TRIGGER_SYNTAX}`)
  const name = m[1]!.toLowerCase()
  const op = m[2]
  const value = (m[3] ?? '').trim()
  const set = (condition: TraceCondition, fields: Partial<TraceTriggerSettings> = {}) => {
    if (settings.conditions.includes(condition)) throw refuse('trigger', term, `${name} is given twice`)
    settings.conditions.push(condition)
    termOf.set(condition, term)
    Object.assign(settings, fields)
  }
  const needs = (want: '=' | '>' | undefined, shape: string) => {
    if (op !== want || (want !== undefined && value === '')) throw refuse('trigger', term, `expected ${shape}`)
  }
  switch (name) {
    case 'type':
      needs('=', 'type=KIND[|KIND…]')
      return set('TYPE', { types: parseKinds('trigger', term, value) })
    case 'addr':
      needs('=', 'addr=BASE:LIMIT')
      return set('ADDR', parseWindow('trigger', term, value))
    case 'rid':
      needs('=', 'rid=BB:DD.F or rid=N')
      return set('RID', { requesterId: parseRequesterId(term, value) })
    case 'tag':
      needs('=', 'tag=N')
      return set('TAG', { tag: registerValue('trigger', term, value, 'TRC_TRIG_TAG', 'the tag') })
    case 'len':
      needs('=', 'len=N (DW) or len=NB (bytes)')
      return set('LEN', { lengthDw: parseLength(term, value) })
    case 'status':
      needs('=', 'status=sc|ur|crs|ca or status=N')
      return set('STATUS', { status: parseStatus(term, value) })
    case 'latency':
      needs('>', 'latency>T (T in clocks, or with ns/us/ms)')
      return set('LATENCY', { latencyClocks: parseLatency(term, value, clockHz) })
    case 'outstanding':
      needs('>', 'outstanding>N')
      return set('OUTSTANDING', { outstanding: registerValue('trigger', term, value, 'TRC_TRIG_OUTSTANDING', 'the threshold') })
    case 'timeout':
      needs(undefined, 'timeout, alone')
      return set('TIMEOUT')
    case 'unexpected':
      needs(undefined, 'unexpected, alone')
      return set('UNEXPECTED')
    case 'force':
      throw refuse('trigger', term, 'force fires at once and takes no other condition')
    default:
      throw refuse('trigger', term, `unknown condition; expected ${TRIGGER_SYNTAX}`)
  }
}

/**
 * `force`, or conditions joined by `&`, e.g. `type=cpld & tag=5`, `type=mrd & addr=0x1000:0x1fff
 * & len=32`; conditions no one TLP can meet together are refused. Durations become clocks at `clockHz`, so the final parse waits for the probe's
 * INFO; a syntax check may pass any clock.
 */
export const parseTrigger = (value: string, clockHz: number): TriggerSpec => {
  const text = value.trim()
  if (/^force$/i.test(text)) return { force: true, text }
  if (text === '') throw new PsError('PS_USAGE', `trigger: empty; expected ${TRIGGER_SYNTAX}`)
  const settings: TraceTriggerSettings = { conditions: [] }
  const termOf = new Map<TraceCondition, string>()
  for (const term of splitTerms('trigger', text)) addTriggerTerm(term, settings, clockHz, termOf)
  settings.conditions.sort((a, b) => TRACE_TRIGGER_BITS[a] - TRACE_TRIGGER_BITS[b])
  refuseDisjoint(settings, termOf)
  return { force: false, text, settings }
}

/** `type=mrd|cpld`, `addr=BASE:LIMIT` or both joined by `&`: what the ring records (everything else is not stored). */
export const parseFilter = (value: string): FilterSpec => {
  const text = value.trim()
  if (text === '') throw new PsError('PS_USAGE', `filter: empty; expected ${FILTER_SYNTAX}`)
  const filter: FilterSpec['filter'] = {}
  for (const term of splitTerms('filter', text)) {
    const m = /^(type|addr)\s*=\s*(.+)$/i.exec(term)
    if (!m) throw refuse('filter', term, `a filter takes ${FILTER_SYNTAX}`)
    if (m[1]!.toLowerCase() === 'type') {
      if (filter.types) throw refuse('filter', term, 'type is given twice')
      filter.types = parseKinds('filter', term, m[2]!.trim())
    } else {
      if (filter.base !== undefined) throw refuse('filter', term, 'addr is given twice')
      Object.assign(filter, parseWindow('filter', term, m[2]!.trim()))
    }
  }
  return { text, filter }
}
