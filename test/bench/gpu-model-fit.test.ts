// The fitted-vs-checked record of the GPU model (test/bench/fixtures/ncu/h100-model-fit.json,
// docs/gpu-model.md): the values it was fitted to are the spec's, each bandwidth prediction it
// records follows from its recorded read stream and the spec's host constants (so a change of
// either shows here), fits and checks are kept apart, and every check outside its limit says why.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { graphSeconds, linkBytesPerSecond, microName, ncuRuns, streamSeconds, timedRuns } from '../../bench/gpu-model-fit.mjs'

const root = resolve(import.meta.dirname, '../..')
const spec = JSON.parse(readFileSync(resolve(root, 'spec/workloads.json'), 'utf8')) as {
  gpus: {
    default: string
    values: { name: string; l1Policy: string; l1Bytes: number; mergeWindow: number; host: Record<string, number | string> }[]
  }
}
const gpu = spec.gpus.values.find((v) => v.name === spec.gpus.default)!

interface Launch {
  reads: number
  wireBytes: number
  steps: number
}
interface BandwidthRow {
  name: string
  role: 'fit' | 'check'
  bytes: number
  measuredGbps: number
  predictedGbps: number
  errorPercent: number
  stream?: { reads: number; wireBytes: number }
  launches?: Launch[]
  perThread?: boolean
  why?: string
}
interface CountRow {
  name: string
  role: 'fit' | 'check'
  measured: number
  predicted: number
  errorPercent: number
  limitPercent: number
  why?: string
}
const rec = JSON.parse(readFileSync(resolve(root, 'test/bench/fixtures/ncu/h100-model-fit.json'), 'utf8')) as {
  gpu: string
  fitted: { l1Policy: string; l1Bytes: number; mergeWindow: number; host: Record<string, number> }
  limits: { gbpsPercent: number }
  bandwidth: BandwidthRow[]
  counts: CountRow[]
}

const host = gpu.host as unknown as {
  link: string
  readsPerUs: number
  wireEfficiency: number
  combineExponent: number
  stepNs: number
  threadStepNs: number
  launchUs: number
}
const L = linkBytesPerSecond(host.link)
const seconds = (r: BandwidthRow): number =>
  r.stream
    ? streamSeconds(r.stream.reads, r.stream.wireBytes, host, L) + host.launchUs * 1e-6
    : r.launches!.reduce(
        (t, l) =>
          t +
          Math.max(streamSeconds(l.reads, l.wireBytes, host, L), l.steps * (r.perThread ? host.threadStepNs : host.stepNs) * 1e-9) +
          host.launchUs * 1e-6,
        0,
      )

describe('the GPU model: fitted on some H100 rows, checked on the others', () => {
  it('was fitted to the values the spec holds', () => {
    expect(rec.gpu).toBe(gpu.name)
    expect(rec.fitted.l1Policy).toBe(gpu.l1Policy)
    expect(rec.fitted.l1Bytes).toBe(gpu.l1Bytes)
    expect(rec.fitted.mergeWindow).toBe(gpu.mergeWindow)
    for (const [k, v] of Object.entries(rec.fitted.host)) expect(gpu.host[k], k).toBe(v)
  })

  it('keeps fits and checks apart: a few rows fitted, most only checked', () => {
    for (const rows of [rec.bandwidth, rec.counts] as { role: string; name: string }[][]) {
      const fit = rows.filter((r) => r.role === 'fit')
      expect(fit.length).toBeGreaterThan(0)
      expect(fit.length * 3).toBeLessThan(rows.length)
      expect(rows.every((r) => r.role === 'fit' || r.role === 'check')).toBe(true)
      expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length)
    }
  })

  it('predicts each recorded GB/s from its read stream and the spec host constants', () => {
    for (const r of rec.bandwidth) {
      const g = r.bytes / seconds(r) / 1e9
      expect(Math.abs(g - r.predictedGbps) / r.predictedGbps, r.name).toBeLessThan(1e-3)
      expect(r.errorPercent).toBeCloseTo(((r.measuredGbps - g) / g) * 100, 1)
    }
  })

  it('every row outside its limit says why; the fitted rows are inside', () => {
    for (const r of rec.bandwidth) {
      const out = Math.abs(r.errorPercent) > rec.limits.gbpsPercent
      if (r.role === 'fit') expect(out, r.name).toBe(false)
      if (out) expect(r.why?.length ?? 0, r.name).toBeGreaterThan(40)
    }
    for (const r of rec.counts) {
      const out = Math.abs(r.errorPercent) > r.limitPercent
      if (r.role === 'fit') expect(out, r.name).toBe(false)
      if (out) expect(r.why?.length ?? 0, r.name).toBeGreaterThan(40)
      expect(r.errorPercent).toBeCloseTo(((r.measured - r.predicted) / r.predicted) * 100, 1)
    }
  })
})

