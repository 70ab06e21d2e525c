import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { readRecords } from '../../host/src/recording/reader.js'
import { AppState } from '../../web/state.js'
import { parseJsonl, replaySteps, type RecordingDescription } from '../../web/replay.js'
import { exportBlocked } from '../../web/recording-exports.js'
import type { RunReport } from '../../host/src/core/wire.js'
import { newWriter, probeInfo, removeRoots, tempRoot, WORKLOAD, writeRun } from '../host/recording/fixtures.js'

afterEach(removeRoots)

const desc = (name: string): RecordingDescription => ({
  name,
  source: 'twin',
  manifest: { path: '/dev/pts/9', probe: probeInfo(), link: null },
})

/** A recording as the JSONL export serves it. */
async function recorded(opts: { hostSide?: boolean } = {}): Promise<string> {
  const dir = join(tempRoot(), 'rec')
  const w = newWriter(dir)
  writeRun(w, opts)
  w.close()
  let text = ''
  for await (const r of readRecords(dir)) text += JSON.stringify(r) + '\n'
  return text
}

describe('a recording replayed into the page', () => {
  it('gives the same charts, run band and run list as the live page did', async () => {
    const { lines, skipped } = parseJsonl((await recorded({ hostSide: true })) + '{"torn":\n')
    expect(skipped).toBe(1)
    const state = new AppState('tok')
    state.replay('rec', replaySteps(desc('rec'), lines))
    expect(state.replaying).toBe('rec')
    expect(state.live(0)).toMatchObject({ key: 'replay', text: 'saved recording: rec' })
    expect(state.info).toEqual(probeInfo())
    expect(state.mrdRate.view().filter((p) => Number.isFinite(p.y)).length).toBeGreaterThan(3)
    // the run's band, named as live, over its probe window
    expect(state.marks).toEqual([{ id: 1, origin: 'manual', label: 'merged-aligned', from: expect.any(Number), to: expect.any(Number) }])
    // a run `capture` recorded: its report made from the probe's counts over the run
    expect(state.runHistory).toHaveLength(1)
    expect(state.runHistory[0]).toMatchObject({ id: 1, label: 'merged-aligned', requests: 512 })
    expect(state.lastRun?.result.workload).toEqual(WORKLOAD)
    // the latency histogram and the host side arrive as they did live
    expect(state.latencyHistograms.last).not.toBeNull()
    expect(state.hostSide.seen).toBe(true)
    // the figures of the whole recording: the run's 512 reads but those of its first interval,
    // which began with the counters stopped (no rate across it, live or replayed)
    state.select({ from: -Infinity, to: Infinity })
    expect(state.selectionFigures()?.requests).toBe(512 - Math.round(512 / 7))
  })

  it("uses a server's own run report as recorded", async () => {
    const { lines } = parseJsonl(await recorded())
    const run = lines.find((l) => l.t === 'run')!
    const report = {
      id: 1,
      origin: 'demo',
      countersEnabled: true,
      probe: {},
      probeWindow: { from: 0, to: 1 },
      result: { workload: WORKLOAD },
    }
    Object.assign(run, { origin: 'demo', result: report })
    const steps = replaySteps(desc('rec'), lines)
    const msg = steps.find((s) => s.message.type === 'run')!.message as { report: RunReport }
    // recorded before reports carried a bench summary: it gets one from its counter deltas
    expect(msg.report).toMatchObject(report)
    expect(msg.report.summary).toHaveProperty('limit')
    // one recorded with its summary keeps it as recorded
    const summarised = { ...report, summary: msg.report.summary }
    Object.assign(run, { result: summarised })
    const again = replaySteps(desc('rec'), lines).find((s) => s.message.type === 'run')!.message as { report: RunReport }
    expect(again.report).toBe(summarised)
  })

  it('passes a failed run on as a run error, and frames and marks over', async () => {
    const steps = replaySteps(desc('x'), [
      { t: 'mark', at: 1 },
      { t: 'frame', at: 2 },
      {
        t: 'run',
        at: 3,
        id: 4,
        origin: 'manual',
        workload: WORKLOAD,
        probeWindow: null,
        error: { code: 'PS_X', message: 'no' },
        result: null,
      },
    ])
    expect(steps.map((s) => s.message.type)).toEqual(['hello', 'run-error'])
  })

  it('ends: back to live forgets the recording', async () => {
    const state = new AppState('tok')
    state.replay('rec', replaySteps(desc('rec'), parseJsonl(await recorded()).lines))
    state.endReplay()
    expect(state.replaying).toBeNull()
    expect(state.runHistory).toEqual([])
    expect(state.live(0).key).not.toBe('replay')
  })
})

describe('exports a recording can give', () => {
  it('no pcapng without frames, no VCD without interval or GPU counter records', () => {
    expect(exportBlocked('pcapng', { snapshot: 3 })).toMatch(/no raw frames.*--record-frames/)
    expect(exportBlocked('pcapng', { frame: 1 })).toBeNull()
    expect(exportBlocked('vcd', { snapshot: 3 })).toMatch(/no interval records.*--sample-us/)
    expect(exportBlocked('vcd', { interval: 2 })).toBeNull()
    expect(exportBlocked('vcd', { 'gpu-counters': 2 })).toBeNull()
    expect(exportBlocked('csv', {})).toBeNull()
    // a recording whose manifest counted nothing: every button stays, the server says no if it must
    expect(exportBlocked('pcapng', null)).toBeNull()
  })
})
