/**
 * Trace records (docs/trace.md): one TLP header as the probe's trace unit stored it, decoded; and
 * the pairing of each memory read with its completions, giving per-read latency and bytes by the
 * tracker's own rules (hdl/rtl/probe_tracker.v), so that where both cover the same reads they
 * agree.
 *
 * A record is TRACE_WORDS (the TRC_REC_* registers): header DW0..DW3 as on the link (DW0 the
 * first four bytes), the tap clock's low word, and an info word (clock bits 47:32, segment,
 * stream, tap).
 */
import { TRACE_KINDS, TRACE_TRIGGER_BITS, TRACE_WORDS, type TraceKind } from './generated.js'

/** One trace record, decoded. Field values follow the PCIe header layout (docs/pcie.md). */
export interface TraceRecord {
  /** tap clock (probe clocks since reset) */
  clock: number
  tap: number
  segment: number
  /** 'request' (the request tap) or 'completion' (the completion tap) */
  stream: 'request' | 'completion'
  kind: TraceKind
  /** header DW0..DW3 */
  dw: [number, number, number, number]
  fmt: number
  type: number
  /** Length in DW (0 read as 1024) */
  lengthDw: number
  /** 10-bit tag (T9, T8, Tag) */
  tag: number
  /** a request's Requester ID, or the one a completion names */
  requesterId: number
  /** memory requests: the byte address (dword aligned); else undefined */
  address?: number
  /** memory reads: the bytes requested (byte enables applied); else undefined */
  requestedBytes?: number
  /** completions: status, Byte Count (0 read as 4096), Lower Address bits 1:0 */
  status?: number
  byteCount?: number
  lowerAddress?: number
}

const u32 = (x: number) => x >>> 0

function kindOf(fmt: number, type: number): TraceKind {
  const k = (i: number) => TRACE_KINDS[i]!
  if (fmt >> 1 === 0 && type >> 1 === 0) return k(0) // MRd, MRdLk
  if (fmt >> 1 === 1 && type === 0) return k(1) // MWr
  if ((fmt & 0b101) === 0 && type >> 1 === 0b0101) return fmt === 0b010 ? k(2) : k(3) // CplD / Cpl
  return k(4)
}

// bytes skipped before the first enabled byte and after the last (docs/pcie.md)
const lead = (be: number) => (be & 1 ? 0 : be & 2 ? 1 : be & 4 ? 2 : be & 8 ? 3 : 0)
const trail = (be: number) => (be & 8 ? 0 : be & 4 ? 1 : be & 2 ? 2 : be & 1 ? 3 : 0)

/** Decode one record from its TRACE_WORDS words. */
export function decodeTraceRecord(words: ArrayLike<number>): TraceRecord {
  if (words.length !== TRACE_WORDS.length) throw new RangeError(`a trace record is ${TRACE_WORDS.length} words, not ${words.length}`)
  const dw: [number, number, number, number] = [u32(words[0]!), u32(words[1]!), u32(words[2]!), u32(words[3]!)]
  const info = u32(words[5]!)
  const fmt = dw[0] >>> 29
  const type = (dw[0] >>> 24) & 0x1f
  const kind = kindOf(fmt, type)
  const rawLen = dw[0] & 0x3ff
  const lengthDw = rawLen === 0 ? 1024 : rawLen
  const completion = kind === 'CPLD' || kind === 'CPL'
  const tagLow = completion ? (dw[2] >>> 8) & 0xff : (dw[1] >>> 8) & 0xff
  const rec: TraceRecord = {
    clock: (info & 0xffff) * 2 ** 32 + u32(words[4]!),
    tap: info >>> 24,
    segment: (info >>> 16) & 3,
    stream: (info >>> 18) & 1 ? 'completion' : 'request',
    kind,
    dw,
    fmt,
    type,
    lengthDw,
    tag: (((dw[0] >>> 23) & 1) << 9) | (((dw[0] >>> 19) & 1) << 8) | tagLow,
    requesterId: completion ? dw[2] >>> 16 : dw[1] >>> 16,
  }
  if (kind === 'MRD' || kind === 'MWR') {
    rec.address = fmt & 1 ? dw[2] * 2 ** 32 + u32(dw[3] & ~3) : u32(dw[2] & ~3)
  }
  if (kind === 'MRD') {
    const firstBe = dw[1] & 0xf
    const lastBe = (dw[1] >>> 4) & 0xf
    if (lengthDw === 1 && firstBe === 0) rec.requestedBytes = 0
    else rec.requestedBytes = lengthDw * 4 - lead(firstBe) - trail(lengthDw === 1 ? firstBe : lastBe)
  }
  if (completion) {
    rec.status = (dw[1] >>> 13) & 7
    const bc = dw[1] & 0xfff
    rec.byteCount = bc === 0 ? 4096 : bc
    rec.lowerAddress = dw[2] & 0x7f
  }
  return rec
}

