/**
 * RecordingWriter: one recording directory, written append-only.
 *
 * Each record is one JSON line handed to the kernel in one write(2), synchronously: the order on
 * disk is the order of the events, and a killed process loses at most the line being written
 * (readers skip such a torn line). A segment rolls before a record would take it past
 * `segmentBytes`; it is fsynced when it rolls and when the recording closes, and the manifest is
 * then rewritten (atomically) with what is sealed. A record is a few hundred bytes at 10 Hz, so
 * synchronous writes cost the event loop nothing worth an asynchronous queue.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, rmdirSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { PsError } from '../core/errors.js'
import type { PcieLinkInfo } from '../core/link.js'
import type { ProbeInfo } from '../core/probe.js'
import { workloadKey, type AnyWorkload } from '../core/workload.js'
import { packageVersion } from '../util/package-root.js'
import {
  RECORDING_FORMAT,
  RECORDING_FORMAT_VERSION,
  MAX_MANIFEST_WORKLOADS,
  segmentName,
  type RecordingManifest,
  type AnyRecord,
  type RecordType,
} from './format.js'
import { syncDir, writeManifest } from './manifest.js'
import { validateRecordingName } from './names.js'

const DEFAULT_SEGMENT_BYTES = 4 * 1024 * 1024

export interface NewRecording {
  source: 'twin' | 'serial'
  path: string
  probe: ProbeInfo
  link: PcieLinkInfo | null
  /** workloads known before the first run (the CLI's one); runs add theirs as they start */
  workloads?: AnyWorkload[]
}

export interface RecordingWriterOptions {
  /** roll to a new segment before one would exceed this many bytes (default 4 MiB) */
  segmentBytes?: number
  /** clock for the manifest's times (tests) */
  now?: () => Date
}

const ioError = (what: string, e: unknown): PsError =>
  new PsError('PS_RECORDING_IO', `${what}: ${e instanceof Error ? e.message : String(e)}`, { cause: e })

/**
 * mkdir -p, one level at a time from the nearest directory that exists; returns the first
 * directory it created. Node's own `{ recursive: true }` loops for ever where a parent exists but
 * refuses children with ENOENT (`/proc`), a loop that no signal interrupts.
 */
const makeDirs = (dir: string): string | undefined => {
  const missing: string[] = []
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    if (dirname(d) === d) break
    missing.unshift(d)
  }
  for (const d of missing) mkdirSync(d)
  return missing[0]
}

/**
 * A destination that does not exist yet must be creatable: it is created (with its parents) and
 * removed again, so that `/proc/…`, a read-only mount or a file in the way is refused before a
 * run starts, not found out when the first record is due.
 */
const checkCreatable = (dir: string): void => {
  let first: string | undefined
  try {
    first = makeDirs(dir)
  } catch (e) {
    throw ioError(`cannot create the recording directory ${dir}`, e)
  }
  // remove what this check made, deepest first, up to the first directory it created
  for (let d = dir; first !== undefined; d = dirname(d)) {
    rmdirSync(d)
    if (d === first) break
  }
}

/** Refuse early (before a twin is started) a directory claimRecordingDir would refuse. */
export const checkRecordingDirFree = (dir: string): void => {
  validateRecordingName(basename(dir))
  let entries: string[]
  try {
    entries = readdirSync(dir)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return checkCreatable(dir)
    if (code === 'ENOTDIR') {
      if (existsSync(dir)) throw new PsError('PS_RECORDING_EXISTS', `${dir} exists and is not a directory`)
      return checkCreatable(dir) // a file where a parent directory should be
    }
    throw ioError(`cannot read ${dir}`, e)
  }
  if (entries.length > 0)
    throw new PsError('PS_RECORDING_EXISTS', `${dir} already exists and is not empty: choose a new recording directory`)
}

/**
 * Create the recording directory (and its parents). An existing empty directory is taken; one
 * with anything in it is refused, so a recording never overwrites or mixes with another.
 */
export const claimRecordingDir = (dir: string): void => {
  try {
    makeDirs(dirname(dir))
    mkdirSync(dir)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw ioError(`cannot create ${dir}`, e)
    let entries: string[]
    try {
      entries = readdirSync(dir)
    } catch (e2) {
      throw ioError(`${dir} exists and cannot be read`, e2)
    }
    if (entries.length > 0)
      throw new PsError('PS_RECORDING_EXISTS', `${dir} already exists and is not empty: choose a new recording directory`)
  }
}

export class RecordingWriter {
  private fd: number | undefined
  private segment = 1
  private segmentBytesUsed = 0
  private total = 0
  private lastAt: number | null = null
  private readonly byType: Partial<Record<RecordType, number>> = {}
  private readonly seen = new Set<string>()
  private failure: PsError | undefined
  private readonly limit: number
  private readonly now: () => Date

  private constructor(
    readonly dir: string,
    private manifest: RecordingManifest,
    opts: RecordingWriterOptions,
  ) {
    this.limit = opts.segmentBytes ?? DEFAULT_SEGMENT_BYTES
    this.now = opts.now ?? (() => new Date())
    for (const w of manifest.workloads) this.seen.add(workloadKey(w))
  }

