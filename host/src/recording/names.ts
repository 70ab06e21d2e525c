/**
 * Where recordings live and what they may be called. A recording name is one path component of safe
 * characters, so a name taken from a URL or a command line can never leave the recordings folder.
 */
import { isAbsolute, join, resolve } from 'node:path'
import { PsError } from '../core/errors.js'

/** Letters, digits, `.`, `_`, `-`; starts with a letter or digit (so never `.`, `..` or `-x`). */
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/
/** the same rule as a pattern string (OpenAPI) */
export const RECORDING_NAME_PATTERN = NAME_RE.source

export const isValidRecordingName = (name: string): boolean => NAME_RE.test(name)

export const validateRecordingName = (name: string): string => {
  if (!isValidRecordingName(name)) {
    throw new PsError(
      'PS_RECORDING_NAME_INVALID',
      `invalid recording name ${JSON.stringify(name.slice(0, 200))}: use 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit (no '/', no '..')`,
    )
  }
  return name
}

/** The recordings folder the CLI and the server use: $PCIE_SCOPE_RECORDINGS, else `recordings/` in the current directory. */
export const defaultRecordingsDir = (env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string => {
  const fromEnv = env['PCIE_SCOPE_RECORDINGS']
  return resolve(cwd, fromEnv !== undefined && fromEnv !== '' ? fromEnv : 'recordings')
}

/** The directory of a named recording under a root (the name checked first). */
export const recordingDirOf = (root: string, name: string): string => join(root, validateRecordingName(name))

/**
 * A CLI argument naming a recording: with a `/` (or absolute) it is a path the user chose, as a
 * shell path would be; otherwise it is a name under the root, checked like any name.
 */
export const resolveRecordingArg = (arg: string, root: string, cwd: string = process.cwd()): string =>
  isAbsolute(arg) || arg.includes('/') ? resolve(cwd, arg) : recordingDirOf(root, arg)

/** `PREFIX-YYYYMMDD-HHMMSS` in UTC: sorts by time, and is a valid name for any valid prefix. */
export const timestampedName = (prefix: string, when: Date): string => {
  const iso = when.toISOString() // 2025-01-31T12:34:56.789Z
  return validateRecordingName(`${prefix}-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`)
}
