import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { PsError } from '../../../host/src/core/errors.js'
import { MANIFEST_FILE, type AnyRecord } from '../../../host/src/recording/format.js'
import { readRecords } from '../../../host/src/recording/reader.js'
import { Recorder } from '../../../host/src/recording/recorder.js'
import { newWriter, probeInfo, removeRoots, snap, tempRoot, WORKLOAD } from './fixtures.js'

afterEach(removeRoots)

describe('Recorder', () => {
  it('turns events into records', async () => {
    const dir = join(tempRoot(), 'rec')
    const r = new Recorder(newWriter(dir))
    const s = snap(1, { timestamp: 42 })
    r.device('connect', probeInfo())
    r.snapshot(s)
    r.runStart(1, 'manual', WORKLOAD, s)
    r.run(1, 'manual', WORKLOAD, { probeWindow: { from: 42, to: 84 }, result: { n: 1 } })
    r.runStart(2, 'demo', WORKLOAD, null)
    r.run(2, 'demo', WORKLOAD, { error: new PsError('PS_TWIN_EXITED', 'twin gone') })
    r.mark('clear')
    r.device('disconnect', null, { code: 'PS_SERIAL_DISCONNECTED', message: 'unplugged' })
    expect(r.close()).toBeUndefined()
    const got: AnyRecord[] = []
    for await (const rec of readRecords(dir)) got.push(rec)
    expect(got.map((x) => x.t)).toEqual(['device', 'snapshot', 'run-start', 'run', 'run-start', 'run', 'mark', 'device'])
    expect(got[1]).toEqual({ t: 'snapshot', at: s.receivedAt, snapshot: s })
    expect(got[3]).toMatchObject({ probeWindow: { from: 42, to: 84 }, error: null, result: { n: 1 } })
    expect(got[5]).toMatchObject({ probeWindow: null, result: null, error: { code: 'PS_TWIN_EXITED', message: 'twin gone' } })
    expect(got[7]).toMatchObject({ event: 'disconnect', info: null, error: { code: 'PS_SERIAL_DISCONNECTED' } })
  })

  it('records INTERVAL batches, read back intact (64-bit fields included)', async () => {
    const dir = join(tempRoot(), 'iv')
    const r = new Recorder(newWriter(dir))
    const rec = {
      ts: 2 ** 40,
      cycles: 2000,
      mrdCount: 190,
      mrdBytes: 24320,
      cpldCount: 188,
      cpldBytes: 24064,
      occSum: 500_000,
      occPeak: 256,
      latSum: 2 ** 33,
      latCount: 189,
    }
    const batch = { seq: 9, firstIndex: 12, dropped: 1, overflow: 0, records: [rec, { ...rec, ts: 2 ** 40 + 2000 }], receivedAt: 1234 }
    r.interval(batch)
    expect(r.close()).toBeUndefined()
    const got: AnyRecord[] = []
    for await (const x of readRecords(dir)) got.push(x)
    expect(got).toEqual([{ t: 'interval', at: 1234, batch }])
  })

  it('never throws into the event source: the first failure is reported once and recording stops', () => {
    const dir = join(tempRoot(), 'gone')
    const errors: PsError[] = []
    const r = new Recorder(newWriter(dir, { segmentBytes: 1 }), (e) => errors.push(e))
    r.mark('one')
    rmSync(dir, { recursive: true }) // the next roll cannot write the manifest
    expect(() => r.mark('two')).not.toThrow()
    expect(() => r.mark('three')).not.toThrow()
    expect(errors).toHaveLength(1)
    expect(errors[0]!.code).toBe('PS_RECORDING_IO')
    expect(r.error).toBe(errors[0])
    expect(r.close()).toBe(errors[0])
  })

  it('closes as interrupted with a note when asked', () => {
    const dir = join(tempRoot(), 'failed-run')
    const r = new Recorder(newWriter(dir))
    r.close('interrupted', 'the run failed')
    expect(JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8'))).toMatchObject({ status: 'interrupted', note: 'the run failed' })
  })
})