describe('bench/gpu-model-fit.mjs times a graph run as the fixture does', () => {
  // one launch whose loop is longer than its reads take: the step time decides
  const launchReads = [{ reads: 1000, cplWireBytes: 64_000, steps: 10_000 }]
  it('a thread-per-vertex (naive) kernel steps by threadStepNs, a warp-per-vertex one by stepNs', () => {
    const h = { ...host, stepNs: 3000, threadStepNs: 600, launchUs: 5 }
    expect(graphSeconds({ pattern: 'bfs-naive', launchReads }, h, L)).toBeCloseTo(10_000 * 600e-9 + 5e-6, 12)
    expect(graphSeconds({ pattern: 'bfs-merged', launchReads }, h, L)).toBeCloseTo(10_000 * 3000e-9 + 5e-6, 12)
  })
  it('agrees with the fixture rows of the naive kernels', () => {
    for (const r of rec.bandwidth.filter((x) => x.perThread)) {
      const m = { pattern: 'x-naive', launchReads: r.launches!.map((l) => ({ reads: l.reads, cplWireBytes: l.wireBytes, steps: l.steps })) }
      expect(r.bytes / graphSeconds(m, host, L) / 1e9, r.name).toBeCloseTo(r.predictedGbps, 2)
    }
  })
})

describe('bench/gpu-model-fit.mjs reads ncu outputs of the runner', () => {
  const txt = (f: string) => readFileSync(resolve(root, 'test/bench/fixtures/ncu', f), 'utf8')
  it('gives each micro run its launch and names it by pattern, width, load kind and size', () => {
    const [r] = ncuRuns(txt('merged-aligned-e4-ideal.txt'))
    expect(microName(r!.run)).toBe('merged-aligned-e4-ideal-64M')
    expect(r!.mrd).toBe(524480) // pcie__write_bytes / 16
    expect(r!.readBytes).toBe(73401856)
  })
  it('keeps the first timing of a run the timed batch holds twice, and names graph runs by graph', () => {
    const micro = (offset: number, gbps: number) =>
      JSON.stringify({ pattern: 'merged-chunked', bytes: 64 << 20, offset, elementBytes: 4, l1: 'ideal', kernelGbps: gbps })
    const text = [
      'pcie-scope-gpu: starting',
      micro(32, 41.5),
      micro(0, 49),
      micro(32, 40.9), // the chunk lines repeat the default offset at 64 MiB
      JSON.stringify({ pattern: 'bfs-merged', graph: 'urand:20', edgeGbps: 41.7 }),
      JSON.stringify({ pattern: 'bfs-merged', graph: 'kron:20', error: { code: 'X' } }),
    ].join('\n')
    const rows = timedRuns(text)
    expect(rows.map((r) => r.name)).toEqual(['merged-chunked-e4-ideal-64M', 'merged-chunked-e4-ideal-64M-o0', 'bfs-merged-urand-20'])
    expect(rows[0]!.run.kernelGbps).toBe(41.5)
  })
  it('sums a graph run over its launches', () => {
    const [r] = ncuRuns(txt('bfs-aligned-kron-8.txt'))
    expect(r!.run.pattern).toBe('bfs-aligned')
    expect(r!.run.launches).toBeGreaterThan(1)
    expect(r!.mrd).toBe(451)
  })
})
