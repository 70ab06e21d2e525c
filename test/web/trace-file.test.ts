import { describe, expect, it } from 'vitest'
import { isPsError } from '../../host/src/core/errors.js'
import { parseTraceFile } from '../../web/trace-file.js'
import { syntheticTrace } from './trace-fixture.js'

describe('a saved trace opened in the page', () => {
  const { report, words } = syntheticTrace(300)

  it('reads the JSON of trace --json and trace.json of --out', () => {
    expect(parseTraceFile(JSON.stringify(report))).toEqual(report)
    expect(parseTraceFile(JSON.stringify({ ...report, words })).tlps).toEqual(report.tlps)
  })

  it('decodes the records from the raw words of a trace.json that carries none decoded', () => {
    const { tlps: _tlps, ...older } = report
    expect(parseTraceFile(JSON.stringify({ ...older, words })).tlps).toEqual(report.tlps)
  })

  it('refuses anything else with PS_TRACE_FILE_INVALID, saying what is missing', () => {
    const { tlps: _tlps, ...bare } = report
    const cases: [string, RegExp][] = [
      ['not json', /no JSON/],
      ['[1, 2]', /no object/],
      [JSON.stringify({ reads: [] }), /no number "clockHz"/],
      [JSON.stringify(bare), /neither "tlps" nor "words"/],
      [JSON.stringify({ ...report, tlps: report.tlps.slice(0, 10) }), /names a record beyond the 10 held/],
    ]
    for (const [text, why] of cases) {
      let err: unknown
      try {
        parseTraceFile(text)
      } catch (e) {
        err = e
      }
      expect(isPsError(err, 'PS_TRACE_FILE_INVALID'), text.slice(0, 40)).toBe(true)
      expect((err as Error).message).toMatch(why)
    }
  })
})
