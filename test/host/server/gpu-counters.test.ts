// `serve --gpu-counters` on a fake addon replaying recorded H200 samples: the server names the
// source in /api/status, streams each interval as {type:'gpu-counters'}, records it, and the
// recording's exports (csv, query's tables, perfetto) carry it; without a source it does not start.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { isPsError } from '../../../host/src/core/errors.js'
import type { GpuCounterInterval } from '../../../host/src/core/wire.js'
import { csvHeader, GPU_COUNTERS_TAP } from '../../../host/src/export/csv.js'
import { exportRecording } from '../../../host/src/export/formats.js'
import { GPU_COUNTER_TRACKS } from '../../../host/src/export/perfetto.js'
import { openRecording } from '../../../host/src/recording/catalog.js'
import type { GpuCountersRecord } from '../../../host/src/recording/format.js'
import { readRecords } from '../../../host/src/recording/reader.js'
import { tableOf } from '../../../host/src/recording/tables.js'
import { fixtureEvents } from '../gpu-counters/fixtures.js'
import { removeRoots, tempRoot } from '../recording/fixtures.js'
import { makeFakeAddon, nativeError } from '../workload/fake-addon.js'
import { runCli } from '../cli/run-cli.js'
import { closeServers, http, openWs, serve, TOKEN, wsUrl } from './helpers.js'

afterEach(async () => {
  await closeServers()
  removeRoots()
})

const until = async (ok: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10))
  if (!ok()) throw new Error(`timed out waiting for ${what}`)
}

const text = async (chunks: AsyncIterable<string>): Promise<string> => {
  let s = ''
  for await (const c of chunks) s += c
  return s
}

