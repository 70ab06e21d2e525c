/**
 * The TLP trace's pcapng read back by tshark with the generated dissector
 * (wireshark/pcie_scope.lua, protocol pcie_scope_tlp on DLT_USER1): a synthetic trace with every
 * header form, and a real twin trace as `pcie-scope trace --out` writes it (needs
 * `npm run build:twin`), each packet's decoded fields checked against the record.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { TraceReport } from '../../../host/src/cli/trace.js'
import { decodeTraceRecord, type TraceRecord } from '../../../host/src/core/trace.js'
import type { TraceEvent } from '../../../host/src/export/perfetto.js'
import { tracePcapng } from '../../../host/src/export/trace-pcapng.js'
import { runCli } from '../cli/run-cli.js'
import { CLOCK_HZ, syntheticTrace } from './trace-fixtures.js'

const root = join(import.meta.dirname, '../../..')
const DISSECTOR = join(root, 'wireshark/pcie_scope.lua')
const twinBuilt = existsSync(join(root, 'build/twin/pcie-scope-twin'))

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'ps-trace-pcapng-'))
  dirs.push(d)
  return d
}

const FIELDS = [
  'frame.encap_type',
  'frame.time_epoch',
  'frame.comment',
  'frame.packet_flags_direction',
  '_ws.col.Protocol',
  'pcie_scope_tlp.kind',
  'pcie_scope_tlp.length',
  'pcie_scope_tlp.tag',
  'pcie_scope_tlp.requester_id',
  'pcie_scope_tlp.address',
  'pcie_scope_tlp.status',
  'pcie_scope_tlp.byte_count',
  'pcie_scope_tlp.lower_address',
  'pcie_scope_tlp.clock',
  'pcie_scope_tlp.segment',
  'pcie_scope_tlp.stream',
  'pcie_scope_tlp.tap',
  '_ws.expert.message',
] as const
type Row = Record<(typeof FIELDS)[number], string>

const rows = (file: string): Row[] => {
  const r = spawnSync(
    'tshark',
    ['-X', `lua_script:${DISSECTOR}`, '-r', file, '-T', 'fields', '-E', 'separator=|', ...FIELDS.flatMap((f) => ['-e', f])],
    { encoding: 'utf8', timeout: 60_000 },
  )
  if (r.error) throw new Error(`tshark did not run (apt-get install tshark): ${r.error.message}`)
  expect(r.status, r.stderr).toBe(0)
  expect(r.stderr).not.toMatch(/Lua: Error|lua_script/i)
  return r.stdout
    .trimEnd()
    .split('\n')
    .map((l) => Object.fromEntries(FIELDS.map((f, i) => [f, l.split('|')[i] ?? ''])) as Row)
}

const KINDS = ['MRD', 'MWR', 'CPLD', 'CPL', 'OTHER']
const num = (s: string) => (s === '' ? undefined : Number(s))

/** Every decoded field of each packet against the record it came from. */
const checkRows = (got: Row[], records: TraceRecord[], triggerIndex: number | undefined, clockHz: number) => {
  expect(got).toHaveLength(records.length)
  got.forEach((row, i) => {
    const r = records[i]!
    const memory = r.kind === 'MRD' || r.kind === 'MWR'
    const cpl = r.kind === 'CPLD' || r.kind === 'CPL'
    expect(
      {
        encap: row['frame.encap_type'],
        proto: row['_ws.col.Protocol'],
        kind: KINDS[Number(row['pcie_scope_tlp.kind'])],
        length: num(row['pcie_scope_tlp.length']),
        tag: num(row['pcie_scope_tlp.tag']),
        rid: num(row['pcie_scope_tlp.requester_id']),
        address: num(row['pcie_scope_tlp.address']),
        status: num(row['pcie_scope_tlp.status']),
        byteCount: num(row['pcie_scope_tlp.byte_count']),
        lowerAddress: num(row['pcie_scope_tlp.lower_address']),
        clock: num(row['pcie_scope_tlp.clock']),
        segment: num(row['pcie_scope_tlp.segment']),
        stream: num(row['pcie_scope_tlp.stream']),
        tap: num(row['pcie_scope_tlp.tap']),
        direction: num(row['frame.packet_flags_direction']),
        comment: row['frame.comment'],
        expert: row['_ws.expert.message'],
      },
      `packet ${i + 1}`,
    ).toEqual({
      encap: '46', // WTAP_ENCAP_USER1: Wireshark's name for LINKTYPE 148
      proto: 'PCIE-TLP',
      kind: r.kind,
      length: r.lengthDw,
      tag: r.tag,
      rid: r.requesterId,
      address: memory ? r.address : undefined,
      status: cpl ? r.status : undefined,
      byteCount: cpl ? r.byteCount : undefined,
      lowerAddress: cpl ? r.lowerAddress : undefined,
      clock: r.clock,
      segment: r.segment,
      stream: r.stream === 'request' ? 0 : 1,
      tap: r.tap,
      direction: r.stream === 'request' ? 2 : 1,
      comment: i === triggerIndex ? 'trigger' : '',
      expert: i === triggerIndex ? 'trigger' : '', // the comment's own expert item
    })
    // the packet's time: the record's tap clock in ns of probe time
    expect(Math.round(Number(row['frame.time_epoch']) * 1e9), `packet ${i + 1}`).toBe(Math.round((r.clock / clockHz) * 1e9))
  })
}

