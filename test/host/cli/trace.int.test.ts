// `pcie-scope trace` on the real twin (needs `npm run build:twin`), and its --trigger, --filter and
// --tap syntax (the grammar itself: test/host/core/trace-trigger.test.ts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseTrigger, type TraceReport } from '../../../host/src/cli/trace.js'
import { decodeTraceRecord, type TraceRecord } from '../../../host/src/core/trace.js'
import { runCli } from './run-cli.js'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('--trigger', () => {
  it('reads force, latency thresholds in clocks or time, and address windows', () => {
    expect(parseTrigger('force', 250e6)).toEqual({ force: true, text: 'force' })
    expect(parseTrigger('latency>2us', 250e6)).toMatchObject({ force: false, settings: { conditions: ['LATENCY'], latencyClocks: 500 } })
    expect(parseTrigger('latency>300ns', 250e6)).toMatchObject({ settings: { latencyClocks: 75 } })
    expect(parseTrigger('latency > 123', 250e6)).toMatchObject({ settings: { latencyClocks: 123 } })
    expect(parseTrigger('addr=0x1000:0x1fff', 250e6)).toMatchObject({ settings: { conditions: ['ADDR'], base: 0x1000, limit: 0x1fff } })
    for (const bad of ['latency<2us', 'addr=0x2000:0x1000', 'tag=3000', 'latency>99999999ms'])
      expect(() => parseTrigger(bad, 250e6), bad).toThrow(expect.objectContaining({ code: 'PS_USAGE' }))
  })

  it('is a usage error on the command line, before any twin starts', async () => {
    const r = await runCli('trace', '--twin', '--pattern', 'strided', '--trigger', 'sometimes')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--trigger/)
    expect((await runCli('trace', '--pattern', 'strided')).code).toBe(2) // --twin
    const filter = await runCli('trace', '--twin', '--pattern', 'strided', '--filter', 'type=mrd & tag=3')
    expect(filter.code).toBe(2)
    expect(filter.stderr).toMatch(/--filter.*filter term 'tag=3': a filter takes type=/s)
    const tap = await runCli('trace', '--twin', '--pattern', 'strided', '--tap', '2')
    expect(tap.code).toBe(2)
    expect(tap.stderr).toMatch(/--tap.*expected 0\.\.1/s)
  })
})

/** every record of a run's --out DIR/trace.json, decoded from its raw words */
const savedRecords = (dir: string): TraceRecord[] =>
  (JSON.parse(readFileSync(join(dir, 'trace.json'), 'utf8')) as { words: number[][] }).words.map((w) => decodeTraceRecord(w))

describe('pcie-scope trace --twin: the tap and the filter', () => {
  it('--tap 1 traces the switch’s host side, beside the host side’s own tracker', async () => {
    const out = mkdtempSync(join(tmpdir(), 'ps-trace-tap-'))
    dirs.push(out)
    // 256 reads go through every tag; pre beyond the run's records keeps every record since ARM
    const args = ['--pattern', 'merged-aligned', '--bytes', '32K', '--trigger', 'type=cpld & tag=7', '--pre', '1000', '--json']
    const r = await runCli('trace', '--twin', '--tap', '1', ...args, '--out', join(out, 'run'))
    expect(r.code, r.stderr).toBe(0)
    const rep = JSON.parse(r.stdout) as TraceReport
    expect(rep).toMatchObject({ tap: 1, triggered: true, triggerRecord: { kind: 'CPLD', tag: 7 }, records: 512, unexpected: [] })
    const records = savedRecords(join(out, 'run'))
    expect(records.every((x) => x.tap === 1)).toBe(true)
    expect(rep.triggerIndex).toBe(records.findIndex((x) => x.kind === 'CPLD' && x.tag === 7))
    // the tracker's figures are the host side's: they equal what the trace pairs, read for read
    expect(rep.tracker).toEqual({
      reads: 256,
      cpldBytes: 32768,
      firstLatencySumClocks: rep.paired.firstLatencySumClocks,
      lastLatencySumClocks: rep.paired.lastLatencySumClocks,
    })
  }, 30_000)

  it('--tap 1 on the BAR design is a usage error naming its one tap', async () => {
    const r = await runCli('trace', '--twin', '--mode', 'endpoint', '--pattern', 'strided', '--bytes', '4K', '--tap', '1')
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('tap 1: this design has one tap: 0 (gpuSide)')
  }, 30_000)

  it('--filter keeps only the MRd and CplD of one window, so the ring covers more of its reads', async () => {
    const out = mkdtempSync(join(tmpdir(), 'ps-trace-filter-'))
    dirs.push(out)
    const [base, limit] = [0x1_0002_0000, 0x1_0009_ffff] // 512 KiB of the 1-MiB buffer: 4096 reads
    const inWindow = (a: number) => a >= base && a <= limit
    const run = async (name: string, ...extra: string[]) => {
      const r = await runCli(
        'trace',
        '--twin',
        '--pattern',
        'merged-aligned',
        '--bytes',
        '1M',
        '--json',
        '--out',
        join(out, name),
        ...extra,
      )
      expect(r.code, r.stderr).toBe(0)
      return { rep: JSON.parse(r.stdout) as TraceReport, records: savedRecords(join(out, name)) }
    }
    const all = await run('all')
    const only = await run('window', '--filter', `type=mrd|cpld & addr=0x${base.toString(16)}:0x${limit.toString(16)}`)
    expect(only.rep.filter).toBe('type=mrd|cpld & addr=0x100020000:0x10009ffff')
    // both fill the ring; the filtered one with the window's TLPs alone
    expect(all.rep).toMatchObject({ full: true, records: all.rep.depth })
    expect(only.rep).toMatchObject({ full: true, records: only.rep.depth, unexpected: [] })
    for (const x of only.records) {
      expect(['MRD', 'CPLD']).toContain(x.kind)
      if (x.kind === 'MRD') expect(inWindow(x.address!), x.address!.toString(16)).toBe(true)
    }
    const readsOfWindow = (rep: TraceReport) => rep.reads.filter((x) => inWindow(x.address)).length
    expect(readsOfWindow(only.rep)).toBe(only.rep.reads.length)
    expect(readsOfWindow(only.rep)).toBeGreaterThan(1.5 * readsOfWindow(all.rep))
  }, 60_000)
})

