// The twin as a child process: batch workloads (model-side counts checked against the coalescing
// rules of docs/gpu-coalescing.md), the spec's patterns and limits, and an interactive session
// over its pseudo-terminal and stdin.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { cobsDecode } from '../../../host/src/protocol/cobs.js'
import { crc16 } from '../../../host/src/protocol/crc16.js'
import { parseFrame } from '../../../host/src/protocol/frame.js'
import { COMMANDS, COUNTERS, SNAPSHOT_FLAG, SNAPSHOT_LAYOUT, type CounterKey } from '../../../host/src/core/generated.js'
import { GRAPH_KERNELS, PATTERN_SPECS, PATTERNS, WORKLOAD_LIMITS } from '../../../host/src/core/generated.js'
import { parseTwinLine, type TwinDone } from '../../../host/src/transport/twin-lines.js'
import { SIZE_CLASSES, zeroBySize } from '../../../host/src/core/size-classes.js'
import { encodeFrame } from '../../host/protocol/device-codec.js'

const root = resolve(import.meta.dirname, '../../..')
const twinBin = resolve(root, 'build/twin/pcie-scope-twin')

/** the twin's done line: the contract the host's launcher parses (docs/contracts.md §3) */
type DoneEvent = TwinDone

// ---- frames: the host's own codec (host/src/protocol), so the twin is tested against the same
// implementation of spec/protocol.json that the server uses
const buildFrame = encodeFrame
interface Frame { type: number; seq: number; payload: Buffer }
function parseFrames(bytes: Buffer): Frame[] {
  const frames: Frame[] = []
  let start = 0
  for (let z = bytes.indexOf(0); z !== -1; z = bytes.indexOf(0, start)) {
    const raw = cobsDecode(bytes.subarray(start, z))
    start = z + 1
    if (!raw.ok) continue
    const parsed = parseFrame(raw.data)
    if (parsed.ok) frames.push(parsed.frame)
  }
  return frames
}

// ---- child process helpers
function runBatch(args: string[]): DoneEvent {
  const r = spawnSync(twinBin, args, { encoding: 'utf8', timeout: 120_000 })
  expect(r.status, r.stderr).toBe(0)
  const lines = r.stdout.trim().split('\n')
  expect(lines).toHaveLength(1)
  const parsed = parseTwinLine(lines[0] ?? '')
  if (parsed.kind !== 'done') throw new Error(`not a valid done line: ${lines[0]} (${JSON.stringify(parsed)})`)
  return parsed.line
}

const rejected = (args: string[]): string => {
  const r = spawnSync(twinBin, args, { encoding: 'utf8' })
  expect(r.status, `${args.join(' ')} was accepted`).toBe(2)
  expect(r.stdout).toBe('')
  return r.stderr
}

class Twin {
  readonly child: ChildProcess
  private lines: string[] = []
  private waiters: Array<() => void> = []
  readonly exited: Promise<number | null>
  stderr = ''

  constructor(args: string[] = []) {
    this.child = spawn(twinBin, args, { stdio: ['pipe', 'pipe', 'pipe'] })
    createInterface({ input: this.child.stdout! }).on('line', (l) => {
      this.lines.push(l)
      for (const w of this.waiters.splice(0)) w()
    })
    this.child.stderr!.on('data', (d) => (this.stderr += String(d)))
    this.exited = new Promise((res) => this.child.on('exit', (code) => res(code)))
  }

  async nextEvent(timeoutMs = 30_000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs
    while (this.lines.length === 0) {
      if (Date.now() > deadline) throw new Error(`no event from the twin; stderr: ${this.stderr}`)
      await new Promise<void>((res) => {
        const t = setTimeout(res, 100)
        this.waiters.push(() => { clearTimeout(t); res() })
      })
    }
    return JSON.parse(this.lines.shift()!) as Record<string, unknown>
  }

  send(line: string) {
    this.child.stdin!.write(line + '\n')
  }
}

let live: Twin | undefined
let ptyFd: number | undefined
afterEach(() => {
  if (ptyFd !== undefined) closeSync(ptyFd)
  ptyFd = undefined
  if (live && live.child.exitCode === null) live.child.kill('SIGKILL')
  live = undefined
})

function readAvailable(fd: number): Buffer {
  const buf = Buffer.alloc(4096)
  try {
    return Buffer.from(buf.subarray(0, readSync(fd, buf, 0, buf.length, null)))
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EAGAIN') return Buffer.alloc(0)
    throw e
  }
}

