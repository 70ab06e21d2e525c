/**
 * Where captures live and what they may be called. A capture name is one path component of safe
 * characters, so a name taken from a URL or a command line can never leave the capture root.
 */
import { isAbsolute, join, resolve } from 'node:path'
import { PsError } from '../core/errors.js'

/** Letters, digits, `.`, `_`, `-`; starts with a letter or digit (so never `.`, `..` or `-x`). */
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/
/** the same rule as a pattern string (OpenAPI) */
export const CAPTURE_NAME_PATTERN = NAME_RE.source

export const isValidCaptureName = (name: string): boolean => NAME_RE.test(name)

export const validateCaptureName = (name: string): string => {
  if (!isValidCaptureName(name)) {
    throw new PsError(
      'PS_CAPTURE_NAME_INVALID',
      `invalid capture name ${JSON.stringify(name.slice(0, 200))}: use 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit (no '/', no '..')`,
    )
  }
  return name
}

/** The root the CLI and the server use: $PCIE_SCOPE_CAPTURES, else `captures/` in the current directory. */
export const defaultCaptureRoot = (env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string => {
  const fromEnv = env['PCIE_SCOPE_CAPTURES']
  return resolve(cwd, fromEnv !== undefined && fromEnv !== '' ? fromEnv : 'captures')
}

/** The directory of a named capture under a root (the name checked first). */
export const captureDirOf = (root: string, name: string): string => join(root, validateCaptureName(name))

/**
 * A CLI argument naming a capture: with a `/` (or absolute) it is a path the user chose, as a
 * shell path would be; otherwise it is a name under the root, checked like any name.
 */
export const resolveCaptureArg = (arg: string, root: string, cwd: string = process.cwd()): string =>
  isAbsolute(arg) || arg.includes('/') ? resolve(cwd, arg) : captureDirOf(root, arg)

/** `PREFIX-YYYYMMDD-HHMMSS` in UTC: sorts by time, and is a valid name for any valid prefix. */
export const timestampedName = (prefix: string, when: Date): string => {
  const iso = when.toISOString() // 2025-01-31T12:34:56.789Z
  return validateCaptureName(`${prefix}-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`)
}
