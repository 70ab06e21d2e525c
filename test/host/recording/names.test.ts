import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  recordingDirOf,
  defaultRecordingsDir,
  isValidRecordingName,
  resolveRecordingArg,
  timestampedName,
  validateRecordingName,
} from '../../../host/src/recording/names.js'

describe('recording names', () => {
  it('refuses anything that could leave the recordings folder', () => {
    for (const bad of [
      '..',
      '.',
      '../x',
      'x/..',
      'a/b',
      '/etc',
      '/',
      '',
      'a\\b',
      '..\\x',
      'a\0b',
      '.hidden',
      '-rf',
      'x'.repeat(129),
      'sp ace',
    ]) {
      expect(isValidRecordingName(bad), JSON.stringify(bad)).toBe(false)
      expect(() => validateRecordingName(bad)).toThrow(expect.objectContaining({ code: 'PS_RECORDING_NAME_INVALID' }))
    }
  })
  it('accepts plain names', () => {
    for (const ok of ['run1', 'serve-20250101-120000', 'a.b_c-d', 'x'.repeat(128), 'a..b']) expect(validateRecordingName(ok)).toBe(ok)
  })
  it('joins only checked names to the root', () => {
    expect(recordingDirOf('/r', 'cap')).toBe(join('/r', 'cap'))
    expect(() => recordingDirOf('/r', '../etc')).toThrow(expect.objectContaining({ code: 'PS_RECORDING_NAME_INVALID' }))
  })
  it('a CLI argument with a slash is a path; without one it is a checked name under the root', () => {
    expect(resolveRecordingArg('cap', '/root', '/cwd')).toBe('/root/cap')
    expect(resolveRecordingArg('./cap', '/root', '/cwd')).toBe('/cwd/cap')
    expect(resolveRecordingArg('/tmp/x/cap', '/root', '/cwd')).toBe('/tmp/x/cap')
    expect(() => resolveRecordingArg('..', '/root', '/cwd')).toThrow(expect.objectContaining({ code: 'PS_RECORDING_NAME_INVALID' }))
  })
  it('the root is $PCIE_SCOPE_RECORDINGS, else recordings/ in the current directory', () => {
    expect(defaultRecordingsDir({}, '/work')).toBe('/work/recordings')
    expect(defaultRecordingsDir({ PCIE_SCOPE_RECORDINGS: 'rec' }, '/work')).toBe(resolve('/work/rec'))
    expect(defaultRecordingsDir({ PCIE_SCOPE_RECORDINGS: '/data/rec' }, '/work')).toBe('/data/rec')
  })
  it('timestamped names sort by time', () => {
    expect(timestampedName('serve', new Date('2025-01-02T03:04:05.678Z'))).toBe('serve-20250102-030405')
  })
})