/** One memory read and what answered it. */
export interface PairedRead {
  tap: number
  requesterId: number
  tag: number
  address: number
  requestedBytes: number
  requestClock: number
  /** clocks from the request to its first successful completion with data (undefined: none) */
  firstLatency?: number
  /** clocks from the request to the completion that ended it (undefined: still open at the trace's end) */
  lastLatency?: number
  /** payload bytes its completions carried */
  bytes: number
  completions: number
  /** how it ended: 'done' (byte count reached), 'error' (a non-SC status or a completion without data), or open */
  end: 'done' | 'error' | 'open'
  /** the records (indices into the input) of the request and its completions */
  records: number[]
}

export interface Pairing {
  reads: PairedRead[]
  /** completions no outstanding read on their tap, tag and requester explains (record indices) */
  unexpected: number[]
  /**
   * completions before any read on their tap, requester and tag is in the trace (record indices):
   * answers to reads requested before the first record, not faults
   */
  earlier: number[]
}

/**
 * Pair every MRd with its completions: by tap, requester ID and tag, across split completions,
 * in record order; within one clock, completions first (a completion never answers a read of its
 * own clock), as the tracker does. A completion with data (status SC) carries Length*4 - Lower
 * Address[1:0] bytes and ends the read when its Byte Count is at most that; any other status, or
 * a completion without data, ends it at once. A new read on a busy tag replaces the old one,
 * which stays open. A completion no read explains is `earlier` while its tap, requester and tag
 * have had no read in the trace yet (its read came before the first record), else `unexpected`.
 */
export function pairReads(records: readonly TraceRecord[]): Pairing {
  const reads: PairedRead[] = []
  const unexpected: number[] = []
  const earlier: number[] = []
  const live = new Map<string, PairedRead>()
  const requested = new Set<string>()
  const key = (tap: number, rid: number, tag: number) => `${tap}:${rid}:${tag}`
  let i = 0
  while (i < records.length) {
    let j = i
    while (j < records.length && records[j]!.clock === records[i]!.clock) j++
    const order = [...Array(j - i).keys()].map((k) => i + k)
    const cpls = order.filter((k) => records[k]!.kind === 'CPLD' || records[k]!.kind === 'CPL')
    for (const k of cpls) {
      const c = records[k]!
      const r = live.get(key(c.tap, c.requesterId, c.tag))
      if (!r) {
        const k2 = key(c.tap, c.requesterId, c.tag)
        const readInTrace =
          requested.has(k2) ||
          order.some((o) => records[o]!.kind === 'MRD' && key(records[o]!.tap, records[o]!.requesterId, records[o]!.tag) === k2)
        ;(readInTrace ? unexpected : earlier).push(k)
        continue
      }
      r.completions++
      r.records.push(k)
      const withData = c.kind === 'CPLD'
      if (c.status !== 0 || !withData) {
        r.end = 'error'
        r.lastLatency = c.clock - r.requestClock
        live.delete(key(c.tap, c.requesterId, c.tag))
        continue
      }
      const carried = c.lengthDw * 4 - (c.lowerAddress! & 3)
      if (r.firstLatency === undefined) r.firstLatency = c.clock - r.requestClock
      r.bytes += carried
      if (c.byteCount! <= carried) {
        r.end = 'done'
        r.lastLatency = c.clock - r.requestClock
        live.delete(key(c.tap, c.requesterId, c.tag))
      }
    }
    for (const k of order) {
      const q = records[k]!
      if (q.kind !== 'MRD') continue
      const read: PairedRead = {
        tap: q.tap,
        requesterId: q.requesterId,
        tag: q.tag,
        address: q.address!,
        requestedBytes: q.requestedBytes!,
        requestClock: q.clock,
        bytes: 0,
        completions: 0,
        end: 'open',
        records: [k],
      }
      reads.push(read)
      live.set(key(q.tap, q.requesterId, q.tag), read)
      requested.add(key(q.tap, q.requesterId, q.tag))
    }
    i = j
  }
  return { reads, unexpected, earlier }
}

