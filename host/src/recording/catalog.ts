/**
 * What is recorded where: a summary per recording (for `ls` and GET /api/recordings) and a full
 * description of one (for `info` and GET /api/recordings/:name).
 *
 * A summary trusts a closed manifest and reads only what a live or dead writer has not sealed
 * yet (at most one segment, 4 MiB, past the last roll); a description reads every record.
 */
import { readdir } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { isPsError, PsError, type PsErrorCode } from '../core/errors.js'
import { workloadKey, type AnyWorkload } from '../core/workload.js'
import { RECORD_TYPES, type RecordingManifest, type RecordingStatus, type RecordType } from './format.js'
import { effectiveStatus, readManifest } from './manifest.js'
import { isValidRecordingName } from './names.js'
import { newReadStats, readRecords, type ReadStats } from './reader.js'

/** A recording as opened for reading: its manifest and the status a reader reports. */
export interface OpenedRecording {
  dir: string
  manifest: RecordingManifest
  status: RecordingStatus
  note: string | null
}

export const openRecording = async (dir: string): Promise<OpenedRecording> => {
  const manifest = await readManifest(dir)
  return { dir, manifest, ...effectiveStatus(manifest) }
}

export interface RecordingSummary {
  name: string
  dir: string
  status: RecordingStatus
  note: string | null
  source: 'twin' | 'serial'
  startedAt: string
  stoppedAt: string | null
  /** host seconds from the start to the stop, or to the last record while recording or after a crash */
  durationSeconds: number | null
  records: number
  runs: number
  workloads: AnyWorkload[]
  /**
   * its records by type (which exports it can give: pcapng needs frames, VCD interval or GPU
   * counter records); null for a recording written before manifests counted them
   */
  contents: Partial<Record<RecordType, number>> | null
  /** torn last lines met while reading for this summary */
  torn: number
}

export interface RecordingDescription extends RecordingSummary {
  manifest: RecordingManifest
  byType: Record<RecordType, number>
  read: ReadStats
  /** span of the snapshots' TIMESTAMP in probe seconds (simulated on the twin), null without snapshots */
  probeTime: { firstSeconds: number; lastSeconds: number } | null
}

const secondsBetween = (startIso: string, endMs: number | null): number | null => {
  const start = Date.parse(startIso)
  return endMs === null || Number.isNaN(start) ? null : Math.max(0, (endMs - start) / 1000)
}

const stoppedMs = (m: RecordingManifest): number | null => (m.stoppedAt === null ? null : Date.parse(m.stoppedAt))

/** What reading records adds to a manifest's figures. */
interface Tally {
  /** the records by type so far, null where a manifest did not count them */
  contents: Partial<Record<RecordType, number>> | null
  records: number
  runs: number
  workloads: Map<string, AnyWorkload>
  lastAt: number | null
  byType: Record<RecordType, number>
  firstTs: number | null
  lastTs: number | null
}

const tally = async (c: OpenedRecording, fromSegment: number, base: Omit<Tally, 'byType' | 'firstTs' | 'lastTs'>, stats: ReadStats) => {
  const t: Tally = {
    ...base,
    byType: Object.fromEntries(RECORD_TYPES.map((k) => [k, 0])) as Record<RecordType, number>,
    firstTs: null,
    lastTs: null,
  }
  for await (const r of readRecords(c.dir, { fromSegment, stats })) {
    t.records++
    t.byType[r.t]++
    if (t.contents) t.contents[r.t] = (t.contents[r.t] ?? 0) + 1
    t.lastAt = r.at
    if (r.t === 'run-start') {
      t.runs++
      if (!t.workloads.has(workloadKey(r.workload))) t.workloads.set(workloadKey(r.workload), r.workload)
    } else if (r.t === 'snapshot') {
      t.firstTs ??= r.snapshot.counters.timestamp
      t.lastTs = r.snapshot.counters.timestamp
    }
  }
  return t
}

const summaryOf = (c: OpenedRecording, t: Omit<Tally, 'byType' | 'firstTs' | 'lastTs'>, stats: ReadStats): RecordingSummary => {
  const m = c.manifest
  return {
    name: basename(c.dir),
    dir: c.dir,
    status: c.status,
    note: c.note,
    source: m.source,
    startedAt: m.startedAt,
    stoppedAt: m.stoppedAt,
    durationSeconds: secondsBetween(m.startedAt, stoppedMs(m) ?? t.lastAt),
    records: t.records,
    runs: t.runs,
    workloads: [...t.workloads.values()],
    contents: t.contents,
    torn: stats.torn,
  }
}

const fromManifest = (m: RecordingManifest) => ({
  contents: m.sealed.byType ? { ...m.sealed.byType } : null,
  records: m.sealed.records,
  runs: m.runs,
  workloads: new Map(m.workloads.map((w) => [workloadKey(w), w])),
  lastAt: m.sealed.lastAt,
})

/** Summary of one recording: the manifest, plus the records not sealed yet when it was not closed. */
export const summarizeRecording = async (dir: string): Promise<RecordingSummary> => {
  const c = await openRecording(dir)
  const stats = newReadStats()
  if (c.manifest.status !== 'recording') return summaryOf(c, fromManifest(c.manifest), stats)
  // a run-start in the unsealed tail adds its run; the sealed part is already in the manifest
  const t = await tally(c, c.manifest.sealed.segments + 1, fromManifest(c.manifest), stats)
  return summaryOf(c, t, stats)
}

/** Everything about one recording, from reading every record; `stats` fills in as reading goes on. */
export const describeRecording = async (dir: string, stats: ReadStats = newReadStats()): Promise<RecordingDescription> => {
  const c = await openRecording(dir)
  const t = await tally(c, 0, { contents: {}, records: 0, runs: 0, workloads: new Map(), lastAt: null }, stats)
  const clockHz = c.manifest.probe.clockHz
  return {
    ...summaryOf(c, t, stats),
    manifest: c.manifest,
    byType: t.byType,
    read: stats,
    probeTime: t.firstTs === null || t.lastTs === null ? null : { firstSeconds: t.firstTs / clockHz, lastSeconds: t.lastTs / clockHz },
  }
}

export interface RecordingListing {
  root: string
  recordings: RecordingSummary[]
  /** directories under the root that could not be read as recordings, and why */
  skipped: { name: string; code: PsErrorCode; message: string }[]
}

/** Every recording directly under a folder (none when the root does not exist), oldest first. */
export const listRecordings = async (root: string): Promise<RecordingListing> => {
  let entries: { name: string; isDirectory(): boolean }[]
  try {
    entries = await readdir(root, { withFileTypes: true })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { root, recordings: [], skipped: [] }
    throw new PsError('PS_RECORDING_IO', `cannot list ${root}: ${e instanceof Error ? e.message : String(e)}`, { cause: e })
  }
  const listing: RecordingListing = { root, recordings: [], skipped: [] }
  for (const e of entries) {
    if (!e.isDirectory() || !isValidRecordingName(e.name)) continue
    try {
      listing.recordings.push(await summarizeRecording(join(root, e.name)))
    } catch (err) {
      if (!isPsError(err)) throw err
      listing.skipped.push({ name: e.name, code: err.code, message: err.message })
    }
  }
  listing.recordings.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.name.localeCompare(b.name))
  return listing
}
