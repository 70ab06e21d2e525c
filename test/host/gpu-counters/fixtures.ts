// Sample data recorded on an H200 (Gen5 x16, CUDA 13.0, driver 580) by bench/gpu-counters.sh's
// fixture step: `pcie-scope-gpu-counters --samples` CSV and the source's start line.
//   h200-merged-aligned-100us.csv  600 samples at 100 µs during 1-GiB merged-aligned zero-copy kernels
//   h200-strided-1ms.csv           300 samples at 1 ms during 1-GiB strided (4-B lanes) kernels
//   h200-idle-1ms.csv              300 samples at 1 ms, nothing running
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseSamplesCsv } from '../../../host/src/gpu-counters/samples.js'
import type { GpuCounterSourceInfo } from '../../../host/src/gpu-counters/samples.js'
import type { NativeGpuCountersEvent } from '../../../host/src/native/addon.js'

const dir = join(import.meta.dirname, 'fixtures')

export const fixtureText = (name: string): string => readFileSync(join(dir, name), 'utf8')
export const fixture = (name: string) => parseSamplesCsv(fixtureText(name))
export const startInfo = (): GpuCounterSourceInfo => (JSON.parse(fixtureText('h200-start.json')) as { start: GpuCounterSourceInfo }).start

/** The fixture as the addon would stream it: the start event, then batches of `per` samples. */
export const fixtureEvents = (name: string, per = 100, lost = 0): NativeGpuCountersEvent[] => {
  const { samples } = fixture(name)
  const events: NativeGpuCountersEvent[] = [{ type: 'start', info: startInfo() }]
  for (let i = 0; i < samples.length; i += per) {
    const chunk = samples.slice(i, i + per)
    const data = Float64Array.from(chunk.flatMap((s) => [s.startNs, s.endNs, s.readBytes, s.writeBytes]))
    events.push({ type: 'batch', data, stride: 4, lost, samples: i + chunk.length, threadCpuSeconds: 0.001 * (i + 1), overflow: false })
  }
  return events
}