/* --- a trace as the device hands it over (TRACE_STATUS, TRACE_ARM, TRACE_READ and TRACE frames) --- */

/** TRC_STATUS bits 1:0 by value. */
export const TRACE_STATES = ['idle', 'armed', 'triggered', 'stopped'] as const
export type TraceState = (typeof TRACE_STATES)[number]
export type TraceCondition = keyof typeof TRACE_TRIGGER_BITS

/** TRACE_STATUS: the unit's registers and the firmware's drain of it. */
export interface TraceStatus {
  tap: number
  state: TraceState
  /** a trigger (or FORCE) happened since ARM */
  triggered: boolean
  /** recording ended because the ring filled after the trigger */
  full: boolean
  /** TRACE frames of this tap still to come */
  draining: boolean
  depth: number
  count: number
  triggerIndex: number
  lost: number
  /** records of the current or last drain sent so far */
  sent: number
  /** probe clock of the trigger */
  triggerClock: number
}

/** The trigger: every condition listed must hold (none: only FORCE triggers); values as the TRC_TRIG_* registers take them. */
export interface TraceTriggerSettings {
  conditions: TraceCondition[]
  /** TYPE: the kinds accepted */
  types?: TraceKind[]
  /** ADDR: the window [base, limit] */
  base?: number
  limit?: number
  requesterId?: number
  tag?: number
  lengthDw?: number
  status?: number
  /** LATENCY: a first completion later than this many probe clocks */
  latencyClocks?: number
  /** OUTSTANDING: more than this many reads outstanding */
  outstanding?: number
}

export interface TraceArmOptions {
  tap?: number
  /** records kept before the trigger record (at most depth - 8) */
  pre?: number
  trigger?: TraceTriggerSettings
  /** what is recorded: kinds (all by default) and an address window (off by default) */
  filter?: { types?: TraceKind[]; base?: number; limit?: number }
}

/** A whole trace, read after it stopped. */
export interface Trace {
  tap: number
  /** records, oldest first */
  records: TraceRecord[]
  /** their raw TRACE_WORDS words */
  words: number[][]
  triggered: boolean
  /** the trigger record's index (records.length when none was stored after it); undefined when it never triggered */
  triggerIndex: number | undefined
  full: boolean
  lost: number
}

/** TRACE_KINDS as one bit each (TRC_TRIG_TYPES, TRC_FILT_TYPES). */
export const traceKindBits = (kinds: readonly TraceKind[]): number => kinds.reduce((m, k) => m | (1 << TRACE_KINDS.indexOf(k)), 0)

/** The TRACE_ARM arguments of `o` (range checks are the device's: it refuses what the registers cannot hold). */
export function traceArmArgs(o: TraceArmOptions): Record<string, number> {
  const t = o.trigger ?? { conditions: [] }
  const f = o.filter ?? {}
  const windowed = f.base !== undefined || f.limit !== undefined
  return {
    tap: o.tap ?? 0,
    pre: o.pre ?? 0,
    trigEnable: t.conditions.reduce((m, c) => m | (1 << TRACE_TRIGGER_BITS[c]), 0),
    trigTypes: traceKindBits(t.types ?? []),
    trigStatus: t.status ?? 0,
    trigRid: t.requesterId ?? 0,
    trigTag: t.tag ?? 0,
    trigLen: t.lengthDw ?? 0,
    trigOutstanding: t.outstanding ?? 0,
    trigLatency: t.latencyClocks ?? 0,
    trigBase: t.base ?? 0,
    trigLimit: t.limit ?? 0,
    filterTypes: traceKindBits(f.types ?? TRACE_KINDS),
    filterEnable: windowed ? 1 : 0,
    filterBase: f.base ?? 0,
    filterLimit: f.limit ?? (windowed ? Number.MAX_SAFE_INTEGER : 0),
  }
}
