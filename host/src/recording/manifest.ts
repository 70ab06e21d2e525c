/**
 * manifest.json: written whole to a temporary file, fsynced and renamed over the old one, so a
 * reader (or a crash) sees either the previous manifest or the new one, never half of either.
 * Whether a recording in status `recording` still has a writer is judged from the writer's host and pid.
 */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { PsError } from '../core/errors.js'
import { MANIFEST_FILE, ManifestSchema, type RecordingManifest, type RecordingStatus } from './format.js'

const ioError = (what: string, e: unknown): PsError =>
  new PsError('PS_RECORDING_IO', `${what}: ${e instanceof Error ? e.message : String(e)}`, { cause: e })

/** Write the manifest atomically (temp file + fsync + rename + fsync of the directory). */
export const writeManifest = (dir: string, m: RecordingManifest): void => {
  const target = join(dir, MANIFEST_FILE)
  const temp = join(dir, `.${MANIFEST_FILE}.${process.pid}.tmp`)
  try {
    const fd = openSync(temp, 'w')
    try {
      writeSync(fd, JSON.stringify(m, null, 2) + '\n')
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(temp, target)
    syncDir(dir)
  } catch (e) {
    throw ioError(`cannot write ${target}`, e)
  }
}

/** The rename is durable only once the directory entry is: fsync the directory (where the OS allows). */
export const syncDir = (dir: string): void => {
  let fd: number | undefined
  try {
    fd = openSync(dir, 'r')
    fsyncSync(fd)
  } catch {
    // some filesystems refuse fsync on a directory; the data files are synced regardless
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** Read and check a recording's manifest: PS_RECORDING_NOT_FOUND without one, PS_RECORDING_CORRUPT if unreadable. */
export const readManifest = async (dir: string): Promise<RecordingManifest> => {
  const file = join(dir, MANIFEST_FILE)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new PsError('PS_RECORDING_NOT_FOUND', `no recording at ${dir} (no ${MANIFEST_FILE})`)
    throw ioError(`cannot read ${file}`, e)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw new PsError('PS_RECORDING_CORRUPT', `${file} is not JSON: ${e instanceof Error ? e.message : String(e)}`)
  }
  const r = ManifestSchema.safeParse(json)
  if (!r.success) {
    const why = r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')
    throw new PsError('PS_RECORDING_CORRUPT', `${file} is not a pcie-scope recording manifest: ${why}`)
  }
  return r.data
}

/** Whether a process id is alive on this machine (EPERM: alive, owned by someone else). */
const pidAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The status a reader reports: a `recording` manifest whose writer process is gone (killed,
 * crashed, power lost) is `interrupted`. A writer on another host cannot be checked, so its
 * recording stays `recording`; a reused pid keeps a dead recording `recording` until it exits.
 */
export const effectiveStatus = (m: RecordingManifest, self = { host: hostname() }): { status: RecordingStatus; note: string | null } => {
  if (m.status !== 'recording') return { status: m.status, note: m.note }
  if (m.writer.host !== self.host || pidAlive(m.writer.pid)) return { status: 'recording', note: m.note }
  return { status: 'interrupted', note: `the writer (pid ${m.writer.pid} on ${m.writer.host}) ended without closing the recording` }
}
