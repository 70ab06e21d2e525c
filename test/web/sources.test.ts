import { describe, expect, it } from 'vitest'
import type { ServerStatus } from '../../host/src/core/wire.js'
import { runnerText, runSourceOptions, sourcesNote } from '../../web/sources.js'

const status = (twin: boolean, gpu: boolean): Pick<ServerStatus, 'sources'> => ({
  sources: {
    twin: twin ? { available: true, reason: null } : { available: false, reason: 'a serial session has no twin to run workloads on' },
    gpu: gpu
      ? { available: true, reason: null, devices: ['NVIDIA H200 (0000:65:00.0)'] }
      : { available: false, reason: 'no CUDA device is usable on this machine.', devices: [] },
  },
})

describe('runSourceOptions', () => {
  it('offers the GPU only when the server found one', () => {
    expect(runSourceOptions(status(true, false)).map((o) => o.value)).toEqual(['twin'])
    expect(runSourceOptions(status(true, true)).map((o) => o.value)).toEqual(['twin', 'gpu'])
    expect(runSourceOptions(status(false, true))).toEqual([
      { value: 'gpu', label: 'GPU', title: "a CUDA kernel on the server's GPU: NVIDIA H200 (0000:65:00.0)" },
    ])
  })
  it('offers nothing before the status arrives or when no source is available', () => {
    expect(runSourceOptions(null)).toEqual([])
    expect(runSourceOptions(status(false, false))).toEqual([])
  })
})

describe('sourcesNote', () => {
  it('names the GPU, or says why there is none', () => {
    expect(sourcesNote(status(true, true))).toBe('GPU: NVIDIA H200 (0000:65:00.0)')
    expect(sourcesNote(status(true, false))).toBe('no GPU runs: no CUDA device is usable on this machine.')
    expect(sourcesNote(undefined)).toBe('')
  })
})

describe('runnerText', () => {
  it('says why nothing can run before the server answered, instead of "no workload runner"', () => {
    expect(runnerText('token-wrong', [])).toMatch(/token/)
    expect(runnerText('token-missing', [])).toMatch(/token/)
    expect(runnerText('unreachable', [])).toMatch(/unreachable/)
    for (const k of ['token-wrong', 'token-missing', 'unreachable', 'connecting'] as const)
      expect(runnerText(k, [])).not.toMatch(/no workload runner/)
    expect(runnerText('live', runSourceOptions(status(true, true)))).toBe('runs on: twin or GPU')
    expect(runnerText('live', runSourceOptions(status(false, false)))).toBe('no workload runner on this server')
  })
})
