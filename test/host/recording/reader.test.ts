import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { COUNTERS_SINCE_0_7, segmentName, type AnyRecord } from '../../../host/src/recording/format.js'
import { listSegments, newReadStats, parseRecordLine, readRecords } from '../../../host/src/recording/reader.js'
import { newWriter, removeRoots, snap, tempRoot, writeRun } from './fixtures.js'
import { SPEC_HISTOGRAM_LAYOUT } from '../../../host/src/core/latency-histogram.js'

afterEach(removeRoots)

const read = async (dir: string) => {
  const stats = newReadStats()
  const records: AnyRecord[] = []
  for await (const r of readRecords(dir, { stats })) records.push(r)
  return { records, stats }
}

describe('readRecords', () => {
  it('skips and counts a torn last line instead of failing', async () => {
    const dir = join(tempRoot(), 'torn')
    const w = newWriter(dir)
    writeRun(w)
    w.close()
    appendFileSync(join(dir, segmentName(1)), '{"t":"snapshot","at":1,"snapshot":{"seq":1,"ind')
    const { records, stats } = await read(dir)
    expect(records).toHaveLength(11)
    expect(stats).toMatchObject({ records: 11, torn: 1, invalid: 0, unknown: 0, segments: 1 })
  })

  it('does not take a complete record without its newline: a record exists once its newline is written', async () => {
    const dir = join(tempRoot(), 'no-newline')
    const w = newWriter(dir)
    w.append({ t: 'mark', at: 1, label: 'a', note: null })
    w.close()
    appendFileSync(join(dir, segmentName(1)), JSON.stringify({ t: 'mark', at: 2, label: 'b', note: null }))
    const { records, stats } = await read(dir)
    expect(records.map((r) => r.at)).toEqual([1])
    expect(stats.torn).toBe(1)
  })

  it('counts invalid lines and records of unknown types, and reads on past them', async () => {
    const dir = join(tempRoot(), 'mixed')
    mkdirSync(dir)
    const ok = (at: number) => JSON.stringify({ t: 'mark', at, label: 'x', note: null })
    const lines = [
      ok(1),
      'not json',
      '[1,2]',
      JSON.stringify({ t: 'snapshot', at: 2, snapshot: { seq: 1 } }), // a snapshot without counters
      JSON.stringify({ t: 'from-the-future', at: 3 }),
      '',
      ok(4),
    ]
    writeFileSync(join(dir, segmentName(1)), lines.join('\n') + '\n')
    const { records, stats } = await read(dir)
    expect(records.map((r) => r.at)).toEqual([1, 4])
    expect(stats).toMatchObject({ records: 2, invalid: 4, unknown: 1, torn: 0 })
  })

  it('reads segments in numeric order and keeps multi-byte characters split across read chunks whole', async () => {
    const dir = join(tempRoot(), 'order')
    mkdirSync(dir)
    const note = 'µ'.repeat(700_000) // 1.4 MB of two-byte characters: crosses the 1 MiB read chunk
    writeFileSync(join(dir, segmentName(10)), JSON.stringify({ t: 'mark', at: 10, label: 'ten', note }) + '\n')
    writeFileSync(join(dir, segmentName(9)), JSON.stringify({ t: 'mark', at: 9, label: 'nine', note: null }) + '\n')
    writeFileSync(join(dir, 'segment-1.jsonl'), 'ignored: not a segment name\n')
    expect((await listSegments(dir)).map((s) => s.number)).toEqual([9, 10])
    const { records } = await read(dir)
    expect(records.map((r) => r.at)).toEqual([9, 10])
    const last = records[1]
    expect(last?.t === 'mark' && last.note).toBe(note)
  })

  it('starts at a given segment', async () => {
    const dir = join(tempRoot(), 'from')
    const w = newWriter(dir, { segmentBytes: 1 })
    for (let i = 0; i < 4; i++) w.append({ t: 'snapshot', at: i, snapshot: snap(i, {}) })
    w.close()
    expect((await read(dir)).records).toHaveLength(4)
    const stats = newReadStats()
    const ats: number[] = []
    for await (const r of readRecords(dir, { fromSegment: 3, stats })) ats.push(r.at)
    expect(ats).toEqual([2, 3])
    expect(stats.segments).toBe(2)
  })

  it('says PS_RECORDING_NOT_FOUND for a directory that is not there', async () => {
    await expect(read(join(tempRoot(), 'nothing'))).rejects.toMatchObject({ code: 'PS_RECORDING_NOT_FOUND' })
  })
})

