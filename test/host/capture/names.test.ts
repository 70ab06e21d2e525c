import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  captureDirOf,
  defaultCaptureRoot,
  isValidCaptureName,
  resolveCaptureArg,
  timestampedName,
  validateCaptureName,
} from '../../../host/src/capture/names.js'

describe('capture names', () => {
  it('refuses anything that could leave the capture root', () => {
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
      expect(isValidCaptureName(bad), JSON.stringify(bad)).toBe(false)
      expect(() => validateCaptureName(bad)).toThrow(expect.objectContaining({ code: 'PS_CAPTURE_NAME_INVALID' }))
    }
  })
  it('accepts plain names', () => {
    for (const ok of ['run1', 'serve-20250101-120000', 'a.b_c-d', 'x'.repeat(128), 'a..b']) expect(validateCaptureName(ok)).toBe(ok)
  })
  it('joins only checked names to the root', () => {
    expect(captureDirOf('/r', 'cap')).toBe(join('/r', 'cap'))
    expect(() => captureDirOf('/r', '../etc')).toThrow(expect.objectContaining({ code: 'PS_CAPTURE_NAME_INVALID' }))
  })
  it('a CLI argument with a slash is a path; without one it is a checked name under the root', () => {
    expect(resolveCaptureArg('cap', '/root', '/cwd')).toBe('/root/cap')
    expect(resolveCaptureArg('./cap', '/root', '/cwd')).toBe('/cwd/cap')
    expect(resolveCaptureArg('/tmp/x/cap', '/root', '/cwd')).toBe('/tmp/x/cap')
    expect(() => resolveCaptureArg('..', '/root', '/cwd')).toThrow(expect.objectContaining({ code: 'PS_CAPTURE_NAME_INVALID' }))
  })
  it('the root is $PCIE_SCOPE_CAPTURES, else captures/ in the current directory', () => {
    expect(defaultCaptureRoot({}, '/work')).toBe('/work/captures')
    expect(defaultCaptureRoot({ PCIE_SCOPE_CAPTURES: 'rec' }, '/work')).toBe(resolve('/work/rec'))
    expect(defaultCaptureRoot({ PCIE_SCOPE_CAPTURES: '/data/rec' }, '/work')).toBe('/data/rec')
  })
  it('timestamped names sort by time', () => {
    expect(timestampedName('serve', new Date('2025-01-02T03:04:05.678Z'))).toBe('serve-20250102-030405')
  })
})
