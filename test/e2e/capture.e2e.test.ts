/**
 * End to end: the real CLI (compiled) → real twin (Verilated RTL + firmware + traffic model) over
 * a real PTY. The request counts come from the probe's counters read over the UART. Each micro
 * pattern runs in both designs, the switch (the twin's default) and the BAR endpoint, once each.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import type { RunResult } from '../../host/src/measure/run.js'
import type { RecordingDescription } from '../../host/src/recording/catalog.js'
import { COUNTERS, PATTERNS, type PatternName } from '../../host/src/core/generated.js'
import { GPU_CSV_COLUMNS } from '../../host/src/export/csv.js'
import { SIZE_KEYS, zeroBySize } from '../../host/src/core/size-classes.js'
import { TWIN_MODES, type TwinMode } from '../../host/src/core/twin-mode.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const twin = `${root}build/twin/pcie-scope-twin`
const BYTES = 1048576

const env = { ...process.env }
delete env['PCIE_SCOPE_FROM_SOURCE'] // run the compiled CLI
delete env['PCIE_SCOPE_TWIN']

const capture = (...args: string[]): RunResult => {
  const r = spawnSync(process.execPath, ['bin/pcie-scope.mjs', 'capture', '--twin', ...args, '--bytes', String(BYTES), '--json'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 100_000,
    env,
  })
  expect(r.status, `exit ${r.status}; stderr:\n${r.stderr}`).toBe(0)
  const lines = r.stdout.trim().split('\n')
  expect(lines, 'stdout must hold exactly one JSON object').toHaveLength(1)
  return JSON.parse(lines[0]!) as RunResult
}

/**
 * One `capture` run per design and argument list, shared by every test that reads it (each costs a
 * twin's start and a simulated MiB). The switch is the twin's default design: its runs give
 * no --mode, so they also show that the default is the switch.
 */
const runs = new Map<string, RunResult>()
const captureIn = (mode: TwinMode, ...args: string[]): RunResult => {
  const key = JSON.stringify([mode, ...args])
  let r = runs.get(key)
  if (!r) {
    r = mode === 'switch' ? capture(...args) : capture('--mode', mode, ...args)
    expect(r.twinMode, key).toBe(mode)
    runs.set(key, r)
  }
  return r
}
const micro = (mode: TwinMode, pattern: PatternName) => captureIn(mode, '--pattern', pattern)

/**
 * The switch's pipeline (hdl/rtl/switch): a beat from the link enters the receive slice, is routed
 * into the ingress's decision register on the next clock, enters the other port's egress register
 * on the clock its segments are taken, is written into its first-word-fall-through queue on the
 * next and can leave on the one after, four clocks each way: a read's request dn_rx -> up_tx and
 * its completion up_rx -> dn_tx, 8 clocks (32 ns at 250 MHz).
 */
const PIPELINE_CLOCKS = 8
const PIPELINE_NS = (PIPELINE_CLOCKS * 1e9) / 250e6
/** the completer's bare latency as the GPU side sees it: the switch's pipeline on top in switch mode */
const bareNs = (mode: TwinMode, completerNs: number) => completerNs + (mode === 'switch' ? PIPELINE_NS : 0)

const expectCleanLink = (r: RunResult) => {
  expect(r.link.host).toMatchObject({ badFrames: 0, crcErrors: 0, overflows: 0, seqGaps: 0, unknownFrames: 0 })
  expect(r.link.host.frames).toBeGreaterThan(0)
  expect(r.link.firmware).toMatchObject({ rxBadFrames: 0, rxOverflows: 0, unknownCommands: 0, txDropped: 0 })
}

/** The tracker saw every read start and end inside the window, with no completion error. */
const expectCleanReads = (r: RunResult) => {
  expect(r.completions).toMatchObject({ withoutData: 0, byStatus: { ur: 0, ca: 0, other: 0 }, unexpected: 0, mismatch: 0, timeouts: 0 })
  // the GPU model only reads, and nothing is poisoned
  expect(r.writes).toEqual({ count: 0, bytes: 0 })
  expect(r.poisoned).toBe(0)
  expect(r.latencyNs.last.count).toBe(r.requests.count)
  expect(r.latencyNs.first.count).toBe(r.requests.count)
  // Little's law on the probe's own numbers: read rate × mean latency = average outstanding
  expect(Math.abs(r.littlesLaw!.errorPercent)).toBeLessThan(2)
  expect(r.outstanding.peak).toBeLessThanOrEqual(r.outstanding.tagBudget!)
  expect(r.durationNs).toBeCloseTo((r.cycles / r.clockHz) * 1e9, 3)
  // the switch's host side: the same reads, each one completed, Little's law on its own counters
  if (r.twinMode === 'switch') {
    const host = r.hostSide!
    expect(host.latencyNs.last.count).toBe(r.requests.count)
    expect(Math.abs(host.littlesLaw!.errorPercent)).toBeLessThan(2)
    expect(host.outstanding.peak).toBeLessThanOrEqual(r.outstanding.peak)
  } else expect(r.hostSide).toBeUndefined() // the BAR design has one tap
}

