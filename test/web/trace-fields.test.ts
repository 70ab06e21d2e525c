import { describe, expect, it } from 'vitest'
import { FIELD_LABELS, readDetail, recordFields } from '../../web/trace-fields.js'
import { syntheticTrace } from './trace-fixture.js'

describe('trace record fields', () => {
  const { report } = syntheticTrace(400, 5)
  const field = (values: string[], label: (typeof FIELD_LABELS)[number]) => values[FIELD_LABELS.indexOf(label)]

  it('decodes a request and its completions, the fields a kind lacks as –', () => {
    const k = report.reads.findIndex((r) => r.completions === 2)
    const d = readDetail(report, k)
    expect(d.columns).toHaveLength(3)
    expect(d.columns[0]).toMatch(/^record \d+ MRD( \(trigger\))?$/)
    const col = (j: number) => d.rows.map((r) => r.values[j]!)
    const req = col(0)
    expect(field(req, 'Fmt / Type')).toBe('001 / 00000')
    expect(field(req, 'Length')).toBe('64 DW')
    expect(field(req, 'Requester ID')).toBe('0x0100 (01:00.0)')
    expect(field(req, 'address')).toMatch(/^0x0001000[0-9a-f]{5}$/)
    expect(field(req, 'bytes requested')).toBe('256 B')
    expect(field(req, 'status')).toBe('–')
    expect(field(req, 'stream')).toBe('request')
    const cpl = col(1)
    expect(field(cpl, 'kind')).toBe('CPLD')
    expect(field(cpl, 'Fmt / Type')).toBe('010 / 01010')
    expect(field(cpl, 'status')).toBe('SC (000)')
    expect(field(cpl, 'Byte Count')).toBe('256 B')
    expect(field(cpl, 'Lower Address')).toBe('0x00')
    expect(field(cpl, 'address')).toBe('–')
    expect(field(cpl, 'segment')).toBe('1')
    expect(field(col(2), 'Byte Count')).toBe('128 B')
  })

  it('gives the clock and its ns, names an error status and marks the trigger record', () => {
    const r = report.tlps[5]!
    const v = recordFields(r, report.clockHz)
    expect(field(v, 'tap clock')).toBe(`${r.clock} clocks`)
    expect(field(v, 'time')).toBe(`${(r.clock * 4).toFixed(1)} ns`)
    const longer = syntheticTrace(1500).report
    const ur = longer.reads.findIndex((x) => x.end === 'error')
    expect(
      field(
        readDetail(longer, ur).rows.map((row) => row.values[1]!),
        'status',
      ),
    ).toBe('UR (001)')
    const trig = report.reads.findIndex((x) => x.records.includes(5))
    expect(readDetail(report, trig).columns.some((c) => c === `record 5 ${r.kind} (trigger)`)).toBe(true)
  })
})
