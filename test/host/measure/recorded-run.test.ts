import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { describeRecording } from '../../../host/src/recording/catalog.js'
import type { AnyRecord } from '../../../host/src/recording/format.js'
import { readRecords } from '../../../host/src/recording/reader.js'
import { measureAndRecord } from '../../../host/src/measure/recorded-run.js'
import { closeSessions, fakeSession } from './fake-session.js'
import { removeRoots, tempRoot } from '../recording/fixtures.js'

afterEach(async () => {
  await closeSessions()
  removeRoots()
})

const records = async (dir: string): Promise<AnyRecord[]> => {
  const out: AnyRecord[] = []
  for await (const r of readRecords(dir)) out.push(r)
  return out
}

const W = { pattern: 'merged-aligned', bytes: 65536, offset: 0 } as const

describe('measureAndRecord', () => {
  it('records the connection, the baseline, every streamed snapshot, the final one, and the run with its result', async () => {
    const { s } = await fakeSession({ stream: 4 })
    const dir = join(tempRoot(), 'cli-run')
    const rc = await measureAndRecord(s, W, dir)
    expect(rc.recordingError).toBeUndefined()
    expect(rc.name).toBe('cli-run')
    const got = await records(dir)
    expect(got.map((r) => (r.t === 'snapshot' ? `snapshot${r.snapshot.onDemand ? '*' : ''}` : r.t))).toEqual([
      'device',
      'snapshot*', // the baseline, before START
      'run-start',
      'snapshot',
      'snapshot',
      'snapshot',
      'snapshot',
      'snapshot*', // the final on-demand snapshot
      'histogram', // the latency histograms read with it: last completion,
      'histogram', // then first
      'run',
    ])
    const run = got.at(-1)
    if (run?.t !== 'run') throw new Error('no run record')
    expect(run.probeWindow).toEqual(rc.result.probeWindow)
    expect(run.result).toEqual(JSON.parse(JSON.stringify(rc.result)))
    expect(rc.records).toBe(got.length)
    const d = await describeRecording(dir)
    expect(d).toMatchObject({ status: 'complete', runs: 1, workloads: [W], records: got.length })
  })

  it('records a failed run with its error and closes the recording as interrupted', async () => {
    const { s } = await fakeSession({ stream: 2, fail: true })
    const dir = join(tempRoot(), 'failed')
    await expect(measureAndRecord(s, W, dir)).rejects.toMatchObject({ code: 'PS_TWIN_EXITED' })
    const got = await records(dir)
    expect(got.at(-1)).toMatchObject({ t: 'run', error: { code: 'PS_TWIN_EXITED' }, result: null })
    expect(await describeRecording(dir)).toMatchObject({ status: 'interrupted', note: expect.stringMatching(/run failed.*twin exited/) })
  })

  it('refuses an invalid workload before creating anything', async () => {
    const { s } = await fakeSession()
    const dir = join(tempRoot(), 'never')
    await expect(measureAndRecord(s, { ...W, bytes: 3 }, dir)).rejects.toMatchObject({ code: 'PS_WORKLOAD_INVALID' })
    await expect(describeRecording(dir)).rejects.toMatchObject({ code: 'PS_RECORDING_NOT_FOUND' })
  })
})