const expectModelMatches = (r: RunResult) => {
  expect(r.model.issued.count).toBe(r.requests.count)
  expect(r.model.issued.bySize).toEqual(r.requests.bySize)
  expect(r.model.issued.bytes).toBe(r.bytes.requested)
  expect(r.model.matchesProbe).toBe(true)
  expect(r.model.payloadErrors).toBe(0)
}

// every describe below runs the compiled CLI against the real twin
beforeAll(() => {
  if (!existsSync(twin)) throw new Error(`the twin is not built (${twin}); run \`npm run build:twin\``)
  // compile host/src → dist/host; other modules' type errors must not stop the emit
  spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'ignore' })
  if (!existsSync(`${root}dist/host/cli/main.js`)) throw new Error('`tsc -p tsconfig.build.json` produced no dist/host/cli/main.js')
})

describe.each(TWIN_MODES)('pcie-scope capture --twin, the micro patterns in %s mode (e2e)', (mode) => {
  it('merged-aligned: only 128-B requests, exactly bytes/128', () => {
    const r = micro(mode, 'merged-aligned')
    expect(r).toMatchObject({ source: 'twin', pattern: 'merged-aligned', offset: 0 })
    expect(r.requests.bySize).toEqual({ ...zeroBySize(), '128': BYTES / 128 })
    expect(r.requests.count).toBe(BYTES / 128)
    expect(r.bytes.requested).toBe(BYTES)
    expect(r.bytes.completed).toBe(BYTES)
    expect(r.completions).toMatchObject({ count: BYTES / 128, bytes: BYTES, withoutData: 0 })
    expect(r.cycles).toBeGreaterThan(0)
    expect(r.seconds).toBeCloseTo(r.cycles / r.clockHz, 12)
    expectModelMatches(r)
    expectCleanLink(r)
  })

  it('strided: only 32-B requests, exactly bytes/32', () => {
    const r = micro(mode, 'strided')
    expect(r.requests.bySize).toEqual({ ...zeroBySize(), '32': BYTES / 32 })
    expect(r.requests.count).toBe(BYTES / 32)
    expect(r.bytes.requested).toBe(BYTES)
    expectModelMatches(r)
    expectCleanLink(r)
  })

  it('merged-misaligned (default offset 32): 32-B and 96-B requests in equal numbers apart from the ends', () => {
    const r = micro(mode, 'merged-misaligned')
    expect(r).toMatchObject({ pattern: 'merged-misaligned', offset: 32 })
    const b = r.requests.bySize
    for (const k of SIZE_KEYS) if (k !== '32' && k !== '96') expect(b[k], k).toBe(0)
    expect(Math.abs(b['32'] - b['96'])).toBeLessThanOrEqual(1)
    expect(b['32'] + b['96']).toBeGreaterThanOrEqual((2 * BYTES) / 128 - 1)
    expect(b['32'] + b['96']).toBeLessThanOrEqual((2 * BYTES) / 128 + 1)
    expect(b['32'] * 32 + b['96'] * 96).toBe(BYTES)
    expect(r.bytes.requested).toBe(BYTES)
    expectModelMatches(r)
    expectCleanLink(r)
  })

  it('every pattern obeys Little’s law on the probe’s counters; 32-B reads hold the tag pool full; 128-B reads are wire-bound', () => {
    const strided = micro(mode, 'strided')
    const aligned = micro(mode, 'merged-aligned')
    const misaligned = micro(mode, 'merged-misaligned')
    for (const r of [strided, aligned, misaligned]) expectCleanReads(r)
    // in switch mode the host side is what the completer sees; the GPU side adds the switch
    const completerSide = (r: RunResult) => (mode === 'switch' ? r.hostSide! : r)
    expect(strided.outstanding.tagBudget).toBe(256)
    // tag-bound: at least 85 % of the budget in flight (on both sides of the switch), every read
    // taking the bare 1 µs completer latency (plus the switch's 32 ns on the GPU side)
    for (const r of [strided, completerSide(strided)]) expect(r.outstanding.avg).toBeGreaterThan(0.85 * 256)
    expect(strided.latencyNs.last.min).toBe(bareNs(mode, 1000))
    expect(strided.latencyNs.last.mean).toBeLessThan(bareNs(mode, 1010))
    expect(completerSide(strided).latencyNs.last.min).toBe(1000)
    expect(strided.rates.gbPerSecond).toBeLessThan(0.95 * strided.pcie.ceilingGbPerSecond!)
    // wire-bound: the payload sits at the ceiling with the tags well below the budget (the
    // completer's 16-KiB buffer holds 128 reads of 128 B; the rest wait in the GPU, and in switch
    // mode some in the switch's upstream non-posted queue, which the GPU side counts in flight), the mean
    // latency at the completer a queue's wait above the bare 1 µs
    const completer = completerSide(aligned)
    expect(completer.latencyNs.last.min).toBe(1000)
    expect(completer.latencyNs.last.mean).toBeGreaterThan(1100)
    expect(completer.latencyNs.last.mean).toBeLessThan(1500)
    expect(completer.outstanding.peak).toBeLessThanOrEqual(128)
    expect(aligned.outstanding.avg).toBeLessThan(0.6 * 256)
    expect(aligned.rates.gbPerSecond).toBeGreaterThan(0.95 * aligned.pcie.ceilingGbPerSecond!)
  })

  it('a longer completion latency lowers a tag-bound rate as Little’s law predicts', () => {
    const fast = micro(mode, 'strided') // the twin's default latency: 250 clocks, 1 µs
    const slow = captureIn(mode, '--pattern', 'strided', '--latency-ns', '2000')
    for (const r of [fast, slow]) expectCleanReads(r)
    expect([fast.latencyNs.last.min, slow.latencyNs.last.min]).toEqual([bareNs(mode, 1000), bareNs(mode, 2000)])
    // rate = outstanding / latency: twice the latency at the same occupancy halves the rate
    const predicted = (slow.outstanding.avg / fast.outstanding.avg) * (fast.latencyNs.last.mean! / slow.latencyNs.last.mean!)
    expect(slow.rates.mrdPerSecond / fast.rates.mrdPerSecond).toBeCloseTo(predicted, 2)
    expect(slow.rates.mrdPerSecond / fast.rates.mrdPerSecond).toBeLessThan(0.55)
  })
})