describe('parseRecordLine', () => {
  it('accepts a record and refuses one with a wrong field type', () => {
    expect(parseRecordLine(JSON.stringify({ t: 'mark', at: 1, label: 'clear', note: null })).kind).toBe('record')
    expect(parseRecordLine(JSON.stringify({ t: 'mark', at: '1', label: 'clear', note: null })).kind).toBe('invalid')
  })

  it('reads a histogram recorded before the first-completion kind as the last-completion one, and refuses an unknown kind', () => {
    const histogram = {
      seq: 1,
      reason: 'final',
      snapshotIndex: 3,
      binClocks: 64,
      bins: Array<number>(65).fill(0),
      receivedAt: 5,
    }
    const old = parseRecordLine(JSON.stringify({ t: 'histogram', at: 5, histogram }))
    expect(old.kind === 'record' && old.record.t === 'histogram' && old.record.histogram.kind).toBe('last')
    const first = parseRecordLine(JSON.stringify({ t: 'histogram', at: 5, histogram: { ...histogram, kind: 'first' } }))
    expect(first.kind === 'record' && first.record.t === 'histogram' && first.record.histogram.kind).toBe('first')
    expect(parseRecordLine(JSON.stringify({ t: 'histogram', at: 5, histogram: { ...histogram, kind: 'middle' } })).kind).toBe('invalid')
  })

  it('reads a histogram of equal bins (recorded before the log-spaced layout) as a layout of its linear part, and refuses bins that miss their layout', () => {
    const old = { seq: 1, reason: 'final', kind: 'last', snapshotIndex: 3, binClocks: 64, bins: Array<number>(65).fill(1), receivedAt: 5 }
    const r = parseRecordLine(JSON.stringify({ t: 'histogram', at: 5, histogram: old }))
    expect(r.kind === 'record' && r.record.t === 'histogram' && r.record.histogram.layout).toEqual({
      subBins: 64,
      firstEdgeClocks: 4096,
      bins: 64,
    })
    expect(r.kind === 'record' && r.record.t === 'histogram' && 'binClocks' in r.record.histogram).toBe(false)
    const now = { ...old, binClocks: undefined, layout: SPEC_HISTOGRAM_LAYOUT, bins: Array<number>(89).fill(1) }
    const n = parseRecordLine(JSON.stringify({ t: 'histogram', at: 5, histogram: now }))
    expect(n.kind === 'record' && n.record.t === 'histogram' && n.record.histogram.layout).toEqual(SPEC_HISTOGRAM_LAYOUT)
    expect(parseRecordLine(JSON.stringify({ t: 'histogram', at: 5, histogram: { ...now, bins: [1, 2] } })).kind).toBe('invalid')
    expect(parseRecordLine(JSON.stringify({ t: 'histogram', at: 5, histogram: { ...old, binClocks: undefined } })).kind).toBe('invalid')
  })

  it('reads a snapshot recorded before register map 0.7 with its new counters at 0, and refuses one missing an older counter', () => {
    const s = snap(4, { mrd128: 7, mrdOther: 2 })
    const old = { ...s, counters: Object.fromEntries(Object.entries(s.counters).filter(([k]) => !COUNTERS_SINCE_0_7.includes(k))) }
    const r = parseRecordLine(JSON.stringify({ t: 'snapshot', at: 5, snapshot: old }))
    expect(r.kind === 'record' && r.record.t === 'snapshot' && r.record.snapshot.counters).toEqual(s.counters)
    const { mrd128: _dropped, ...noMrd128 } = s.counters
    expect(parseRecordLine(JSON.stringify({ t: 'snapshot', at: 5, snapshot: { ...s, counters: noMrd128 } })).kind).toBe('invalid')
  })
})