// ---- tests
beforeAll(() => {
  const r = spawnSync(process.execPath, [resolve(root, 'scripts/build-twin.mjs')], { cwd: root, encoding: 'utf8' })
  expect(r.status, r.stdout + r.stderr).toBe(0)
})

describe('twin batch mode (model-side counts)', () => {
  const MiB = 1 << 20

  it('merged-aligned: only 128-B MRds, bytes/128 of them', () => {
    const ev = runBatch(['--run', 'merged-aligned', '--bytes', String(MiB)])
    expect(ev).toMatchObject({ pattern: 'merged-aligned', bytes: MiB, offset: 0, id: 0 })
    expect(ev.mrd.count).toBe(MiB / 128)
    expect(ev.mrd.bySize).toEqual({ ...zeroBySize(), '128': MiB / 128 })
    expect(ev.mrd.bytes).toBe(MiB)
    expect(ev.completions).toBe(ev.mrd.count)
    expect(ev.payloadErrors).toBe(0)
    expect(ev.simCycles).toBeGreaterThanOrEqual(MiB / 64) // 2 beats of 512 bits per 128 B
  })

  it('strided: only 32-B MRds, bytes/32 of them (ideal L1)', () => {
    const ev = runBatch(['--run', 'strided', '--bytes', String(MiB)])
    expect(ev.mrd.count).toBe(MiB / 32)
    expect(ev.mrd.bySize).toEqual({ ...zeroBySize(), '32': MiB / 32 })
    expect(ev.completions).toBe(ev.mrd.count)
    expect(ev.payloadErrors).toBe(0)
  })

  it('merged-misaligned (default offset 32): equal 96-B and 32-B counts', () => {
    const ev = runBatch(['--run', 'merged-misaligned', '--bytes', String(MiB)])
    expect(ev.offset).toBe(32)
    const s = ev.mrd.bySize
    expect(Math.abs(s['96'] - s['32'])).toBeLessThanOrEqual(1)
    expect(s['96'] + s['32']).toBe(ev.mrd.count)
    expect(s['96']).toBeGreaterThanOrEqual(MiB / 128 - 1)
    expect(s['64'] + s['128'] + s.other).toBe(0)
    expect(ev.mrd.bytes).toBe(MiB)
    expect(ev.completions).toBe(ev.mrd.count)
    expect(ev.payloadErrors).toBe(0)
  })

  it('--offset 64 gives 64 + 64 pairs', () => {
    const ev = runBatch(['--run', 'merged-misaligned', '--bytes', '65536', '--offset', '64'])
    expect(ev.mrd.bySize['64']).toBe(2 * 65536 / 128)
    expect(ev.payloadErrors).toBe(0)
  })

  it('--element-bytes and --l1: wider lanes and L1-bypassing loads (docs/gpu-coalescing.md, lane widths)', () => {
    const n = 65536
    const wide = runBatch(['--run', 'merged-misaligned', '--bytes', String(n), '--element-bytes', '16', '--l1', 'bypass'])
    expect(wide).toMatchObject({ offset: 32, elementBytes: 16, l1: 'bypass', payloadErrors: 0 })
    const spans = n / 512 // a 16-B-lane warp instruction covers 512 B: 96 + 3 x 128 + 32 at +32
    expect(wide.mrd.bySize).toEqual({ ...zeroBySize(), '32': spans, '96': spans, '128': 3 * spans })
    expect(wide.completions).toBe(wide.mrd.count)
    const cg = runBatch(['--run', 'strided', '--bytes', String(n), '--element-bytes', '8', '--l1', 'bypass'])
    expect(cg.mrd.bySize['32']).toBe(n / 8) // one 32-B read per 8-B load: L1 does not help
    expect(cg.payloadErrors).toBe(0)
    const cached = runBatch(['--run', 'strided', '--bytes', String(n), '--element-bytes', '8'])
    expect(cached).toMatchObject({ elementBytes: 8, l1: 'ideal' })
    expect(cached.mrd.bySize['32']).toBe(n / 32)
    expect(rejected(['--run', 'strided', '--bytes', '4096', '--offset', '8', '--element-bytes', '16'])).toMatch(/aligned loads/)
    expect(rejected(['--run', 'strided', '--bytes', '4096', '--element-bytes', '2'])).toMatch(/one of 4, 8, 16/)
    expect(rejected(['--run', 'strided', '--bytes', '4096', '--l1', 'cg'])).toMatch(/ideal, bypass/)
  })

  it('--tags and --latency-cycles bound the request rate', () => {
    const fast = runBatch(['--run', 'strided', '--bytes', '65536'])
    const slow = runBatch(['--run', 'strided', '--bytes', '65536', '--tags', '4', '--latency-cycles', '400'])
    expect(slow.mrd.count).toBe(fast.mrd.count)
    expect(slow.payloadErrors).toBe(0)
    // Little's law: 4 requests per ~400 cycles
    expect(slow.simCycles).toBeGreaterThanOrEqual((slow.mrd.count / 4) * 400)
    expect(fast.simCycles).toBeLessThan(slow.simCycles / 10)
  })

  it('the gen3x16 link makes small reads cost more: 128-B lines beat 96+32 pairs beat 32-B reads', () => {
    const n = String(1 << 20)
    const cycles = (pattern: string, link: string) => runBatch(['--run', pattern, '--bytes', n, '--link', link]).simCycles
    const aligned = cycles('merged-aligned', 'gen3x16')
    const misaligned = cycles('merged-misaligned', 'gen3x16')
    const strided = cycles('strided', 'gen3x16')
    expect(aligned).toBeLessThan(misaligned)
    expect(misaligned).toBeLessThan(strided)
    // 128-B reads are wire-bound: 148 wire bytes per 128 payload at 14.21 GB/s = 12.3 GB/s
    const gbps = (1 << 20) / (aligned / 250e6) / 1e9
    expect(gbps).toBeGreaterThan(11.5)
    expect(gbps).toBeLessThan(12.3)
    // without the wire limit the 512-bit datapath (64 B per clock) bounds 128-B reads instead
    expect(cycles('merged-aligned', 'ideal')).toBeLessThan(aligned)
    // a slower link is slower
    expect(cycles('merged-aligned', 'gen2x16')).toBeGreaterThan(aligned)
  })

  it('--model-only drains the traffic model alone: same MRd stream, no simulated cycles', () => {
    const n = String(1 << 20)
    const model = runBatch(['--run', 'merged-misaligned', '--bytes', n, '--model-only'])
    const twin = runBatch(['--run', 'merged-misaligned', '--bytes', n])
    expect(model.mrd).toEqual(twin.mrd)
    expect(model.simCycles).toBe(0)
    expect(model.completions).toBe(0)
  })

  it('--cpl-split 64 answers each 96-B read of a +32 line with a 32-B and a 64-B CplD, every byte checked', () => {
    const whole = runBatch(['--run', 'merged-misaligned', '--bytes', '65536'])
    const split = runBatch(['--cpl-split', '64', '--run', 'merged-misaligned', '--bytes', '65536'])
    expect(whole.completions).toBe(whole.mrd.count)
    // 32..128 crosses the 64-B boundary: two CplDs; 0..32 of the next line stays one
    expect(split.completions).toBe(whole.mrd.count + split.mrd.bySize['96'])
    expect(split.payloadErrors).toBe(0)
    // three headers where there were two: the same bytes take longer on the wire
    expect(split.simCycles).toBeGreaterThan(whole.simCycles)
    expect(runBatch(['--cpl-split', '128', '--run', 'merged-misaligned', '--bytes', '65536']).completions).toBe(whole.mrd.count)
    const r = spawnSync(twinBin, ['--cpl-split', '32'], { encoding: 'utf8' })
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/^pcie-scope-twin: --cpl-split must be 0, 64 or 128\n/)
  })

  it('rejects bad options with a message and exit 2', () => {
    const r = spawnSync(twinBin, ['--run', 'zigzag', '--bytes', '64'], { encoding: 'utf8' })
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/pattern/)
    expect(r.stdout).toBe('')
  })
})