describe('pcie-scope capture --twin: switch mode against endpoint mode (e2e)', () => {
  it('the reads cross the switch RTL and the probe counts what endpoint mode counts, pattern by pattern', () => {
    for (const pattern of PATTERNS) {
      const ep = micro('endpoint', pattern)
      const sw = micro('switch', pattern)
      // the same workload, the same MRd histogram, bytes and completions
      expect(sw.requests).toEqual(ep.requests)
      expect(sw.bytes).toEqual(ep.bytes)
      expect(sw.completions.count).toBe(ep.completions.count)
      expect(sw.completions.bytes).toBe(ep.completions.bytes)
      // the host-side tap: the same reads and sizes, the host's latency without the switch's traversal
      const host = sw.hostSide!
      expect(host.requests).toEqual(sw.requests)
      expect(host.bytes).toEqual(sw.bytes)
      expect(host.completions).toEqual(sw.completions)
      const nsPerClock = 1e9 / sw.clockHz
      const delay = (sw.latencyNs.last.mean! - host.latencyNs.last.mean!) / nsPerClock
      const shown = `${pattern}: GPU side ${sw.latencyNs.last.mean} ns, host side ${host.latencyNs.last.mean} ns`
      // wire-bound 128-B reads (merged-aligned; merged-chunked, whose warp reads both parts of a
      // split line within the GPU's merge window) also wait in the switch's upstream non-posted
      // queue while the host's completion buffer is full (up_tx_np_ok low, no non-posted credit):
      // the GPU side sees that wait, the host side does not
      if (pattern === 'merged-aligned' || pattern === 'merged-chunked') expect(delay, shown).toBeGreaterThan(PIPELINE_CLOCKS + 8)
      else expect(Math.abs(delay - PIPELINE_CLOCKS), shown).toBeLessThanOrEqual(1)
      // the host side's latency is the completer's, as in endpoint mode
      expect(host.latencyNs.last.min).toBe(ep.latencyNs.last.min)
    }
  })

  it('--segments 4 (endpoint mode: up to four TLPs per beat) counts what one segment counts; --tags sets the budget the GPU model issues from', () => {
    const one = micro('endpoint', 'merged-misaligned')
    const four = captureIn('endpoint', '--pattern', 'merged-misaligned', '--segments', '4')
    for (const r of [one, four]) expectCleanReads(r)
    expect(four.requests).toEqual(one.requests)
    expect(four.bytes).toEqual(one.bytes)
    expect(four.completions.count).toBe(one.completions.count)
    const small = captureIn('switch', '--pattern', 'strided', '--tags', '64')
    expectCleanReads(small)
    expect(small.outstanding.tagBudget).toBe(64)
    expect(small.outstanding.peak).toBe(64)
    expect(small.outstanding.avg).toBeGreaterThan(0.85 * 64)
  })

  it('split completions keep every read whole: 96-B reads as 32 + 64 B at a 64-B boundary (the host model splits)', () => {
    const r = captureIn('switch', '--pattern', 'merged-misaligned', '--cpl-split', '64')
    expectCleanReads(r)
    expect(r.completions.count).toBe(r.requests.count + r.requests.bySize['96'])
    expect(r.hostSide!.completions.count).toBe(r.completions.count)
    expect(r.bytes.completed).toBe(BYTES)
  })
})

