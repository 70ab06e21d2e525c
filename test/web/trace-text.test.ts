import { describe, expect, it } from 'vitest'
import { readCells, readTitle, traceRequestBody, traceSummary } from '../../web/trace-text.js'
import { syntheticTrace } from './trace-fixture.js'

describe('trace view words', () => {
  it('sums a trace up: records, how its reads ended, the trigger', () => {
    const { report } = syntheticTrace(1500, 40)
    expect(traceSummary(report)).toMatch(
      /^merged-aligned, 96,000 B: 1,500 records of tap 0 \(ring 4,096\), 0 lost · [\d,]+ reads \([\d,]+ done, 1 error, \d+ open\), 1 unexpected completions · trigger force at record 40 \((MRD|CPLD) tag \d+\)$/,
    )
    expect(traceSummary({ ...report, triggerIndex: null, triggerRecord: null })).toMatch(/trigger force never fired$/)
  })

  it('gives a read its table cells and its title', () => {
    const { report } = syntheticTrace(300)
    const r = report.reads.find((x) => x.completions === 2)!
    expect(readCells(r)).toEqual([
      String(r.record),
      String(r.tag),
      '0x' + r.address.toString(16).padStart(12, '0'),
      '256',
      '256',
      '2',
      'done',
      r.firstLatencyNs!.toFixed(1),
      r.lastLatencyNs!.toFixed(1),
    ])
    const open = report.reads.find((x) => x.end === 'open')!
    expect(readCells(open).slice(-3)).toEqual(['open', '–', '–'])
    expect(readTitle(r)).toMatch(/^read of record \d+: tag \d+, 256 B at 0x0001[0-9a-f]{8}, done, first [\d.]+ ns, last [\d.]+ ns$/)
  })

  it('posts the trigger as typed and leaves blank fields to the server', () => {
    expect(
      traceRequestBody({ pattern: 'strided', bytes: '4096', trigger: 'latency > 2us', filter: 'type=mrd|cpld', tap: '1', pre: '100' }),
    ).toEqual({
      pattern: 'strided',
      bytes: 4096,
      trigger: 'latency > 2us',
      filter: 'type=mrd|cpld',
      tap: 1,
      pre: 100,
    })
    expect(traceRequestBody({ pattern: 'strided', bytes: '4096', trigger: ' ', filter: '', tap: '0', pre: '' })).toEqual({
      pattern: 'strided',
      bytes: 4096,
    })
  })
})
