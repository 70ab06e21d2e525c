/** ls, info and export in process, over recordings written by the recording modules; capture --out's early refusals. */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { COUNTERS } from '../../../host/src/core/generated.js'
import { GPU_CSV_COLUMNS } from '../../../host/src/export/csv.js'
import { killWriter, newWriter, removeRoots, tempRoot, writeIntervals, writeRun } from '../recording/fixtures.js'
import { runCli } from './run-cli.js'

afterEach(removeRoots)

const run = runCli

const rootWithRecordings = (): string => {
  const root = tempRoot()
  const done = newWriter(join(root, 'done'), { now: () => new Date('2025-01-01T00:00:00Z') })
  writeRun(done)
  done.close()
  const killed = newWriter(join(root, 'killed'), { now: () => new Date('2025-01-01T00:05:00Z') })
  writeRun(killed)
  killWriter(join(root, 'killed'), killed)
  return root
}

describe('pcie-scope ls', () => {
  it('prints a table of the recordings, a killed one as interrupted', async () => {
    const r = await run('ls', '--dir', rootWithRecordings())
    expect(r.code).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^NAME\s+STATUS\s+START\s+DURATION\s+RECORDS\s+WORKLOAD$/)
    expect(lines[1]).toMatch(/^done\s+complete\s+2025-01-01T00:00:00.000Z\s+\S+ s\s+11\s+merged-aligned 65536 B @0$/)
    expect(lines[2]).toMatch(/^killed\s+interrupted\s+2025-01-01T00:05:00.000Z\s+\S+ s\s+11\s+merged-aligned 65536 B @0$/)
  })

  it('--json prints one object; a directory that is not a recording is named on stderr', async () => {
    const root = rootWithRecordings()
    mkdirSync(join(root, 'stray'))
    const r = await run('ls', '--dir', root, '--json')
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.recordings.map((c: any) => c.status)).toEqual(['complete', 'interrupted'])
    expect(r.stderr).toMatch(/skipped stray: \[PS_RECORDING_NOT_FOUND\]/)
  })

  it('uses $PCIE_SCOPE_RECORDINGS without --dir, and says when there is nothing', async () => {
    const root = tempRoot()
    const saved = process.env['PCIE_SCOPE_RECORDINGS']
    process.env['PCIE_SCOPE_RECORDINGS'] = root
    try {
      const r = await run('ls')
      expect(r).toMatchObject({ code: 0, stdout: `no recordings in ${root}\n` })
    } finally {
      if (saved === undefined) delete process.env['PCIE_SCOPE_RECORDINGS']
      else process.env['PCIE_SCOPE_RECORDINGS'] = saved
    }
  })
})

