/**
 * Reading a recording back: its records in write order across segments, as an async iterator.
 * A record exists once its newline is on disk: an unterminated last line (the process died
 * mid-write, or the writer is still at it) is skipped and counted as torn; a complete line that
 * is not a record is skipped and counted as invalid, a record of a type this version does not
 * know as unknown. Nothing in a segment's content makes reading throw.
 */
import { createReadStream } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { PsError } from '../core/errors.js'
import { RECORD_TYPES, RecordSchema, segmentNumber, type AnyRecord } from './format.js'

export interface ReadStats {
  /** segment files read */
  segments: number
  bytes: number
  /** records yielded */
  records: number
  /** unterminated last lines skipped */
  torn: number
  /** complete lines that are not a valid record, skipped */
  invalid: number
  /** well-formed records of a type this reader does not know, skipped */
  unknown: number
}

export const newReadStats = (): ReadStats => ({ segments: 0, bytes: 0, records: 0, torn: 0, invalid: 0, unknown: 0 })

export interface Segment {
  number: number
  file: string
}

/** The segment files of a recording, in write order. */
export const listSegments = async (dir: string): Promise<Segment[]> => {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new PsError('PS_RECORDING_NOT_FOUND', `no recording at ${dir}`)
    throw new PsError('PS_RECORDING_IO', `cannot list ${dir}: ${e instanceof Error ? e.message : String(e)}`, { cause: e })
  }
  return names
    .flatMap((name) => {
      const n = segmentNumber(name)
      return n === undefined ? [] : [{ number: n, file: join(dir, name) }]
    })
    .sort((a, b) => a.number - b.number)
}

type Parsed = { kind: 'record'; record: AnyRecord } | { kind: 'invalid' } | { kind: 'unknown' }

const KNOWN = new Set<string>(RECORD_TYPES)

export const parseRecordLine = (text: string): Parsed => {
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch {
    return { kind: 'invalid' }
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { kind: 'invalid' }
  const t = (v as { t?: unknown }).t
  if (typeof t !== 'string') return { kind: 'invalid' }
  if (!KNOWN.has(t)) return { kind: 'unknown' }
  const r = RecordSchema.safeParse(v)
  return r.success ? { kind: 'record', record: r.data } : { kind: 'invalid' }
}

/** The lines of a file, each with whether its newline was there (split on bytes: UTF-8 safe). */
async function* linesOf(file: string, stats: ReadStats): AsyncGenerator<{ text: string; terminated: boolean }> {
  let parts: Buffer[] = []
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      stats.bytes += chunk.length
      let start = 0
      for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
        parts.push(chunk.subarray(start, nl))
        yield { text: Buffer.concat(parts).toString('utf8'), terminated: true }
        parts = []
        start = nl + 1
      }
      if (start < chunk.length) parts.push(chunk.subarray(start))
    }
  } catch (e) {
    throw new PsError('PS_RECORDING_IO', `cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e })
  }
  if (parts.length > 0) yield { text: Buffer.concat(parts).toString('utf8'), terminated: false }
}

export interface ReadOptions {
  /** start at this segment number (segments before it are skipped unread) */
  fromSegment?: number
  /** filled in as reading goes on */
  stats?: ReadStats
}

/** Every record of a recording, in the order written. */
export async function* readRecords(dir: string, opts: ReadOptions = {}): AsyncGenerator<AnyRecord> {
  const stats = opts.stats ?? newReadStats()
  for (const seg of await listSegments(dir)) {
    if (seg.number < (opts.fromSegment ?? 0)) continue
    stats.segments++
    for await (const line of linesOf(seg.file, stats)) {
      if (!line.terminated) {
        stats.torn++
        continue
      }
      const p = parseRecordLine(line.text)
      if (p.kind === 'record') {
        stats.records++
        yield p.record
      } else stats[p.kind]++
    }
  }
}

/** Bytes in a recording's segments: what a full read goes through (for progress). */
export const segmentBytes = async (dir: string): Promise<number> => {
  let total = 0
  for (const seg of await listSegments(dir)) {
    try {
      total += (await stat(seg.file)).size
    } catch {
      // a segment that vanished between listing and stat reads as empty
    }
  }
  return total
}