describe('serve --gpu-counters', () => {
  it('names the source, streams the intervals to the page, records them, and every export carries them', async () => {
    let release: () => void = () => {}
    const later = new Promise<void>((r) => (release = r))
    // 600 samples of 100 µs: 10-ms windows make 6 intervals
    const addon = makeFakeAddon({ counters: { events: fixtureEvents('h200-merged-aligned-100us.csv', 100, 2), later } })
    const root = tempRoot()
    const { srv, base } = await serve({
      recordings: { dir: root, record: true },
      gpuCounters: { load: () => addon, device: 0, intervalUs: 100, windowNs: 10e6 },
    })
    expect(addon.counterRuns).toEqual([{ device: 0, intervalUs: 100 }])
    expect(srv.gpuCounters).toBe('PM sampling on device 0 (GH100), every 100 µs')
    const status = (await http(base, 'GET', '/api/status', { token: TOKEN })).json
    expect(status.gpuCounters).toMatchObject({ source: 'pm-sampling', device: 0, chip: 'GH100', intervalNs: 100_000, error: null })

    const ws = await openWs(wsUrl(base, TOKEN))
    release()
    await until(() => ws.of('gpu-counters').length >= 5, 'five intervals')
    const streamed = ws.of('gpu-counters').map((m) => m.interval)
    for (const i of streamed) {
      expect(i).toMatchObject({ counterSource: 'pm-sampling', device: 0, lost: 2 })
      expect(i.endNs - i.startNs).toBeGreaterThan(9e6)
      expect(i.readGBps).toBeGreaterThan(40)
      expect(i.meanRequestBytes!).toBeGreaterThan(120)
    }
    await ws.close()
    const name = srv.recording!.split('/').at(-1)!
    expect((await http(base, 'GET', '/api/status', { token: TOKEN })).json.gpuCounters.intervals).toBeGreaterThanOrEqual(5)
    await closeServers()

    const dir = join(root, name)
    const recorded: GpuCountersRecord[] = []
    for await (const r of readRecords(dir)) if (r.t === 'gpu-counters') recorded.push(r)
    expect(recorded).toHaveLength(6) // the five closed windows and the last one, flushed at close
    expect(recorded.slice(0, streamed.length).map(({ t: _t, at: _at, source, ...i }) => (expect(source).toBe('gpu-counters'), i))).toEqual(
      streamed satisfies GpuCounterInterval[],
    )
    expect(recorded.reduce((n, r) => n + r.samples, 0)).toBe(600)

    const rec = await openRecording(dir)
    const csv = (await text(exportRecording(rec, 'csv'))).trim().split('\n')
    const header = csvHeader()
    const rows = csv.slice(1).map((l) => l.split(','))
    const gpuRows = rows.filter((r) => r[header.indexOf('tap')] === GPU_COUNTERS_TAP)
    expect(gpuRows).toHaveLength(6)
    expect(Number(gpuRows[0]![header.indexOf('gpu_read_gbps')])).toBeCloseTo(recorded[0]!.readGBps, 9)
    expect(gpuRows[0]![header.indexOf('gpu_counter_source')]).toBe('pm-sampling')
    expect(gpuRows[0]![header.indexOf('time_s')]).toBe('')

    const table = tableOf('gpu-counters')!
    expect(table.name).toBe('gpu_counters')
    const cells = table.rows(recorded[0]!, 250e6)[0]!
    const col = (n: string) => cells[table.columns.findIndex((c) => c.name === n)]
    expect(col('counter_source')).toBe('pm-sampling')
    expect(col('mean_request_bytes')).toBe(recorded[0]!.meanRequestBytes)

    const trace = JSON.parse(await text(exportRecording(rec, 'perfetto'))) as {
      traceEvents: { name: string; ts: number; args?: Record<string, number> }[]
    }
    const read = trace.traceEvents.filter((e) => e.name === GPU_COUNTER_TRACKS.read)
    expect(read).toHaveLength(7) // one per interval, and the drop to 0 at the end of the last
    expect(read[0]!.ts).toBe(recorded[0]!.startNs / 1000)
    expect(read.at(-1)!.args!['GB/s']).toBe(0)

    // the CLI: export --format csv and query over the recording's tables
    const cliCsv = await runCli('export', name, '--dir', root, '--format', 'csv')
    expect(cliCsv.code, cliCsv.stderr).toBe(0)
    expect(
      cliCsv.stdout
        .trim()
        .split('\n')
        .filter((l) => l.includes(`,${GPU_COUNTERS_TAP},`)),
    ).toHaveLength(6)
    const q = await runCli(
      'query',
      name,
      '--dir',
      root,
      '--json',
      'select count(*) as n, sum(samples) as s, min(counter_source) as src from gpu_counters',
    )
    expect(q.code, q.stderr).toBe(0)
    expect(JSON.parse(q.stdout)).toMatchObject({ columns: ['n', 's', 'src'], rows: [[6, 600, 'pm-sampling']] })
    const parquet = join(tempRoot(), 'gpu.parquet')
    const pq = await runCli('export', name, '--dir', root, '--format', 'parquet', '--table', 'gpu_counters', '-o', parquet)
    expect(pq.code, pq.stderr).toBe(0)
    const back = await runCli('query', name, '--dir', root, '--json', `select count(*) as n from read_parquet('${parquet}')`)
    expect(JSON.parse(back.stdout)).toMatchObject({ rows: [[6]] })

    const jsonl = (await text(exportRecording(rec, 'jsonl')))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { t: string })
    expect(jsonl.filter((r) => r.t === 'gpu-counters')).toHaveLength(6)
  })

  it('a source that fails after the start: the status says why, and the page hears it', async () => {
    let release: () => void = () => {}
    const later = new Promise<void>((r) => (release = r))
    const fail = nativeError('PS_GPU_COUNTERS_FAILED', 'cuptiPmSamplingDecodeData failed.')
    const addon = makeFakeAddon({ counters: { events: fixtureEvents('h200-idle-1ms.csv', 100), later, fail } })
    const { base } = await serve({ gpuCounters: { load: () => addon } })
    const ws = await openWs(wsUrl(base, TOKEN))
    await until(() => ws.of('status').length >= 1, 'the first status')
    release()
    await until(() => ws.of('status').some((s) => s.gpuCounters?.error), 'a status with the error')
    const st = ws.of('status').at(-1)!.gpuCounters
    expect(st).toMatchObject({ source: null, error: { code: 'PS_GPU_COUNTERS_FAILED', message: 'cuptiPmSamplingDecodeData failed.' } })
    expect((await http(base, 'GET', '/api/status', { token: TOKEN })).json.gpuCounters.error.code).toBe('PS_GPU_COUNTERS_FAILED')
    await ws.close()
  })

  it('does not start without a source: PS_GPU_COUNTERS_UNAVAILABLE, one sentence', async () => {
    const addon = makeFakeAddon() // its gpuCounters answer PS_GPU_COUNTERS_UNAVAILABLE
    const e = await serve({ gpuCounters: { load: () => addon } }).catch((err: unknown) => err)
    expect(isPsError(e, 'PS_GPU_COUNTERS_UNAVAILABLE'), String(e)).toBe(true)
    expect((e as Error).message).toMatch(/^[^\n]+\.$/)
  })

  it('GET /api/status says gpuCounters: null on a server without them', async () => {
    const { base } = await serve()
    expect((await http(base, 'GET', '/api/status', { token: TOKEN })).json.gpuCounters).toBeNull()
  })
})
