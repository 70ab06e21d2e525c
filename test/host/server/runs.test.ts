import { describe, expect, it } from 'vitest'
import { nextDemoBytes } from '../../../host/src/server/runs.js'

describe('demo sizing', () => {
  it('keeps a 1–3 s run, else scales towards 2 s (×¼ … ×8 per step) within bounds', () => {
    expect(nextDemoBytes(1 << 20, 1.2)).toBe(1 << 20)
    expect(nextDemoBytes(1 << 20, 2.9)).toBe(1 << 20)
    expect(nextDemoBytes(1 << 20, 0.5)).toBe(4 << 20)
    expect(nextDemoBytes(1 << 20, 0.001)).toBe(8 << 20)
    expect(nextDemoBytes(1 << 20, 8)).toBe(256 << 10)
    expect(nextDemoBytes(4096, 100)).toBe(4096)
    expect(nextDemoBytes(256 << 20, 0.1)).toBe(256 << 20)
    expect(nextDemoBytes(1 << 20, 0.7) % 4096).toBe(0)
  })
})