describe('pcie-scope info', () => {
  it('describes a recording by name under --dir, or by path', async () => {
    const root = rootWithRecordings()
    const byName = await run('info', 'killed', '--dir', root)
    expect(byName.code).toBe(0)
    expect(byName.stdout).toMatch(/^status\s+interrupted \(the writer \(pid \d+/m)
    expect(byName.stdout).toMatch(
      /^records\s+11: 8 snapshot, 0 interval, 0 histogram, 0 tap-snapshot, 0 tap-histogram, 1 run-start, 1 run, 1 device, 0 mark, 0 gap, 0 frame, 0 gpu-counters$/m,
    )
    expect(byName.stdout).toMatch(/^skipped\s+1 torn line$/m)
    expect(byName.stdout).toMatch(/^probe\s+probe id 0x50435343, firmware 0x0100/m)
    const byPath = await run('info', join(root, 'done'), '--json')
    expect(byPath.code).toBe(0)
    expect(JSON.parse(byPath.stdout)).toMatchObject({ name: 'done', status: 'complete', runs: 1, byType: { snapshot: 8 } })
  })

  it('exits 2 for a name that would leave the root, 1 for a recording that is not there', async () => {
    const root = rootWithRecordings()
    for (const bad of ['..', '.', '.hidden']) {
      const r = await run('info', bad, '--dir', root)
      expect(r.code, bad).toBe(2)
      expect(r.stderr).toContain('PS_RECORDING_NAME_INVALID')
      expect(r.stdout).toBe('')
    }
    const missing = await run('info', 'nope', '--dir', root)
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('PS_RECORDING_NOT_FOUND')
  })
})

describe('pcie-scope export', () => {
  it('csv to stdout: the generated counter list as header, a row per snapshot', async () => {
    const r = await run('export', 'done', '--dir', rootWithRecordings(), '--format', 'csv')
    expect(r.code).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe(['time_s', ...COUNTERS.map((c) => c.name), 'tap', 'epoch', ...GPU_CSV_COLUMNS].join(','))
    expect(lines).toHaveLength(9)
    expect(r.stderr).toBe('')
  })

  it('a killed recording exports up to its last complete line, saying what it skipped', async () => {
    const r = await run('export', 'killed', '--dir', rootWithRecordings(), '--format', 'jsonl')
    expect(r.code).toBe(0)
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(11)
    expect(r.stderr).toMatch(/killed \(interrupted\): skipped 1 torn line/)
  })

  it('perfetto into a file with -o, leaving no temporary file', async () => {
    const root = rootWithRecordings()
    const out = join(tempRoot(), 'trace.json')
    const r = await run('export', join(root, 'done'), '--format', 'perfetto', '-o', out)
    expect(r).toMatchObject({ code: 0, stdout: '' })
    const trace = JSON.parse(readFileSync(out, 'utf8'))
    expect(trace.traceEvents.some((e: any) => e.ph === 'X')).toBe(true)
    expect(readdirSync(join(out, '..'))).toEqual(['trace.json'])
  })

  it('vcd to stdout: a VCD header with the probe clock as timescale, then the interval records', async () => {
    const root = tempRoot()
    const w = newWriter(join(root, 'sampled'))
    writeRun(w)
    writeIntervals(w)
    w.close()
    const r = await run('export', 'sampled', '--dir', root, '--format', 'vcd')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/\$timescale 1 ns \$end[\s\S]*\$var wire 32 \S+ mrd_count \[31:0\] \$end[\s\S]*\$enddefinitions \$end/)
    expect(r.stdout).toMatch(/^#\d+$/m)
  })

  it('vcd of a recording without interval records: exit 1, PS_RECORDING_NO_INTERVALS, nothing on stdout', async () => {
    const r = await run('export', 'done', '--dir', rootWithRecordings(), '--format', 'vcd')
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/\[PS_RECORDING_NO_INTERVALS\]: done holds no interval records/)
    expect(r.stdout).toBe('')
  })

  it('pcapng of a recording made without --frames: PS_RECORDING_NO_FRAMES, and no file left behind', async () => {
    const out = join(tempRoot(), 'link.pcapng')
    const r = await run('export', 'done', '--dir', rootWithRecordings(), '--format', 'pcapng', '-o', out)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/\[PS_RECORDING_NO_FRAMES\]: done holds no raw frames: record with `pcie-scope capture --out DIR --frames`/)
    expect(readdirSync(join(out, '..'))).toEqual([])
  })

  it('exits 2 on a missing or unknown --format', async () => {
    const root = rootWithRecordings()
    expect((await run('export', 'done', '--dir', root)).code).toBe(2)
    expect((await run('export', 'done', '--dir', root, '--format', 'xml')).code).toBe(2)
  })
})