describe('trace pcapng + the dissector (pcie_scope_tlp on DLT_USER1)', () => {
  it('a synthetic trace: 4-DW and 3-DW requests, T9/T8 tags, split completions, a UR, a clock above 32 bits', () => {
    const trace = syntheticTrace()
    const file = join(tempDir(), 'synthetic.pcapng')
    writeFileSync(file, tracePcapng(trace, CLOCK_HZ))
    checkRows(rows(file), trace.records, trace.triggerIndex, CLOCK_HZ)
  })

  it.skipIf(!twinBuilt)(
    'a twin trace as `pcie-scope trace --out` writes it: every packet is its record; the Perfetto file has a slice per read',
    async () => {
      const out = join(tempDir(), 'run')
      const r = await runCli(
        'trace',
        '--twin',
        '--pattern',
        'merged-misaligned',
        '--bytes',
        '8K',
        '--offset',
        '32',
        '--trigger',
        'force',
        '--json',
        '--out',
        out,
      )
      expect(r.code, r.stderr).toBe(0)
      const rep = JSON.parse(r.stdout) as TraceReport
      const saved = JSON.parse(readFileSync(join(out, 'trace.json'), 'utf8')) as TraceReport & { words: number[][] }
      const records = saved.words.map((w) => decodeTraceRecord(w))
      // the whole run: every read of the misaligned pattern (sizes other than 128 B) and its completions
      expect(records.length).toBe(2 * rep.reads.length)
      expect(rep.reads.every((x) => x.end === 'done')).toBe(true)
      expect(new Set(rep.reads.map((x) => x.requestedBytes)).size).toBeGreaterThan(1)
      expect(new Set(records.map((x) => x.kind))).toEqual(new Set(['MRD', 'CPLD']))
      const got = rows(join(out, 'trace.pcapng'))
      checkRows(got, records, rep.triggerIndex ?? undefined, rep.clockHz)
      expect(rep.triggerIndex).toBe(0) // forced before the workload: its first MRd

      const perfetto = JSON.parse(readFileSync(join(out, 'trace.perfetto.json'), 'utf8')) as {
        traceEvents: TraceEvent[]
        otherData: Record<string, unknown>
      }
      expect(perfetto.otherData).toMatchObject({ clockHz: rep.clockHz, pattern: 'merged-misaligned', trigger: 'force' })
      const slices = perfetto.traceEvents.filter((e) => e.ph === 'X')
      expect(slices).toHaveLength(rep.reads.length)
      slices.forEach((s, i) => {
        const read = rep.reads[i]!
        expect(s.tid).toBe(read.tag + 1)
        expect(s.ts).toBeCloseTo((records[read.record]!.clock / rep.clockHz) * 1e6, 6)
        if (read.lastLatencyNs !== null) expect(s.dur! * 1000).toBeCloseTo(read.lastLatencyNs, 3)
      })
    },
    30_000,
  )
})