describe('pcie-scope capture --twin: rates against the link ceiling (e2e)', () => {
  it('merged 128-B lines nearly saturate a gen3x16 link; 32-B reads move less and stall on the tag budget', () => {
    const aligned = micro('switch', 'merged-aligned') // gen3x16, the twin's default link
    const strided = captureIn('switch', '--pattern', 'strided', '--link', 'gen3x16', '--latency-cycles', '400')
    for (const r of [aligned, strided]) {
      expect(r.pcie.link).toBe('gen3x16')
      expect(r.pcie.tlpGbPerSecond).toBeCloseTo(14.21, 1)
      expect(r.rates.gbPerSecond).toBeLessThanOrEqual(r.pcie.ceilingGbPerSecond!)
    }
    // 128-B completions: 148 wire bytes per 128 payload → 12.3 GB/s; the twin reaches ≥ 90 % of it
    expect(aligned.pcie.ceilingGbPerSecond).toBeCloseTo(12.29, 1)
    expect(aligned.rates.gbPerSecond).toBeGreaterThan(0.9 * aligned.pcie.ceilingGbPerSecond!)
    // 32-B completions: ceiling 8.7 GB/s, but 256 tags over a 1.6 µs round trip allow ≈ 5.1 GB/s
    expect(strided.pcie.ceilingGbPerSecond).toBeCloseTo(8.75, 1)
    expect(strided.rates.gbPerSecond).toBeLessThan(0.7 * strided.pcie.ceilingGbPerSecond!)
    expect(aligned.rates.gbPerSecond).toBeGreaterThan(2 * strided.rates.gbPerSecond)
  })

  it('an ideal link lifts the wire limit: no ceiling, and 128-B reads run faster than on gen3x16', () => {
    const ideal = captureIn('switch', '--pattern', 'merged-aligned', '--link', 'ideal')
    expect(ideal.pcie).toEqual({ link: 'ideal', tlpGbPerSecond: null, ceilingGbPerSecond: null })
    expect(ideal.rates.gbPerSecond).toBeGreaterThan(13)
  })

  it('rejects a link it cannot model with a usage error', () => {
    const r = spawnSync(
      process.execPath,
      ['bin/pcie-scope.mjs', 'capture', '--twin', '--pattern', 'strided', '--link', 'gen6x16', '--json'],
      {
        cwd: root,
        encoding: 'utf8',
        env,
      },
    )
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/genGxL/)
    expect(r.stdout).toBe('')
  })
})

