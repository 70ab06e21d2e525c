import { describe, expect, it } from 'vitest'
import { parseTwinLine } from '../../../host/src/transport/twin-lines.js'

const done = {
  event: 'done',
  id: 3,
  pattern: 'strided',
  bytes: 4096,
  offset: 0,
  mrd: { count: 128, bySize: { '32': 128, '64': 0, '96': 0, '128': 0, other: 0 }, bytes: 4096 },
  completions: 128,
  payloadErrors: 0,
  simCycles: 900,
  wallSeconds: 0.01,
}

describe('parseTwinLine', () => {
  it('accepts the ready, done and error lines of the protocol', () => {
    expect(
      parseTwinLine(
        '{"event":"ready","pty":"/dev/pts/4","clockHz":250000000,"link":{"name":"gen3x16","gen":3,"lanes":16,"tlpBytesPerSecond":14210000000}}',
      ),
    ).toMatchObject({ kind: 'ready', line: { pty: '/dev/pts/4' } })
    expect(parseTwinLine(JSON.stringify(done))).toEqual({ kind: 'done', line: done })
    expect(parseTwinLine('{"event":"error","message":"bad","id":2}')).toEqual({
      kind: 'error',
      line: { event: 'error', message: 'bad', id: 2 },
    })
    expect(parseTwinLine('   ')).toEqual({ kind: 'blank' })
  })
  it('refuses lines that are not JSON or name no known event', () => {
    expect(parseTwinLine('Verilator says hi')).toMatchObject({ kind: 'invalid', reason: 'not JSON' })
    expect(parseTwinLine('{"event":"progress"}')).toMatchObject({ kind: 'invalid', reason: 'unknown event "progress"' })
    expect(parseTwinLine('[1,2]')).toMatchObject({ kind: 'invalid' })
  })
  it('names the field that breaks a done line', () => {
    const missingClass = { ...done, mrd: { ...done.mrd, bySize: { '32': 1 } } }
    expect(parseTwinLine(JSON.stringify(missingClass))).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/malformed done line: mrd\.bySize\.64/),
    })
    const extraClass = { ...done, mrd: { ...done.mrd, bySize: { ...done.mrd.bySize, '256': 0 } } }
    expect(parseTwinLine(JSON.stringify(extraClass))).toMatchObject({ kind: 'invalid' })
    expect(parseTwinLine(JSON.stringify({ ...done, pattern: 'zigzag' }))).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/pattern/),
    })
    expect(parseTwinLine(JSON.stringify({ ...done, simCycles: -1 }))).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/simCycles/),
    })
  })
  it('refuses a ready line without its pty or clock', () => {
    expect(parseTwinLine('{"event":"ready","clockHz":250000000}')).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/malformed ready line: pty/),
    })
    expect(parseTwinLine('{"event":"ready","pty":"/dev/pts/1","clockHz":"fast"}')).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/clockHz/),
    })
  })
})
