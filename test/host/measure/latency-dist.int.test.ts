/**
 * The twin's completion latency drawn per read (`--latency-dist uniform:LO:HI`, needs
 * `npm run build:twin`): the responder's LFSR spreads last-completion latencies over LO..HI,
 * the probe's histogram shows the spread, Little's law still holds on the probe's own numbers,
 * and the fixed seed makes two runs alike. In both designs: the switch's host model (the twin's
 * default) draws from the same LFSR as the BAR responder of --mode endpoint.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openSession, type DeviceSession } from '../../../host/src/device/session.js'
import { measureRun } from '../../../host/src/measure/run.js'
import { TWIN_MODES, type TwinMode } from '../../../host/src/core/twin-mode.js'

const twinBuilt = existsSync(fileURLToPath(new URL('../../../build/twin/pcie-scope-twin', import.meta.url)))
// slack for the link's serialisation after the longest draw
const LINK_NS = 512

const sessions: DeviceSession[] = []
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()))
})
const strided = async (latencyDist: string, mode: TwinMode) => {
  const s = await openSession({ twin: true, twinOptions: { latencyDist, mode } })
  sessions.push(s)
  return measureRun(s, { pattern: 'strided', bytes: 1 << 20, offset: 0 })
}

describe.each(TWIN_MODES)('twin completion latency from a distribution (--mode %s)', (mode) => {
  beforeAll(() => {
    if (!twinBuilt) throw new Error('the twin is not built: run `npm run build:twin`')
  })

  it('uniform:1000:3000 spreads the latencies over the range (skewed high by in-order completion), and Little’s law still holds', async () => {
    const r = await strided('uniform:1000:3000', mode)
    expect(r.twinMode).toBe(mode)
    const last = r.latencyNs.last
    expect(last.count).toBe(r.requests.count)
    expect(last.min!).toBeGreaterThanOrEqual(1000)
    // completions leave in request order: a short draw can wait behind a long one, never less
    expect(last.max!).toBeLessThanOrEqual(3000 + LINK_NS)
    // the responder completes in request order, so a read also waits for the longest draw still
    // ahead of it: the median sits above the draws' own median (2000 ns), below HI
    expect(last.p50!).toBeGreaterThan(2000)
    expect(last.p50!).toBeLessThanOrEqual(3000)
    expect(last.min!).toBeLessThan(2000)
    // more than a handful of bins hold reads: a spread, not one fixed latency
    expect(r.latencyHistograms.last!.bins.filter((n) => n > 0).length).toBeGreaterThan(5)
    expect(Math.abs(r.littlesLaw!.errorPercent)).toBeLessThan(2)
    // the switch: the host side sees the host model's draws without the switch's traversal
    if (mode === 'switch') {
      const host = r.hostSide!.latencyNs.last
      expect(host.min!).toBeGreaterThanOrEqual(1000)
      expect(host.mean!).toBeLessThan(last.mean!)
      expect(r.hostSide!.latencyHistograms.last!.bins.filter((n) => n > 0).length).toBeGreaterThan(5)
    } else expect(r.hostSide).toBeUndefined()
  })

  it('repeats: the same distribution gives the same histogram; fixed gives one bin', async () => {
    const a = await strided('uniform:1000:3000', mode)
    const b = await strided('uniform:1000:3000', mode)
    expect(b.latencyHistograms.last!.bins).toEqual(a.latencyHistograms.last!.bins)
    expect(b.latencyHistograms.first!.bins).toEqual(a.latencyHistograms.first!.bins)
    const fixed = await strided('fixed', mode)
    expect(fixed.latencyHistograms.last!.bins.filter((n) => n > 0)).toHaveLength(1)
  })
})