describe('pcie-scope capture --out, info, export (e2e)', () => {
  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, ['bin/pcie-scope.mjs', ...args], { cwd: root, encoding: 'utf8', timeout: 100_000, env })
    expect(r.status, `pcie-scope ${args.join(' ')}: exit ${r.status}; stderr:\n${r.stderr}`).toBe(0)
    return r
  }

  it('records a twin capture (the default design: the switch, both taps), describes it and exports its snapshots as CSV', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ps-e2e-recordings-')), 'aligned-64k')
    try {
      const c = cli('capture', '--twin', '--pattern', 'merged-aligned', '--bytes', '65536', '--out', dir, '--json')
      const result = JSON.parse(c.stdout) as RunResult
      expect(result.requests.bySize['128']).toBe(65536 / 128)
      expect(c.stderr).toContain(`recording into ${dir}`)

      const info = JSON.parse(cli('info', dir, '--json').stdout) as RecordingDescription
      expect(info).toMatchObject({ name: 'aligned-64k', status: 'complete', source: 'twin', runs: 1 })
      expect(info.workloads).toEqual([{ pattern: 'merged-aligned', bytes: 65536, offset: 0 }])
      expect(info.byType).toMatchObject({ 'run-start': 1, run: 1, device: 1 })
      expect(info.byType.snapshot).toBeGreaterThanOrEqual(2) // the baseline and the final snapshot at least
      expect(result.twinMode).toBe('switch')
      const hostRows = info.byType['tap-snapshot'] ?? 0
      expect(hostRows).toBeGreaterThanOrEqual(1) // the switch's host side, recorded with them
      expect(info.read).toMatchObject({ torn: 0, invalid: 0, unknown: 0 })
      expect(info.manifest.probe).toMatchObject({ probeId: 0x50435343, clockHz: result.clockHz })
      expect(info.manifest.link?.name).toBe('gen3x16')

      const csv = cli('export', dir, '--format', 'csv').stdout.trimEnd().split('\n')
      const header = csv[0]!.split(',')
      expect(header).toEqual(['time_s', ...COUNTERS.map((k) => k.name), 'tap', 'epoch', ...GPU_CSV_COLUMNS])
      // a row per snapshot (gpuSide), each host-side snapshot a hostSide row after its own
      expect(csv).toHaveLength(1 + info.byType.snapshot + hostRows)
      const all = csv.slice(1).map((line) => line.split(','))
      const tap = header.indexOf('tap')
      expect(all.filter((r) => r[tap] === 'hostSide')).toHaveLength(hostRows)
      const rows = all.filter((r) => r[tap] === 'gpuSide')
      const col = (row: string[], name: string) => Number(row[header.indexOf(name)])
      // the snapshot the result was read from is a row (a streamed one may still follow it)
      const final = rows.find((r) => col(r, 'TIMESTAMP') === result.probeWindow.to)
      expect(final, 'the final snapshot in the CSV').toBeDefined()
      expect(col(final!, 'MRD_128')).toBe(65536 / 128)
      expect(col(final!, 'MRD_BYTES')).toBe(65536)
      expect(col(final!, 'CYCLES')).toBe(result.cycles)
      expect(col(final!, 'time_s')).toBeCloseTo(result.probeWindow.to / result.clockHz, 9)
      expect(col(rows.at(-1)!, 'MRD_128')).toBe(65536 / 128)
      expect(col(rows[0]!, 'CYCLES')).toBe(0) // the baseline of the cleared counters

      const trace = JSON.parse(cli('export', dir, '--format', 'perfetto').stdout) as { traceEvents: { ph: string; name: string }[] }
      expect(trace.traceEvents.filter((e) => e.ph === 'X').map((e) => e.name)).toEqual(['merged-aligned 65536 B'])
      expect(trace.traceEvents.some((e) => e.ph === 'C' && e.name === 'MRd rate')).toBe(true)
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true })
    }
  })

  it('capture --jsonl --out --frames on the twin: live records, then SQL over them and a pcapng of the link', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ps-e2e-recordings-')), 'live')
    try {
      const c = cli('capture', '--twin', '--pattern', 'merged-aligned', '--sample-us', '8', '--jsonl', '--out', dir, '--frames')
      const lines = c.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { t: string; batch?: { records: unknown[] }; result?: RunResult })
      expect(lines[0]!.t).toBe('device')
      expect(lines.at(-1)!.t).toBe('run')
      const result = lines.at(-1)!.result!
      expect(result.requests.bySize['128']).toBe(BYTES / 128)
      const samples = lines.filter((l) => l.t === 'interval').reduce((n, l) => n + l.batch!.records.length, 0)
      expect(samples).toBeGreaterThan(0)

      const q = JSON.parse(cli('query', dir, '--json', 'select count(*) as n, sum(mrd_count) as reads from intervals').stdout) as {
        rows: [number, number][]
      }
      expect(q.rows[0]![0]).toBe(samples) // the records streamed are the records kept
      expect(q.rows[0]![1]).toBeGreaterThan(0)
      expect(q.rows[0]![1]).toBeLessThanOrEqual(BYTES / 128)

      const pcap = join(dir, '..', 'link.pcapng')
      cli('export', dir, '--format', 'pcapng', '-o', pcap)
      const t = spawnSync(
        'tshark',
        [
          '-X',
          `lua_script:${root}wireshark/pcie_scope.lua`,
          '-r',
          pcap,
          '-Y',
          'pcie_scope.type == 0x83',
          '-T',
          'fields',
          '-e',
          'pcie_scope.interval.count',
        ],
        {
          encoding: 'utf8',
          timeout: 100_000,
        },
      )
      expect(t.status, t.stderr).toBe(0)
      expect(
        t.stdout
          .trim()
          .split('\n')
          .reduce((n, v) => n + Number(v), 0),
      ).toBe(samples)
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true })
    }
  })
})
