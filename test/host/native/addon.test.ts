import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { addonPath, isNativeError, loadAddon, NATIVE_BUILD_COMMAND } from '../../../host/src/native/addon.js'

describe('loadAddon', () => {
  it('names the build command when the addon is missing', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ps-addon-')), 'missing.node')
    expect(() => loadAddon(path)).toThrow(expect.objectContaining({ code: 'PS_NATIVE_NOT_BUILT', message: expect.stringContaining(NATIVE_BUILD_COMMAND) }))
  })
  it('says a file that is not an addon does not load', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ps-addon-')), 'broken.node')
    writeFileSync(path, 'not an ELF file')
    expect(() => loadAddon(path)).toThrow(expect.objectContaining({ code: 'PS_NATIVE_NOT_BUILT', message: expect.stringMatching(/does not load/) }))
  })
  it('looks for the addon where scripts/build-native.mjs puts it', () => {
    expect(addonPath()).toMatch(/build[\\/]addon[\\/]Release[\\/]pcie_scope_native\.node$/)
  })
})

describe('isNativeError', () => {
  it('recognises an Error with a PS_ code only', () => {
    expect(isNativeError(Object.assign(new Error('x'), { code: 'PS_GPU_CUDA' }))).toBe(true)
    expect(isNativeError(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe(false)
    expect(isNativeError({ code: 'PS_GPU_CUDA' })).toBe(false)
  })
})
