import { describe, expect, it } from 'vitest'
import { parseTwinLine } from '../../../host/src/transport/twin-lines.js'
import { zeroBySize } from '../../../host/src/core/size-classes.js'

const done = {
  event: 'done',
  id: 3,
  pattern: 'strided',
  bytes: 4096,
  offset: 0,
  mrd: { count: 128, bySize: { ...zeroBySize(), '32': 128 }, bytes: 4096 },
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
  it('accepts a cancelled done line, a refused control command and an armed fault', () => {
    expect(parseTwinLine(JSON.stringify({ ...done, cancelled: true }))).toEqual({ kind: 'done', line: { ...done, cancelled: true } })
    expect(parseTwinLine('{"event":"error","command":"cancel","id":7,"message":"no run 7 is queued or running"}')).toMatchObject({
      kind: 'error',
      line: { command: 'cancel', id: 7 },
    })
    expect(parseTwinLine('{"event":"injected","kind":"skip-seq","count":3,"seed":0}')).toEqual({
      kind: 'injected',
      line: { event: 'injected', kind: 'skip-seq', count: 3, seed: 0 },
    })
    expect(parseTwinLine('{"event":"injected","kind":"flip","count":1,"seed":0}')).toMatchObject({ kind: 'invalid' })
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
    const extraClass = { ...done, mrd: { ...done.mrd, bySize: { ...done.mrd.bySize, '1024': 0 } } }
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
  it("tells a BFS kernel's done line by its pattern, with the graph instead of bytes and offset", () => {
    const g = {
      event: 'done',
      id: 0,
      pattern: 'bfs-aligned',
      graph: 'kron:8',
      vertices: 256,
      edges: 4192,
      idBytes: 8,
      source: 233,
      launches: 4,
      mrd: { count: 451, bySize: { ...zeroBySize(), '32': 135, '64': 108, '96': 55, '128': 153 }, bytes: 36096 },
      completions: 451,
      payloadErrors: 0,
      simCycles: 1041,
      wallSeconds: 0.00054,
    }
    expect(parseTwinLine(JSON.stringify(g))).toEqual({ kind: 'graph-done', line: g })
    expect(parseTwinLine(JSON.stringify({ ...g, idBytes: 2 }))).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/malformed done line: idBytes/),
    })
    // a micro pattern with a graph's fields is still a micro done line, judged by that schema
    expect(parseTwinLine(JSON.stringify({ ...g, pattern: 'strided' }))).toMatchObject({ kind: 'invalid' })
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
