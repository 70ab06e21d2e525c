/**
 * measureRun with the interval sampler and the address filter, against the real twin (needs
 * `npm run build:twin`): the probe's records, drained by the firmware and carried in INTERVAL
 * frames, add up to the snapshot's counters; a window over half of the buffer counts half the reads.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openSession, type DeviceSession } from '../../../host/src/device/session.js'
import { measureRun } from '../../../host/src/measure/run.js'
import { measureAndRecord } from '../../../host/src/measure/recorded-run.js'
import { readRecords } from '../../../host/src/recording/reader.js'

const twinBuilt = existsSync(fileURLToPath(new URL('../../../build/twin/pcie-scope-twin', import.meta.url)))
// the twin's GPU buffer (native/twin/main.cpp): above 4 GiB, so reads carry 4-DW headers
const BUFFER_BASE = 2 ** 32
const PERIOD = 2000 // clocks: 8 us at 250 MHz

const sessions: DeviceSession[] = []
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()))
})
const open = async () => {
  const s = await openSession({ twin: true })
  sessions.push(s)
  return s
}

describe('measureRun on the twin: interval sampler and address filter', () => {
  beforeAll(() => {
    if (!twinBuilt) throw new Error('the twin is not built: run `npm run build:twin`')
  })

  it('interval records add up to the snapshot, less at most the open interval', async () => {
    const s = await open()
    const r = await measureRun(s, { pattern: 'merged-aligned', bytes: 1 << 20, offset: 0 }, { samplePeriodCycles: PERIOD })
    const iv = r.intervals!
    expect(iv.periodCycles).toBe(PERIOD)
    expect(iv.periodNs).toBe(8000)
    expect(iv.dropped).toBe(0)
    expect(iv.overflow).toBe(0)
    // every closed interval arrived: as many as whole periods fit the enabled window
    expect(iv.count).toBe(Math.floor(r.cycles / PERIOD))
    for (const [i, rec] of iv.records.entries()) {
      expect(rec.cycles).toBe(PERIOD)
      if (i > 0) expect(rec.ts - iv.records[i - 1]!.ts).toBe(PERIOD)
      expect(rec.occPeak).toBeLessThanOrEqual(r.outstanding.peak)
    }
    // the records cover the window up to the open interval: its reads are the only ones missing
    expect(iv.records.at(-1)!.ts).toBeLessThanOrEqual(r.probeWindow.to)
    expect(r.probeWindow.to - iv.records.at(-1)!.ts).toBeLessThan(PERIOD)
    expect(iv.totals.mrdCount).toBeLessThanOrEqual(r.requests.count)
    const openCycles = r.cycles - iv.count * PERIOD
    const perCycle = r.requests.count / r.cycles
    expect(r.requests.count - iv.totals.mrdCount).toBeLessThanOrEqual(Math.ceil(perCycle * openCycles * 1.5) + 16)
    expect(iv.totals.mrdBytes).toBe(iv.totals.mrdCount * 128)
    // the probe's info registers came along
    expect(r.linkInfo).toMatchObject({ mps: 256, tagBits: 8, clockHz: 250_000_000, samplePeriodCycles: PERIOD, filterEnabled: false })
  })

  it('a filter window over the first half of the buffer counts half the reads, and no unexpected completion', async () => {
    const s = await open()
    const bytes = 1 << 20
    const filter = { base: BUFFER_BASE, limit: BUFFER_BASE + bytes / 2 - 1 }
    const r = await measureRun(s, { pattern: 'merged-aligned', bytes, offset: 0 }, { samplePeriodCycles: PERIOD, filter })
    expect(r.model.issued.count).toBe(bytes / 128)
    expect(r.requests.count).toBe(bytes / 128 / 2)
    expect(r.bytes.requested).toBe(bytes / 2)
    // the completions of the filtered-out reads are neither tracked nor unexpected
    expect(r.completions.unexpected).toBe(0)
    expect(r.completions.timeouts).toBe(0)
    // probe_counters' CPLD_COUNT is the wire's: every read's completion
    expect(r.completions.count).toBe(bytes / 128)
    // the sampler sees the filtered stream
    expect(r.intervals!.totals.mrdCount).toBeLessThanOrEqual(r.requests.count)
    expect(r.intervals!.totals.cpldCount).toBeLessThanOrEqual(r.requests.count)
    expect(r.linkInfo).toMatchObject({ filterEnabled: true, filterBase: filter.base, filterLimit: filter.limit })
  })

  it('a recorded recording keeps every interval record, the result reports those of its window', async () => {
    const s = await open()
    const root = mkdtempSync(join(tmpdir(), 'ps-iv-'))
    try {
      const dir = join(root, 'cap')
      const rc = await measureAndRecord(s, { pattern: 'strided', bytes: 256 * 1024, offset: 0 }, dir, { samplePeriodCycles: PERIOD })
      expect(rc.recordingError).toBeUndefined()
      let stored = 0
      for await (const r of readRecords(dir)) if (r.t === 'interval') stored += r.batch.records.length
      expect(rc.result.intervals!.count).toBeGreaterThan(0)
      // the recording keeps them all, also those that closed after the final snapshot
      expect(stored).toBe(rc.result.intervals!.count + rc.result.intervals!.afterWindow)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
