/**
 * VCD export, read back by an independent reader: GTKWave's vcd2fst parses the file into FST and
 * fst2vcd dumps it again; the values a viewer would show are checked against the recording.
 */
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openRecording } from '../../../host/src/recording/catalog.js'
import { exportRecording } from '../../../host/src/export/formats.js'
import { timescaleFor } from '../../../host/src/export/vcd.js'
import type { RecordingWriter } from '../../../host/src/recording/writer.js'
import { CLOCK_HZ, newWriter, removeRoots, tempRoot, writeIntervals, writeRun } from '../recording/fixtures.js'

afterEach(removeRoots)

const tool = (cmd: string, args: string[]): string => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 60_000 })
  if (r.error) throw new Error(`${cmd} did not run (apt-get install gtkwave): ${r.error.message}`)
  expect(r.status, `${cmd} ${args.join(' ')}: ${r.stderr}`).toBe(0)
  return r.stdout
}

interface Dump {
  timescale: string
  /** time → signal name → value (a number; vectors parsed from binary) */
  changes: Map<number, Map<string, number>>
}

/** What GTKWave read: the file through vcd2fst, dumped back by fst2vcd. */
const readWithGtkwave = (vcd: string): Dump => {
  const fst = vcd.replace(/\.vcd$/, '.fst')
  tool('vcd2fst', [vcd, fst])
  const text = tool('fst2vcd', [fst])
  const names = new Map<string, string>()
  for (const m of text.matchAll(/\$var \S+ \d+ (\S+) (\S+)/g)) names.set(m[1]!, m[2]!)
  const changes = new Map<number, Map<string, number>>()
  let now = -1
  for (const line of text.slice(text.indexOf('$enddefinitions')).split('\n')) {
    if (line.startsWith('#')) changes.set((now = Number(line.slice(1))), new Map())
    else if (/^[br]\S+ \S+$/.test(line)) {
      const [v, id] = line.split(' ') as [string, string]
      changes.get(now)!.set(names.get(id)!, v[0] === 'b' ? parseInt(v.slice(1), 2) : Number(v.slice(1)))
    } else if (/^[01xz]\S$/.test(line)) changes.get(now)!.set(names.get(line[1]!)!, line[0] === '1' ? 1 : 0)
  }
  return { timescale: /\$timescale\s+(\S+)/.exec(text)![1]!, changes }
}

const exported = async (build: (w: RecordingWriter) => void): Promise<string> => {
  const dir = join(tempRoot(), 'vcd')
  const w = newWriter(dir)
  build(w)
  w.close()
  let s = ''
  for await (const c of exportRecording(await openRecording(dir), 'vcd')) s += c
  const file = join(tempRoot(), 'samples.vcd')
  writeFileSync(file, s)
  return file
}

describe('VCD export', () => {
  it('takes the timescale from the probe clock: the largest VCD unit that divides its period', () => {
    expect(timescaleFor(250e6)).toEqual({ text: '1 ns', perClock: 4 })
    expect(timescaleFor(100e6)).toEqual({ text: '10 ns', perClock: 1 })
    expect(timescaleFor(125e6)).toEqual({ text: '1 ns', perClock: 8 })
    expect(timescaleFor(156.25e6)).toEqual({ text: '100 ps', perClock: 64 })
  })

  it('GTKWave reads every interval sample at its start, valid over the run, values as recorded', async () => {
    let samples: ReturnType<typeof writeIntervals> = []
    const file = await exported((w) => {
      writeRun(w)
      samples = writeIntervals(w)
    })
    const dump = readWithGtkwave(file)
    expect(dump.timescale).toBe('1ns')
    const ns = 1e9 / CLOCK_HZ
    samples.forEach((s, i) => {
      const at = dump.changes.get((s.ts - s.cycles) * ns)
      expect(at, `sample ${i}`).toBeDefined()
      expect(at!.get('valid')).toBe(1)
      expect(at!.get('mrd_count')).toBe(s.mrdCount)
      expect(at!.get('mrd_bytes')).toBe(s.mrdBytes)
      expect(at!.get('cpld_bytes')).toBe(s.cpldBytes)
      expect(at!.get('outstanding_peak')).toBe(s.occPeak)
      expect(at!.get('outstanding_avg')).toBeCloseTo(s.occSum / s.cycles, 9)
      expect(at!.get('latency_avg_ns')).toBeCloseTo((s.latSum / s.latCount) * ns, 6)
      expect(at!.get('latency_count')).toBe(s.latCount)
    })
    expect(dump.changes.get(samples.at(-1)!.ts * ns)?.get('valid')).toBe(0)
  })

  it('marks records lost between two samples with valid = 0, and keeps time going on a probe reset', async () => {
    const rec = (ts: number, mrdCount: number) => ({
      ts,
      cycles: 1000,
      mrdCount,
      mrdBytes: mrdCount * 64,
      cpldCount: 0,
      cpldBytes: 0,
      occSum: 0,
      occPeak: 0,
      latSum: 0,
      latCount: 0,
    })
    const batch = (seq: number, records: ReturnType<typeof rec>[]) => ({
      t: 'interval' as const,
      at: 1_700_000_000_000 + seq,
      batch: { seq, firstIndex: seq * 10, dropped: 0, overflow: 0, records, receivedAt: 1_700_000_000_000 + seq },
    })
    const file = await exported((w) => {
      w.append(batch(1, [rec(2000, 1), rec(3000, 2)]))
      w.append(batch(2, [rec(6000, 3)])) // 4000..5000 lost
      w.append(batch(3, [rec(1000, 4)])) // the probe was reset: TIMESTAMP starts again
    })
    const d = readWithGtkwave(file)
    const at = (t: number) => Object.fromEntries(d.changes.get(t * 4) ?? [])
    expect(at(1000)).toMatchObject({ valid: 1, mrd_count: 1 })
    expect(at(2000)).toMatchObject({ mrd_count: 2 })
    expect(at(3000)).toMatchObject({ valid: 0 })
    expect(at(5000)).toMatchObject({ valid: 1, mrd_count: 3 })
    expect(at(6000)).toMatchObject({ mrd_count: 4 }) // after the reset, carried on from 6000
    expect(at(7000)).toMatchObject({ valid: 0 })
    expect([...d.changes.keys()]).toEqual([...d.changes.keys()].sort((a, b) => a - b))
  })

  it('a recording without interval records is refused with PS_RECORDING_NO_INTERVALS, not exported as a header alone', async () => {
    await expect(exported((w) => void writeRun(w))).rejects.toMatchObject({ code: 'PS_RECORDING_NO_INTERVALS' })
    await expect(exported((w) => void writeRun(w))).rejects.toThrow(/--sample-us/)
  })
})
