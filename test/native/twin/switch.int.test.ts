// The twin in switch mode (its default design; --mode endpoint for the BAR endpoint): the host model's enumeration through the switch RTL
// reads back what it programmed, a configuration target beyond the subordinate bus gets UR and
// is counted by the switch, the micro patterns give the endpoint mode's MRd counts with every
// completion byte checked (at 1 TLP segment per beat and at 4), and `pcie-scope topology --twin`
// prints the tree.
import { spawn, spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { beforeAll, describe, expect, it } from 'vitest'
import { SWITCH_COUNTERS, SWITCH_IDS } from '../../../host/src/core/generated.js'
import { main } from '../../../host/src/cli/main.js'
import { parseTwinLine, TopologySchema, type TwinDone, type TwinReadyLine } from '../../../host/src/transport/twin-lines.js'

const root = resolve(import.meta.dirname, '../../..')
const twinBin = resolve(root, 'build/twin/pcie-scope-twin')
const UR = SWITCH_COUNTERS.indexOf('UR')
const CFG_LOCAL = SWITCH_COUNTERS.indexOf('CFG_LOCAL')

beforeAll(() => {
  const r = spawnSync(process.execPath, [resolve(root, 'scripts/build-twin.mjs')], { cwd: root, encoding: 'utf8' })
  expect(r.status, r.stdout + r.stderr).toBe(0)
})

/** Starts the twin, sends the stdin lines one at a time after the ready line, collects one reply per line. */
async function session(args: string[], commands: string[]): Promise<{ ready: TwinReadyLine; replies: Record<string, unknown>[] }> {
  const child = spawn(twinBin, args, { stdio: ['pipe', 'pipe', 'pipe'] })
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  try {
    const first = await lines.next()
    const parsed = parseTwinLine(String(first.value))
    if (parsed.kind !== 'ready') throw new Error(`no ready line: ${String(first.value)}`)
    const replies: Record<string, unknown>[] = []
    for (const c of commands) {
      child.stdin.write(c + '\n')
      replies.push(JSON.parse(String((await lines.next()).value)) as Record<string, unknown>)
    }
    return { ready: parsed.line, replies }
  } finally {
    child.stdin.end()
    child.kill('SIGTERM')
  }
}

function batch(args: string[], env: NodeJS.ProcessEnv = process.env): TwinDone {
  const r = spawnSync(twinBin, args, { encoding: 'utf8', timeout: 120_000, env })
  expect(r.status, r.stderr).toBe(0)
  const parsed = parseTwinLine(r.stdout.trim())
  if (parsed.kind !== 'done') throw new Error(`not a done line: ${r.stdout}`)
  return parsed.line
}

describe('twin --mode switch: enumeration through the switch RTL', () => {
  it('reads back the bus numbers, windows and BAR it programmed (the default design: no --mode)', async () => {
    const { ready } = await session([], [])
    expect(ready.mode).toBe('switch')
    const t = TopologySchema.parse(ready.topology)
    if (!t.found) throw new Error(t.problem)
    expect(t.readbackMismatches).toBe(0)
    expect(t.root).toMatchObject({ secondary: 1, subordinate: 3 })
    const [up, down, gpu] = t.functions
    if (up?.role !== 'upstream-port' || down?.role !== 'downstream-port' || gpu?.role !== 'endpoint') throw new Error('tree shape')
    expect(up).toMatchObject({ bus: 1, vendorId: SWITCH_IDS.vendorId, deviceId: SWITCH_IDS.upstreamDeviceId, classCode: SWITCH_IDS.classCode, command: 6 })
    expect(down).toMatchObject({ bus: 2, vendorId: SWITCH_IDS.vendorId, deviceId: SWITCH_IDS.downstreamDeviceId, command: 6 })
    expect(up.buses).toEqual({ primary: 1, secondary: 2, subordinate: 3 })
    expect(down.buses).toEqual({ primary: 2, secondary: 3, subordinate: 3 })
    // gen3x16 (the twin's default link) mirrored into both ports' Link Capabilities / Status
    expect(up.link).toEqual({ speed: 3, width: 16, maxSpeed: 3, maxWidth: 16 })
    expect(gpu).toMatchObject({ bus: 3, vendorId: 0x10de, classCode: 0x030200, headerType: 0, command: 6 })
    const bar = gpu.bars[0]!
    expect(bar).toMatchObject({ index: 0, bits: 64, prefetchable: true, size: 256 * 2 ** 20 })
    for (const port of [up, down]) {
      expect(port.windows.memory).toBeNull() // no 32-bit BAR below: closed
      expect(port.windows.prefetchable).toEqual({ base: bar.base, limit: bar.base + bar.size - 1 })
    }
    // the internal bus scanned like an operating system: 31 device numbers answer UR
    expect(t.absentDevices).toBe(31)
  })

  it('a configuration read beyond the subordinate bus gets UR, counted by the upstream port', async () => {
    const { replies } = await session(['--mode', 'switch'], ['cfg-read 03:00.0 0', 'cfg-read 04:00.0 0', 'cfg-read 01:00.0 6'])
    const [gpu, beyond, busNumbers] = replies as Array<{ status: string; data: number; type: number; fates: { up: number[]; down: number[] } }>
    expect(gpu!.status).toBe('SC')
    expect(gpu!.data & 0xffff).toBe(0x10de)
    expect(beyond).toMatchObject({ status: 'UR', type: 1, data: 0xffffffff })
    expect(beyond!.fates.up[UR]).toBe(gpu!.fates.up[UR]! + 1)
    expect(beyond!.fates.down[UR]).toBe(0)
    expect(busNumbers).toMatchObject({ status: 'SC', type: 0, data: 0x030201 })
    expect(busNumbers!.fates.up[CFG_LOCAL]).toBe(beyond!.fates.up[CFG_LOCAL]! + 1)
  })
})

describe('twin --mode switch: the micro patterns and the completer settings', () => {
  it.each(['strided', 'merged-aligned', 'merged-misaligned'])('%s: the MRd histogram of endpoint mode, 0 payload errors', (pattern) => {
    for (const split of ['0', '64']) {
      const args = ['--run', pattern, '--bytes', String(1 << 20), '--cpl-split', split]
      const endpoint = batch(['--mode', 'endpoint', ...args])
      const sw = batch(['--mode', 'switch', ...args])
      expect(sw.mrd).toEqual(endpoint.mrd)
      expect(sw.completions).toBe(endpoint.completions)
      expect(sw.payloadErrors).toBe(0)
      expect(endpoint.payloadErrors).toBe(0)
    }
  })

  it('--latency-dist: the host model draws each read\'s latency as the BAR responder does (same LFSR, same seed)', () => {
    const args = ['--run', 'strided', '--bytes', '65536', '--latency-dist', 'uniform:1000:3000']
    const endpoint = batch(['--mode', 'endpoint', ...args])
    const sw = batch(args)
    const fixed = batch(['--run', 'strided', '--bytes', '65536', '--latency-ns', '1000'])
    expect(sw.mrd).toEqual(endpoint.mrd)
    expect(sw.payloadErrors).toBe(0)
    // a mean of 2 us instead of 1 us with the same tags in flight: the run takes about twice as long
    expect(sw.simCycles).toBeGreaterThan(1.6 * fixed.simCycles)
    // the same draws, in the same order: the switch adds only its pipeline to the endpoint's time
    expect(Math.abs(sw.simCycles - endpoint.simCycles)).toBeLessThan(0.02 * endpoint.simCycles)
  })

  it.each(['strided', 'merged-misaligned'])(
    '%s at 4 segments: the histogram, completions and 0 payload errors of 1 segment and of endpoint mode',
    (pattern) => {
      for (const split of ['0', '64']) {
        const args = ['--run', pattern, '--bytes', String(1 << 20), '--cpl-split', split]
        const endpoint = batch(['--mode', 'endpoint', ...args])
        const sw1 = batch(['--mode', 'switch', ...args])
        const sw4 = batch(['--mode', 'switch', '--segments', '4', ...args])
        expect(sw4.mrd).toEqual(sw1.mrd)
        expect(sw4.mrd).toEqual(endpoint.mrd)
        expect(sw4.completions).toBe(sw1.completions)
        expect(sw4.completions).toBe(endpoint.completions)
        expect(sw4.payloadErrors).toBe(0)
      }
    },
  )

  it('at 4 segments on an ideal link: no clock more than the endpoint at 4 segments but the traversal, about half those of 1 segment', () => {
    const args = ['--run', 'strided', '--bytes', String(1 << 20), '--link', 'ideal', '--latency-cycles', '16']
    const endpoint4 = batch(['--mode', 'endpoint', '--segments', '4', ...args])
    const sw1 = batch(['--mode', 'switch', ...args])
    const sw4 = batch(['--mode', 'switch', '--segments', '4', ...args])
    expect(sw4.mrd).toEqual(endpoint4.mrd)
    expect(sw4.payloadErrors).toBe(0)
    // four MRds per beat up, two 32-B CplDs per beat down: the switch passes them without a bubble
    expect(sw4.simCycles).toBeGreaterThanOrEqual(endpoint4.simCycles)
    expect(sw4.simCycles).toBeLessThanOrEqual(endpoint4.simCycles + 8)
    expect(sw4.simCycles).toBeLessThan(sw1.simCycles * 0.6)
  })
})

describe('one evaluation a clock (native/twin/rtl): nothing the skipped evaluation would show', () => {
  // PS_TWIN_CHECK_SETTLE=1 makes the evaluation each mode skips and stops the twin (exit 3) if it
  // changes an output; the cases cover the host model's np_ok falling (a 3-us latency fills its
  // completion buffer), split completions with jitter, and several TLPs per beat
  const cases = [
    ['--run', 'merged-aligned', '--bytes', '262144', '--latency-ns', '3000'],
    ['--run', 'merged-misaligned', '--bytes', '131072', '--cpl-split', '64', '--latency-dist', 'uniform:800:1600'],
    ['--run', 'strided', '--bytes', '32768', '--tags', '32'],
  ]
  it.each(['switch', 'endpoint'])('%s mode at 1 and 4 segments: the checked runs pass and equal the unchecked ones', (mode) => {
    const check = { ...process.env, PS_TWIN_CHECK_SETTLE: '1' }
    for (const segments of ['1', '4']) {
      for (const args of cases) {
        const all = ['--mode', mode, '--segments', segments, ...args]
        const checked = batch(all, check)
        const plain = batch(all)
        expect({ ...checked, wallSeconds: 0 }).toEqual({ ...plain, wallSeconds: 0 })
        expect(checked.payloadErrors).toBe(0)
      }
    }
  })
})

describe('pcie-scope topology --twin', () => {
  const cli = async (args: string[]) => {
    let out = ''
    let err = ''
    const code = await main(['node', 'pcie-scope', ...args], { stdout: (s) => (out += s), stderr: (s) => (err += s) })
    return { code, out, err }
  }

  it('prints the tree like lspci -tv, with IDs, class, link, BARs and windows', async () => {
    const { code, out, err } = await cli(['topology', '--twin'])
    expect(code, err).toBe(0)
    expect(out).toMatch(/^-\[0000:00\]---01\.0-\[01-03\]----00\.0-\[02-03\]----00\.0-\[03\]----00\.0 {2}3D controller \[0302\]: NVIDIA device \[10de:2335\]\n/)
    expect(out).toContain('01:00.0 PCI bridge [0604]: Xilinx device [10ee:9c51]')
    expect(out).toContain('LnkCap: 8GT/s x16  LnkSta: 8GT/s x16')
    expect(out).toContain('Bus: primary=02, secondary=03, subordinate=03')
    expect(out).toContain('Prefetchable memory behind bridge: 3800000000-380fffffff [size=256M]')
    expect(out).toContain('Region 0: Memory at 3800000000 (64-bit, prefetchable) [size=256M]')
  })

  it('--json prints the twin\'s topology as one object', async () => {
    const { code, out } = await cli(['topology', '--twin', '--json'])
    expect(code).toBe(0)
    const t = TopologySchema.parse(JSON.parse(out))
    expect(t.found && t.functions.map((f) => f.role)).toEqual(['upstream-port', 'downstream-port', 'endpoint'])
  })

  it('without --twin it is a usage error', async () => {
    expect((await cli(['topology'])).code).toBe(2)
  })
})