describe('pcie-scope trace --twin', () => {
  it('prints the trigger position and every paired read; --json and --out carry the same report', async () => {
    const out = mkdtempSync(join(tmpdir(), 'ps-trace-'))
    dirs.push(out)
    const r = await runCli(
      'trace',
      '--twin',
      '--pattern',
      'merged-aligned',
      '--bytes',
      '16K',
      '--trigger',
      'addr=0x100001000:0x100001000',
      '--pre',
      '8',
      '--json',
      '--out',
      join(out, 'run'),
    )
    expect(r.code, r.stderr).toBe(0)
    const rep = JSON.parse(r.stdout) as TraceReport
    expect(rep).toMatchObject({ triggered: true, triggerIndex: 8, triggerRecord: { kind: 'MRD', address: 0x100001000 }, lost: 0 })
    // 128 reads of 128 B; the trigger is read 32, so 24 before the pre-trigger part are cut
    expect(rep.records).toBe(2 * 128 - 24)
    expect(rep.reads).toHaveLength(128 - 24)
    for (const x of rep.reads) {
      expect(x).toMatchObject({ end: 'done', bytes: 128, requestedBytes: 128 })
      expect(x.firstLatencyNs).toBeCloseTo((x.firstLatencyClocks! * 1e9) / rep.clockHz, 1)
    }
    expect(rep.tracker?.reads).toBe(128)
    const saved = JSON.parse(readFileSync(join(out, 'run', 'trace.json'), 'utf8')) as TraceReport & { words: number[][] }
    expect(saved.words).toHaveLength(rep.records)
    expect(saved.reads).toEqual(rep.reads)

    const text = await runCli('trace', '--twin', '--pattern', 'merged-aligned', '--bytes', '4K', '--pre', '0')
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toMatch(/^trace: 64 records of tap 0/m)
    expect(text.stdout).toMatch(/^trigger force: record 0 of 64 \(MRD tag \d+ at 0x000100000000/m)
    expect(text.stdout).toMatch(/^reads: 32 paired \(32 done/m)
    expect(text.stdout.split('\n').filter((l) => /^\s+\d+\s+\d+ 0x[0-9a-f]{12}\s+128\s+128\s+1\s+[\d.]+\s+[\d.]+/.test(l))).toHaveLength(32)
    expect(text.stdout).toMatch(/<- trigger$/m)
    expect(text.stdout).toMatch(/^tracker \(the whole run\): 32 reads, 4096 B/m)
    expect(text.stdout).not.toMatch(/^filter /m)

    // a latency trigger names the completion and its read's latency, above the threshold
    const lat = await runCli(
      'trace',
      '--twin',
      '--pattern',
      'merged-aligned',
      '--bytes',
      '64K',
      '--trigger',
      'latency>1.5us',
      '--pre',
      '300',
    )
    expect(lat.code, lat.stderr).toBe(0)
    const m = /^trigger latency>1\.5us: record 300 of \d+ \(CPLD tag \d+, clock \d+\); its read of record (\d+): first ([\d.]+) ns$/m.exec(
      lat.stdout,
    )
    expect(m, lat.stdout.slice(0, 400)).not.toBeNull()
    expect(Number(m![2])).toBeGreaterThan(1500)
    expect(lat.stdout).toMatch(new RegExp(`^\\s+${m![1]}\\s.*<- trigger$`, 'm'))
  }, 30_000)
})
