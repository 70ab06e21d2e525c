import { describe, expect, it } from 'vitest'
import { createProgressBar } from '../../../host/src/cli/progress-bar.js'

describe('createProgressBar', () => {
  it('redraws one line in place and erases it', () => {
    let out = ''
    const bar = createProgressBar((s) => (out += s), true, 4)
    bar.update(1, 'strided')
    expect(out).toBe('\r\x1b[2K[######------------------] 1/4 strided')
    bar.update(4, 'done')
    expect(out.endsWith('[########################] 4/4 done')).toBe(true)
    bar.clear()
    expect(out.endsWith('\r\x1b[2K')).toBe(true)
  })
  it('writes nothing when disabled (not a terminal, or --json)', () => {
    let out = ''
    const bar = createProgressBar((s) => (out += s), false, 4)
    bar.update(1, 'x')
    bar.clear()
    expect(out).toBe('')
  })
})
