// The VCD export of the GPU's own counters (gpu-counters records): module gpu_counters, each
// interval's rates from its start, valid dropped at the end; a VCD has one time axis, so with
// both kinds the first one met keeps it and the other is counted in a closing $comment.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { GpuCounterInterval } from '../../../host/src/core/wire.js'
import { exportRecording } from '../../../host/src/export/formats.js'
import { openRecording } from '../../../host/src/recording/catalog.js'
import { Recorder } from '../../../host/src/recording/recorder.js'
import { newWriter, removeRoots, tempRoot, writeIntervals } from '../recording/fixtures.js'

afterEach(removeRoots)

const interval = (k: number): GpuCounterInterval => ({
  counterSource: 'pm-sampling',
  device: 0,
  startNs: k * 1e6,
  endNs: (k + 1) * 1e6,
  samples: 10,
  lost: 0,
  readBytes: 54e3 * (k + 1),
  writeBytes: 6e3,
  readGBps: 54 * (k + 1),
  writeGBps: 6,
  requests: 375,
  requestsPerSecond: 375e6,
  payloadGBps: 48,
  meanRequestBytes: k === 2 ? null : 128,
  inFlight: 468,
})

const vcdOf = async (build: (r: Recorder, w: ReturnType<typeof newWriter>) => void): Promise<string> => {
  const dir = join(tempRoot(), 'vcd')
  const w = newWriter(dir)
  build(new Recorder(w), w)
  w.close()
  let s = ''
  for await (const c of exportRecording(await openRecording(dir), 'vcd')) s += c
  return s
}

describe('VCD export of the GPU counters', () => {
  it('module gpu_counters: each interval at its start (1 ns units at 250 MHz), valid 0 after the last', async () => {
    const text = await vcdOf((r) => [0, 1, 2].forEach((k) => r.gpuCounters(interval(k), 1000 + k)))
    const ids = new Map([...text.matchAll(/\$var \S+ \d+ (\S+) (\S+) /g)].map((m) => [m[2]!, m[1]!]))
    expect(text).toContain('$scope module gpu_counters $end')
    const body = text.slice(text.indexOf('$enddefinitions'))
    // pcie_scope's valid comes first (the probe's), then gpu_counters' valid and its reals
    const gpuValid = [...text.matchAll(/\$var wire 1 (\S+) valid \$end/g)][1]![1]!
    expect(body).toContain(
      `#0\n1${gpuValid}\nr54 ${ids.get('read_gbps')}\nr6 ${ids.get('write_gbps')}\nr375000000 ${ids.get('requests_per_s')}\nr128 ${ids.get('mean_request_bytes')}\n`,
    )
    expect(body).toContain(`#2000000\n1${gpuValid}\nr162 ${ids.get('read_gbps')}`)
    expect(body).toContain(`r0 ${ids.get('mean_request_bytes')}`) // no requests: 0
    expect(body.trimEnd().endsWith(`#3000000\n0${gpuValid}`)).toBe(true)
    expect(body).not.toContain('$comment')
  })

  it('with probe intervals first, the GPU counters are left out and counted', async () => {
    const text = await vcdOf((r, w) => {
      writeIntervals(w)
      r.gpuCounters(interval(0))
      r.gpuCounters(interval(1))
    })
    expect(text).toMatch(/\$comment 2 GPU counter intervals left out: their clock is not this file's/)
    expect(text).not.toContain('r54 ')
  })
})