describe('twin graph runs (each kernel launch by launch through the RTL probe)', () => {
  const cache = mkdtempSync(join(tmpdir(), 'ps-twin-graph-'))
  const env = { ...process.env, PCIE_SCOPE_CACHE: cache }
  afterAll(() => rmSync(cache, { recursive: true, force: true }))
  interface GraphDone {
    event: string
    pattern: string
    launches: number
    mrd: { count: number; bySize: Record<string, number>; bytes: number }
    completions: number
    payloadErrors: number
    simCycles: number
  }
  const graphRun = (args: string[]): GraphDone => {
    const r = spawnSync(twinBin, args, { encoding: 'utf8', timeout: 120_000, env })
    expect(r.status, r.stderr).toBe(0)
    return JSON.parse(r.stdout.trim()) as GraphDone
  }

  it('every graph kernel: the probe sees the same MRds as the model, each completed with the right bytes; aligned < merged < naive', () => {
    const counts = GRAPH_KERNELS.map((k) => {
      // BFS on a larger graph (its launches read each list once); the others re-read lists
      const graph = k.startsWith('bfs-') ? 'kron:11:2' : 'kron:9:2'
      const twin = graphRun(['--run', k, '--graph', graph])
      const model = graphRun(['--run', k, '--graph', graph, '--model-only'])
      expect(twin).toMatchObject({ event: 'done', pattern: k, payloadErrors: 0 })
      expect(twin.mrd).toEqual(model.mrd)
      expect(twin.completions).toBe(twin.mrd.count)
      expect(twin.simCycles).toBeGreaterThan(0)
      expect(twin.launches).toBeGreaterThan(1)
      return twin.mrd.count
    })
    const count = (k: string) => counts[GRAPH_KERNELS.indexOf(k as (typeof GRAPH_KERNELS)[number])]!
    for (const algo of ['bfs', 'sssp', 'cc', 'pagerank']) {
      expect(count(`${algo}-aligned`), algo).toBeLessThan(count(`${algo}-merged`))
      expect(count(`${algo}-merged`), algo).toBeLessThan(count(`${algo}-naive`))
    }
  })

  it('stdin: `run ID KERNEL GRAPH` runs a BFS in the interactive twin; a bad graph is an error event and the twin goes on', async () => {
    vi.stubEnv('PCIE_SCOPE_CACHE', cache)
    try {
      const twin = (live = new Twin())
      expect(await twin.nextEvent()).toMatchObject({ event: 'ready' })
      twin.send('run 7 bfs-aligned kron:9:1')
      const done = await twin.nextEvent()
      const batch = graphRun(['--run', 'bfs-aligned', '--graph', 'kron:9:1'])
      expect(done).toMatchObject({ event: 'done', id: 7, pattern: 'bfs-aligned', graph: 'kron:9:1', payloadErrors: 0, mrd: batch.mrd })
      twin.send('run 10 sssp-aligned kron:8:1 4')
      const sssp = await twin.nextEvent()
      const ssspBatch = graphRun(['--run', 'sssp-aligned', '--graph', 'kron:8:1', '--id-bytes', '4'])
      expect(sssp).toMatchObject({ event: 'done', id: 10, pattern: 'sssp-aligned', idBytes: 4, launches: ssspBatch.launches, mrd: ssspBatch.mrd })
      twin.send('run 8 bfs-naive kron:0')
      expect(await twin.nextEvent()).toMatchObject({ event: 'error', message: expect.stringMatching(/^run 8: PS_GRAPH_BAD_SPEC: /) })
      twin.send('run 9 strided 4096 0')
      expect(await twin.nextEvent()).toMatchObject({ event: 'done', id: 9, pattern: 'strided' })
      twin.child.stdin!.end()
      expect(await twin.exited).toBe(0)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('a graph that cannot be loaded is an error event and exit 2; graph options need a graph kernel', () => {
    const r = spawnSync(twinBin, ['--run', 'bfs-aligned', '--graph', 'kron:0'], { encoding: 'utf8', env })
    expect(r.status).toBe(2)
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ event: 'error', message: expect.stringMatching(/^PS_GRAPH_BAD_SPEC: /) })
    expect(rejected(['--run', 'bfs-aligned'])).toMatch(/needs --graph/)
    expect(rejected(['--run', 'strided', '--bytes', '4096', '--graph', 'kron:4'])).toMatch(/need --run with a graph kernel/)
  })
})

describe('twin --mode endpoint --segments (several TLPs per 512-bit beat through the BAR top)', () => {
  const MiB = 1 << 20
  // the BAR top is the endpoint design (the switch is the default)
  const endpoint = ['--mode', 'endpoint']
  const counts = (ev: DoneEvent) => ({ mrd: ev.mrd, completions: ev.completions, payloadErrors: ev.payloadErrors })

  it('--segments 4 gives exactly the MRd and CplD counts of --segments 1 for every pattern, every payload checked', () => {
    for (const p of PATTERN_SPECS) {
      for (const split of ['0', '64']) {
        const args = [...endpoint, '--run', p.name, '--bytes', String(MiB), '--cpl-split', split]
        const one = runBatch(args)
        const four = runBatch([...args, '--segments', '4'])
        expect(one.payloadErrors, `${p.name} split ${split}`).toBe(0)
        expect(counts(four), `${p.name} split ${split}`).toEqual(counts(one))
        expect(four.simCycles, `${p.name} split ${split}`).toBeLessThanOrEqual(one.simCycles)
      }
    }
  })

  it('fewer simulated cycles where the wire allows: 96 + 32-B pairs on an ideal link, 32-B reads at a short latency', () => {
    const misaligned = [...endpoint, '--run', 'merged-misaligned', '--bytes', String(MiB), '--link', 'ideal']
    const a1 = runBatch(misaligned)
    const a4 = runBatch([...misaligned, '--segments', '4'])
    expect(counts(a4)).toEqual(counts(a1))
    // two CplDs of 32 and 96 B take 1 + 2 beats with one segment, 2 beats with four
    expect(a4.simCycles).toBeLessThan(a1.simCycles * 0.75)
    const strided = [...endpoint, '--run', 'strided', '--bytes', String(MiB), '--link', 'ideal', '--latency-cycles', '16']
    const b1 = runBatch(strided)
    const b4 = runBatch([...strided, '--segments', '4'])
    expect(counts(b4)).toEqual(counts(b1))
    // one 32-B CplD per beat, or two; four MRds per beat
    expect(b4.simCycles).toBeLessThan(b1.simCycles * 0.6)
  })

  it('rejects --segments other than 1, 2, 4, and a count this build lacks', () => {
    expect(rejected(['--segments', '3'])).toMatch(/--segments must be 1, 2 or 4/)
    expect(rejected(['--mode', 'switch', '--segments', '3'])).toMatch(/--segments must be 1, 2 or 4/)
    // 2 segments are built only with PS_TWIN_SEGMENTS="2;4", for both tops
    for (const [mode, top] of [
      ['endpoint', 'BAR'],
      ['switch', 'switch'],
    ] as const) {
      const r = spawnSync(twinBin, ['--run', 'strided', '--bytes', '4096', '--mode', mode, '--segments', '2'], { encoding: 'utf8' })
      if (r.status !== 0) expect(r.stderr).toMatch(new RegExp(`--segments 2: this build has no such ${top} top`))
      else expect(JSON.parse(r.stdout.trim().split('\n').pop()!)).toMatchObject({ payloadErrors: 0 })
    }
  })
})

describe('the twin and spec/workloads.json agree', () => {
  it('runs every spec pattern at its default offset, and the done line passes the host schema', () => {
    for (const p of PATTERN_SPECS) {
      const ev = runBatch(['--run', p.name, '--bytes', '4096'])
      expect(ev).toMatchObject({ pattern: p.name, bytes: 4096, offset: p.defaultOffset })
      expect(ev.mrd.bytes).toBe(4096)
    }
  })

  it('accepts exactly the spec patterns: its usage lists them all and nothing else, other names exit 2', () => {
    const help = spawnSync(twinBin, ['--help'], { encoding: 'utf8' }).stdout
    const listed = /PATTERN: ([a-z, -]+)\n/.exec(help)?.[1]?.split(', ')
    expect(listed).toEqual([...PATTERNS])
    for (const name of ['zigzag', 'Strided', 'merged', `${PATTERNS[0]}-x`, '']) {
      expect(rejected(['--run', name, '--bytes', '4096'])).toMatch(/--run needs a pattern: strided, merged-aligned/)
    }
  })

  it('enforces the spec limits on bytes and offset, with the spec rule in the message', () => {
    const { bytes, offset } = WORKLOAD_LIMITS
    const p = PATTERNS[0]
    expect(rejected(['--run', p, '--bytes', String(bytes.max + bytes.multipleOf)])).toContain(`bytes must be a multiple of ${bytes.multipleOf} in ${bytes.min}..${bytes.max}`)
    expect(rejected(['--run', p, '--bytes', String(bytes.min + 1)])).toContain('bytes must be')
    expect(rejected(['--run', p, '--bytes', '4096', '--offset', String(offset.max + offset.multipleOf)])).toContain(`offset must be a multiple of ${offset.multipleOf} in ${offset.min}..${offset.max}`)
    // the smallest workload at the largest offset: one load, one 32-B sector read
    expect(runBatch(['--run', p, '--bytes', String(bytes.min), '--offset', String(offset.max)]).mrd).toMatchObject({ count: 1, bytes: 32 })
  })
})

describe('twin interactive mode (PTY + stdin)', () => {
  it('serves the firmware on a raw PTY, runs workloads from stdin, exits 0 on EOF', async () => {
    const twin = (live = new Twin())
    const ready = await twin.nextEvent()
    // the switch between the GPU and the host model is the default design
    expect(ready).toMatchObject({ event: 'ready', clockHz: 250_000_000, mode: 'switch' })
    expect(String(ready.pty)).toMatch(/^\/dev\/pts\/\d+$/)

    const fd = (ptyFd = openSync(String(ready.pty), constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK))
    // the firmware never speaks first
    await new Promise((r) => setTimeout(r, 300))
    expect(readAvailable(fd).length).toBe(0)

    // PING with a nonce, raw bytes that include a zero, 0x11 and 0x13 (raw PTY: nothing eaten)
    expect(crc16(Buffer.from('123456789'))).toBe(0x29b1)
    const nonce = 0x13110a00
    const args = Buffer.alloc(5)
    args.writeUInt8(1, 0) // PING
    args.writeUInt32LE(nonce, 1)
    writeSync(fd, buildFrame(0x01, 0x1311, args))
    let acc = Buffer.alloc(0)
    await vi.waitFor(() => {
      acc = Buffer.concat([acc, readAvailable(fd)])
      expect(parseFrames(acc).length).toBeGreaterThan(0)
    }, { timeout: 5000, interval: 10 })
    const resp = parseFrames(acc)[0]!
    expect(resp.type).toBe(0x81)
    expect(resp.payload[0]).toBe(1) // cmd PING
    expect(resp.payload[1]).toBe(0) // OK
    expect(resp.payload.readUInt16LE(2)).toBe(0x1311) // request seq
    expect(resp.payload.readUInt32LE(4)).toBe(nonce)

    // a workload from stdin
    twin.send('run 1 merged-aligned 65536 0')
    const done = await twin.nextEvent()
    expect(done).toMatchObject({ event: 'done', id: 1, pattern: 'merged-aligned', bytes: 65536, offset: 0, completions: 512, payloadErrors: 0 })
    expect((done as unknown as DoneEvent).mrd.bySize['128']).toBe(512)

    // a bad line: an error event, and the twin keeps going
    twin.send('bogus')
    expect(await twin.nextEvent()).toMatchObject({ event: 'error' })
    twin.send('run 2 strided 4096 0')
    expect(await twin.nextEvent()).toMatchObject({ event: 'done', id: 2, completions: 128, payloadErrors: 0 })
    // the optional trailing ELEMENT_BYTES and L1: 8-B lanes, L1 bypassed -> one 32-B read per load
    twin.send('run 3 strided 4096 0 8 bypass')
    expect(await twin.nextEvent()).toMatchObject({ event: 'done', id: 3, elementBytes: 8, l1: 'bypass', completions: 512, payloadErrors: 0 })
    twin.send('run 4 strided 4096 8 16')
    expect(await twin.nextEvent()).toMatchObject({ event: 'error' })

    // the firmware still answers while idle
    writeSync(fd, buildFrame(0x01, 2, args))
    acc = Buffer.alloc(0)
    await vi.waitFor(() => {
      acc = Buffer.concat([acc, readAvailable(fd)])
      expect(parseFrames(acc).length).toBeGreaterThan(0)
    }, { timeout: 5000, interval: 10 })
    expect(parseFrames(acc)[0]!.seq).toBe(resp.seq + 1)

    twin.child.stdin!.end()
    expect(await twin.exited).toBe(0)
  })

  it.each([
    [1, 'strided'],
    [4, 'strided'],
    [4, 'merged-misaligned'],
  ])('the firmware reads the probe over AXI while traffic flows: probe counts = model counts (%i segments, %s)', async (segments, pattern) => {
    // one segment: the default design (the switch); more: the BAR top (--mode endpoint)
    const twin = (live = new Twin(segments > 1 ? ['--mode', 'endpoint', '--segments', String(segments), '--latency-cycles', '16'] : []))
    const ready = await twin.nextEvent()
    const fd = (ptyFd = openSync(String(ready.pty), constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK))
    let acc = Buffer.alloc(0)
    const frames: Frame[] = []
    const pump = () => {
      acc = Buffer.concat([acc, readAvailable(fd)])
      const z = acc.lastIndexOf(0)
      if (z >= 0) {
        frames.push(...parseFrames(acc.subarray(0, z + 1)))
        acc = Buffer.from(acc.subarray(z + 1))
      }
    }
    const command = async (seq: number, cmd: number, args: number[] = []) => {
      writeSync(fd, buildFrame(0x01, seq, Buffer.from([cmd, ...args])))
      await vi.waitFor(() => {
        pump()
        expect(frames.some((f) => f.type === 0x81 && f.payload.readUInt16LE(2) === seq)).toBe(true)
      }, { timeout: 5000, interval: 5 })
      const r = frames.find((f) => f.type === 0x81 && f.payload.readUInt16LE(2) === seq)!
      expect(r.payload[1]).toBe(0) // OK
    }
    await command(1, 1, [1, 2, 3, 4]) // PING (hello)
    await command(2, 3, [10, 0]) // START, 10 ms period: counters enabled, snapshots stream
    const MiB = 1 << 20
    twin.send(`run 3 ${pattern} ${4 * MiB} ${pattern === 'strided' ? 0 : 32}`)
    const done = (await twin.nextEvent()) as unknown as DoneEvent
    expect(done).toMatchObject({ event: 'done', id: 3, payloadErrors: 0 })
    pump()
    const streamed = frames.filter((f) => f.type === 0x82).length
    frames.length = 0
    await command(4, 6) // SNAPSHOT on demand: a snapshot, then the reply
    // periodic snapshots taken during the run may still be in the PTY: take the ON_DEMAND one
    const snap = frames.find((f) => f.type === 0x82 && (f.payload[0]! & SNAPSHOT_FLAG.ON_DEMAND) !== 0)!
    expect(snap, 'an ON_DEMAND snapshot before the reply').toBeDefined()
    const counter = (key: CounterKey) =>
      Number(snap.payload.readBigUInt64LE(SNAPSHOT_LAYOUT.fields.counters.offset + 8 * COUNTERS.find((c) => c.key === key)!.index))
    // every size class as the model issued it (the 32- and 96-B ones here, the rest 0)
    for (const c of SIZE_CLASSES) expect(counter(c.counter), c.counter).toBe(done.mrd.bySize[c.key])
    expect(counter('mrdBytes')).toBe(done.mrd.bytes)
    expect(counter('cpldCount')).toBe(done.completions)
    expect(counter('cpldBytes')).toBe(done.mrd.bytes)
    // no UR, no completion without data, no write, nothing poisoned
    expect([counter('barUr'), counter('cplCount'), counter('mwrCount'), counter('mwrBytes'), counter('poisoned')]).toEqual([0, 0, 0, 0, 0])
    // the tracker: every read started and completed by tag, none unexpected, mismatched, lost or reused
    expect(counter('readsStarted')).toBe(done.mrd.count)
    expect(counter('latLastCount')).toBe(done.mrd.count)
    expect(counter('cplUnexpected') + counter('cplMismatch') + counter('readTimeouts') + counter('tagReuse')).toBe(0)
    expect(counter('cycles')).toBeGreaterThanOrEqual(done.simCycles) // CYCLES while enabled
    expect(streamed).toBeGreaterThanOrEqual(1)
    twin.child.stdin!.end()
    expect(await twin.exited).toBe(0)
  })

  it('exits 0 on SIGTERM and on quit', async () => {
    const a = (live = new Twin(['--latency-cycles', '100', '--tags', '32']))
    expect(await a.nextEvent()).toMatchObject({ event: 'ready' })
    a.child.kill('SIGTERM')
    expect(await a.exited).toBe(0)

    const b = (live = new Twin())
    expect(await b.nextEvent()).toMatchObject({ event: 'ready' })
    b.send('run 7 strided 8192 0')
    b.send('quit')
    expect(await b.exited).toBe(0)
  })

  it('queues runs sent back to back and reports each', async () => {
    const t = (live = new Twin())
    expect(await t.nextEvent()).toMatchObject({ event: 'ready' })
    t.send('run 10 strided 8192 0\nrun 11 merged-misaligned 8192 32\nrun 12 merged-aligned 8192 0')
    const ids = []
    for (let i = 0; i < 3; i++) {
      const ev = await t.nextEvent()
      expect(ev).toMatchObject({ event: 'done', payloadErrors: 0 })
      ids.push(ev.id)
    }
    expect(ids).toEqual([10, 11, 12])
    t.child.stdin!.end()
    expect(await t.exited).toBe(0)
  })

  it('stdin `cancel ID` stops a run, drains its reads and answers its done line; a queued run is dropped; bad control lines are named', async () => {
    const t = (live = new Twin())
    expect(await t.nextEvent()).toMatchObject({ event: 'ready' })
    t.send('run 1 strided 1073741824 0\nrun 2 strided 4096 0\ncancel 2')
    expect(await t.nextEvent()).toEqual({
      event: 'error',
      command: 'cancel',
      id: 2,
      message: 'run 2 was cancelled before it started',
    })
    await new Promise((r) => setTimeout(r, 200))
    t.send('cancel 1')
    const done = await t.nextEvent()
    expect(done).toMatchObject({ event: 'done', id: 1, cancelled: true, payloadErrors: 0 })
    const mrd = (done as { mrd: { count: number } }).mrd.count
    expect(mrd).toBeGreaterThan(0)
    expect(mrd).toBeLessThan((1 << 30) / 32)
    expect(done.completions).toBe(mrd) // every read issued before the cancel completed
    t.send('cancel 1\ncancel x\ninject crc 0\ninject flip\ninject skip-seq 2')
    expect(await t.nextEvent()).toEqual({ event: 'error', command: 'cancel', id: 1, message: 'no run 1 is queued or running' })
    expect(await t.nextEvent()).toEqual({ event: 'error', command: 'cancel', message: 'usage: cancel ID' })
    expect(await t.nextEvent()).toMatchObject({ event: 'error', command: 'inject', message: expect.stringMatching(/COUNT/) })
    expect(await t.nextEvent()).toMatchObject({ event: 'error', command: 'inject', message: expect.stringMatching(/unknown fault 'flip'/) })
    expect(await t.nextEvent()).toEqual({ event: 'injected', kind: 'skip-seq', count: 2, seed: 0 })
    // the next run counts exactly, as if nothing had been cancelled
    t.send('run 3 merged-aligned 65536 0')
    expect(await t.nextEvent()).toMatchObject({ event: 'done', id: 3, mrd: { count: 512 }, completions: 512 })
    expect(parseTwinLine(JSON.stringify(done)).kind).toBe('done')
    t.child.stdin!.end()
    expect(await t.exited).toBe(0)
  })
  // LINK_INFO's generation and width come from the link the twin models (its --link), the same
  // the ready line's ceiling is worked out from; ideal reports the fastest generation at x16
  it.each([
    [[], 'gen3x16', 3, 16],
    [['--link', 'gen4x8'], 'gen4x8', 4, 8],
    [['--mode', 'endpoint', '--link', 'gen4x8'], 'gen4x8', 4, 8],
    [['--mode', 'endpoint', '--link', 'gen2x4'], 'gen2x4', 2, 4],
    [['--mode', 'endpoint', '--link', 'ideal'], 'ideal', 5, 16],
  ])('LINK_INFO reports the modelled link (%j): %s', async (args, name, gen, width) => {
    const t = (live = new Twin(args))
    const ready = await t.nextEvent()
    expect((ready.link as { name: string }).name).toBe(name)
    if (name !== 'ideal') expect(ready.link).toMatchObject({ gen, lanes: width })
    const fd = (ptyFd = openSync(String(ready.pty), constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK))
    writeSync(fd, buildFrame(0x01, 7, Buffer.from([COMMANDS.LINK_INFO.id])))
    let acc = Buffer.alloc(0)
    await vi.waitFor(() => {
      acc = Buffer.concat([acc, readAvailable(fd)])
      expect(parseFrames(acc).length).toBeGreaterThan(0)
    }, { timeout: 5000, interval: 10 })
    const r = parseFrames(acc)[0]!
    expect([r.type, r.payload[0], r.payload[1], r.payload.readUInt16LE(2)]).toEqual([0x81, COMMANDS.LINK_INFO.id, 0, 7])
    const field = (n: string) => r.payload[4 + COMMANDS.LINK_INFO.reply.find((f) => f.name === n)!.offset]
    expect([field('linkGen'), field('linkWidth')]).toEqual([gen, width])
    t.child.stdin!.end()
    expect(await t.exited).toBe(0)
  })
})
