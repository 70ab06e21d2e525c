// bench/gpu-counters-report.mjs: ncu's profiles found by name and summed over their launches, and a
// sampled row against them (bytes both ways, requests derived from the write bytes less the
// sampler's own writes).
import { describe, expect, it } from 'vitest'
import { compareRow, ncuSections } from '../../bench/gpu-counters-report.mjs'

const HEAD =
  '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"'
const line = (id: number, kernel: string, metric: string, value: string) =>
  `"${id}","1","r","h","${kernel}","1","7","(256, 1, 1)","(4096, 1, 1)","0","9.0","Command line profiler metrics","${metric}","byte","${value}"`

describe('gpu-counters-report', () => {
  it('sums every launch of a profile, each under its "# name" line', () => {
    const text = [
      '# kron:20 bfs-merged',
      HEAD,
      line(0, 'bfs_level', 'pcie__read_bytes.sum', '1,000'),
      line(0, 'bfs_level', 'pcie__write_bytes.sum', '160'),
      line(1, 'bfs_level', 'pcie__read_bytes.sum', '2,500'),
      line(1, 'bfs_level', 'pcie__write_bytes.sum', '320'),
      '# strided e4 ideal',
      HEAD,
      line(0, 'zc_read', 'pcie__read_bytes.sum', '44'),
      '# a profile that failed',
    ].join('\n')
    const s = ncuSections(text)
    expect(s.get('kron:20 bfs-merged')).toEqual({ 'pcie__read_bytes.sum': 3500, 'pcie__write_bytes.sum': 480 })
    expect(s.get('strided e4 ideal')).toEqual({ 'pcie__read_bytes.sum': 44 })
    expect(s.get('a profile that failed')).toEqual({})
  })

  it('compares a sampled kernel with ncu and derives its requests', () => {
    const r = compareRow({
      name: 'k',
      sampled: { 'pcie__read_bytes.sum': 1010, 'pcie__write_bytes.sum': 1600 + 92 * 5 },
      ncu: { 'pcie__read_bytes.sum': 1000, 'pcie__write_bytes.sum': 1600 },
      samplesPerKernel: 5,
      selfWriteBytes: 92,
      predictedRequests: 80,
    })
    expect(r.readError).toBeCloseTo(1)
    expect(r.writeError).toBeCloseTo((100 * 460) / 1600)
    expect(r.requests).toBe(100)
    expect(r.requestError).toBeCloseTo(25)
    expect(compareRow({ name: 'k', sampled: {}, ncu: {}, samplesPerKernel: 0, selfWriteBytes: 0 }).requestError).toBeNaN()
  })
})