  /** Claim `dir`, write the `recording` manifest and open the first segment. */
  static create(dir: string, meta: NewRecording, opts: RecordingWriterOptions = {}): RecordingWriter {
    const name = validateRecordingName(basename(dir))
    claimRecordingDir(dir)
    const now = opts.now ?? (() => new Date())
    const manifest: RecordingManifest = {
      format: RECORDING_FORMAT,
      formatVersion: RECORDING_FORMAT_VERSION,
      pcieScopeVersion: packageVersion(),
      name,
      status: 'recording',
      note: null,
      source: meta.source,
      path: meta.path,
      writer: { host: hostname(), pid: process.pid },
      probe: { ...meta.probe },
      link: meta.link ? { ...meta.link } : null,
      workloads: dedupe(meta.workloads ?? []),
      runs: 0,
      startedAt: now().toISOString(),
      stoppedAt: null,
      sealed: { segments: 0, records: 0, lastAt: null, byType: {} },
    }
    const w = new RecordingWriter(dir, manifest, opts)
    writeManifest(dir, manifest)
    w.openSegment()
    return w
  }

  get name(): string {
    return this.manifest.name
  }

  /** records appended so far */
  get records(): number {
    return this.total
  }

  get closed(): boolean {
    return this.manifest.status !== 'recording'
  }

  /** Append one record; throws PS_RECORDING_IO (and keeps refusing) once a write has failed. */
  append(r: AnyRecord): void {
    if (this.failure) throw this.failure
    if (this.closed) throw new PsError('PS_RECORDING_IO', `recording ${this.name} is closed`)
    const line = Buffer.from(JSON.stringify(r) + '\n', 'utf8')
    try {
      if (this.segmentBytesUsed > 0 && this.segmentBytesUsed + line.length > this.limit) this.roll()
      writeAll(this.fd!, line)
    } catch (e) {
      this.failure = e instanceof PsError ? e : ioError(`cannot write to recording ${this.dir}`, e)
      throw this.failure
    }
    this.segmentBytesUsed += line.length
    this.total++
    this.byType[r.t] = (this.byType[r.t] ?? 0) + 1
    this.lastAt = r.at
    if (r.t === 'run-start') this.noteRun(r.workload)
  }

  /**
   * Seal the last segment and mark the recording complete (or interrupted, with why). A recording
   * whose writes failed, or whose last segment cannot be synced, is closed as interrupted.
   * Idempotent.
   */
  close(status: 'complete' | 'interrupted' = 'complete', note: string | null = null): void {
    if (this.closed) return
    let sealError: PsError | undefined
    try {
      this.sealSegment()
    } catch (e) {
      sealError = e instanceof PsError ? e : ioError(`cannot close recording ${this.dir}`, e)
    }
    const failed = this.failure ?? sealError
    this.manifest = {
      ...this.manifest,
      ...(failed ? { status: 'interrupted', note: note ?? `recording failed: ${failed.message}` } : { status, note }),
      stoppedAt: this.now().toISOString(),
      sealed: this.progress(this.segment),
    }
    writeManifest(this.dir, this.manifest)
    if (sealError) throw sealError
  }

  private progress(segments: number): RecordingManifest['sealed'] {
    return { segments, records: this.total, lastAt: this.lastAt, byType: { ...this.byType } }
  }

  private noteRun(w: AnyWorkload): void {
    this.manifest.runs++
    const key = workloadKey(w)
    if (!this.seen.has(key) && this.manifest.workloads.length < MAX_MANIFEST_WORKLOADS) {
      this.seen.add(key)
      this.manifest.workloads.push({ ...w })
    }
  }

  private openSegment(): void {
    const file = join(this.dir, segmentName(this.segment))
    try {
      this.fd = openSync(file, 'a')
    } catch (e) {
      throw ioError(`cannot open ${file}`, e)
    }
    this.segmentBytesUsed = 0
    syncDir(this.dir) // the new file's directory entry
  }

  private sealSegment(): void {
    const fd = this.fd
    if (fd === undefined) return
    this.fd = undefined
    try {
      fsyncSync(fd)
    } catch (e) {
      throw ioError(`cannot sync ${segmentName(this.segment)} of ${this.dir}`, e)
    } finally {
      closeSync(fd)
    }
  }

  private roll(): void {
    this.sealSegment()
    this.manifest = { ...this.manifest, sealed: this.progress(this.segment) }
    writeManifest(this.dir, this.manifest)
    this.segment++
    this.openSegment()
  }
}

const writeAll = (fd: number, buf: Buffer): void => {
  for (let off = 0; off < buf.length;) off += writeSync(fd, buf, off, buf.length - off)
}

const dedupe = (ws: AnyWorkload[]): AnyWorkload[] => {
  const byKey = new Map<string, AnyWorkload>()
  for (const w of ws) if (!byKey.has(workloadKey(w))) byKey.set(workloadKey(w), { ...w })
  return [...byKey.values()].slice(0, MAX_MANIFEST_WORKLOADS)
}