// DuckDB's first load and a Parquet write take seconds on a loaded 2-core machine
describe('pcie-scope export --format parquet and query', { timeout: 30_000 }, () => {
  it('parquet needs -o; with it, writes the chosen table that query-by-DuckDB reads back', async () => {
    const root = rootWithRecordings()
    const refused = await run('export', 'done', '--dir', root, '--format', 'parquet')
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/\[PS_USAGE\]: .*-o FILE/)
    const out = join(tempRoot(), 'runs.parquet')
    expect(await run('export', 'done', '--dir', root, '--format', 'parquet', '--table', 'runs', '-o', out)).toMatchObject({
      code: 0,
      stdout: '',
    })
    const q = await run('query', 'done', '--dir', root, '--json', `select pattern, probe_to from read_parquet('${out}')`)
    expect(q.code).toBe(0)
    expect(JSON.parse(q.stdout).rows).toEqual([['merged-aligned', 17_000]])
  })

  it('query prints a table with a row count; --json one object with columns, types and rows', async () => {
    const root = rootWithRecordings()
    const sql = 'select count(*) as n, max(mrd_128) as reads from snapshots'
    const text = await run('query', 'done', '--dir', root, sql)
    expect(text.code).toBe(0)
    expect(text.stdout).toBe('n  reads\n8  512\n(1 row)\n')
    const json = await run('query', 'done', '--dir', root, '--json', sql)
    expect(JSON.parse(json.stdout)).toEqual({ columns: ['n', 'reads'], types: ['BIGINT', 'BIGINT'], rows: [[8, 512]] })
  })

  it("query over a killed recording says what it skipped; bad SQL exits 2 with DuckDB's words", async () => {
    const root = rootWithRecordings()
    const r = await run('query', 'killed', '--dir', root, 'select count(*) from snapshots')
    expect(r.stdout).toContain('8')
    expect(r.stderr).toMatch(/skipped 1 torn line/)
    const bad = await run('query', 'done', '--dir', root, 'select nope from snapshots')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/\[PS_USAGE\]: query failed: .*"nope"/)
  })
})

describe('pcie-scope capture --out: refused before the twin starts', () => {
  // were the twin started, these would fail with PS_TWIN_NOT_BUILT instead
  const saved = process.env['PCIE_SCOPE_TWIN']
  afterEach(() => {
    if (saved === undefined) delete process.env['PCIE_SCOPE_TWIN']
    else process.env['PCIE_SCOPE_TWIN'] = saved
  })

  it('--frames without --out: exit 2', async () => {
    process.env['PCIE_SCOPE_TWIN'] = '/nonexistent/pcie-scope-twin'
    const r = await run('capture', '--twin', '--pattern', 'strided', '--frames')
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--frames only applies with --out')
  })

  it('a name that would leave the root: exit 2', async () => {
    process.env['PCIE_SCOPE_TWIN'] = '/nonexistent/pcie-scope-twin'
    const r = await run('capture', '--twin', '--pattern', 'strided', '--out', '..', '--dir', tempRoot())
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('PS_RECORDING_NAME_INVALID')
  })

  it('a directory that already holds something: exit 1, PS_RECORDING_EXISTS, untouched', async () => {
    process.env['PCIE_SCOPE_TWIN'] = '/nonexistent/pcie-scope-twin'
    const dir = join(tempRoot(), 'taken')
    mkdirSync(dir)
    writeFileSync(join(dir, 'keep.txt'), 'x')
    const r = await run('capture', '--twin', '--pattern', 'strided', '--out', dir)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('PS_RECORDING_EXISTS')
    expect(readdirSync(dir)).toEqual(['keep.txt'])
  })

  it('a destination that cannot be created (/proc, a file in the way): exit 1, PS_RECORDING_IO, before any twin starts', async () => {
    process.env['PCIE_SCOPE_TWIN'] = '/nonexistent/pcie-scope-twin' // reaching the twin would say PS_TWIN_NOT_BUILT
    const r = await run('capture', '--twin', '--pattern', 'strided', '--out', '/proc/pcie-scope-recording')
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/PS_RECORDING_IO.*cannot create the recording directory \/proc\/pcie-scope-recording/)
    const file = join(tempRoot(), 'a-file')
    writeFileSync(file, 'x')
    const under = await run('capture', '--twin', '--pattern', 'strided', '--out', join(file, 'run'))
    expect(under.code).toBe(1)
    expect(under.stderr).toContain('PS_RECORDING_IO')
    expect(readFileSync(file, 'utf8')).toBe('x')
  })

  it('checks that a new destination can be made without leaving it behind', async () => {
    process.env['PCIE_SCOPE_TWIN'] = '/nonexistent/pcie-scope-twin'
    const root = tempRoot()
    const r = await run('capture', '--twin', '--pattern', 'strided', '--out', join(root, 'new', 'parents', 'run'))
    expect(r.stderr).toContain('PS_TWIN_NOT_BUILT') // got past the check to the twin
    expect(existsSync(join(root, 'new'))).toBe(false)
  })

  it('--dir without --out: exit 2', async () => {
    expect((await run('capture', '--twin', '--pattern', 'strided', '--dir', tempRoot())).code).toBe(2)
  })
})
