#!/usr/bin/env node
/**
 * Recording write rate and export times, printed as Markdown for bench/RESULTS.md.
 *
 * Input: a synthetic recording holding the records a 1 GiB twin run makes when recorded with
 * `capture --out DIR --sample-us 1 --frames` (the defaults below; --scale multiplies them):
 * a snapshot every 100 ms of wall time (a 64 MiB run streams about 80, so 1 GiB about 1 280),
 * one interval sample per µs of probe time (1 GiB at 12.2 GB/s is about 88 ms: 88 000 samples,
 * 9 per INTERVAL frame), and every frame of the link as a `frame` record. Counters grow as in a
 * run, so the JSON has realistic digit counts.
 * Measured: (1) the RecordingWriter (one synchronous write per record, fsync at each 4-MiB segment
 * roll) in records/s and MB/s; (2) each export of that recording to a file, and one `query`.
 * Each step also gives its CPU seconds (this process, every thread): on a shared machine the
 * wall time grows with the others' load, the CPU time does not.
 *
 * Usage: node bench/recording-export.mjs [--scale K] [--dir TMPDIR]
 * Needs `npm run build:ts` first (npm test and npm start do it).
 */
import { createWriteStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const load = (p) => import(pathToFileURL(join(root, 'dist/host', p)).href)
const { RecordingWriter } = await load('recording/writer.js')
const { openRecording } = await load('recording/catalog.js')
const { exportRecording } = await load('export/formats.js')
const { exportParquet } = await load('export/parquet.js')
const { exportPcapng } = await load('export/pcapng.js')
const { loadRecording, runQuery } = await load('recording/duckdb.js')
const { readRecords } = await load('recording/reader.js')
const { buildRawFrame } = await load('protocol/frame.js')
// the device's side (what a probe encodes) is test code, loaded through tsx
const { tsImport } = await import('tsx/esm/api')
const { encodeSnapshot, encodeInterval, zeroCounters } = await tsImport('../test/host/protocol/device-codec.ts', import.meta.url)
const { FRAME_TYPE, INTERVAL_MAX_RECORDS } = await load('core/generated.js')

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name)
  return i > 0 ? process.argv[i + 1] : dflt
}
const scale = Number(arg('--scale', 1))
const SNAPSHOTS = Math.round(1280 * scale)
const SAMPLES = Math.round(88_000 * scale)
const CLOCK_HZ = 250_000_000
const PER_FRAME = Math.min(9, INTERVAL_MAX_RECORDS)
const base = mkdtempSync(join(arg('--dir', tmpdir()), 'ps-bench-recording-'))

const probe = {
  protocolVersion: 1,
  firmwareVersion: 0x0100,
  probeId: 0x50435343,
  regVersion: 1,
  clockHz: CLOCK_HZ,
  counterCount: Object.keys(zeroCounters()).length,
  streaming: true,
  periodMs: 100,
  barLatencyCycles: 250,
}

/** The records of the run, in the order a recording interleaves them. */
function* runRecords() {
  const t0 = 1_700_000_000_000
  const samplesPerSnapshot = SAMPLES / SNAPSHOTS
  let sample = 0
  let seq = 0
  for (let i = 0; i < SNAPSHOTS; i++) {
    const at = t0 + i * 100
    const ts = Math.round(((i + 1) * 0.088 * CLOCK_HZ) / SNAPSHOTS)
    const reads = Math.round((i + 1) * (2 ** 30 / 128 / SNAPSHOTS))
    const counters = {
      ...zeroCounters(),
      cycles: ts,
      timestamp: ts + 1000,
      mrd128: reads,
      mrdBytes: reads * 128,
      cpldCount: reads,
      cpldBytes: reads * 128,
    }
    const snapshot = {
      seq: seq & 0xffff,
      index: i,
      onDemand: false,
      enabled: true,
      counters,
      firmware: { rxFrames: i + 5, rxBadFrames: 0, rxOverflows: 0, unknownCommands: 0, txDropped: 0 },
      receivedAt: at,
    }
    yield { t: 'snapshot', at, snapshot }
    yield {
      t: 'frame',
      at,
      dir: 'rx',
      data: buildRawFrame(FRAME_TYPE.SNAPSHOT, seq++ & 0xffff, encodeSnapshot(snapshot)).toString('base64'),
    }
    const upTo = Math.round((i + 1) * samplesPerSnapshot)
    while (sample < upTo) {
      const n = Math.min(PER_FRAME, upTo - sample)
      const records = Array.from({ length: n }, (_, k) => ({
        ts: (sample + k + 1) * 250,
        cycles: 250,
        mrdCount: 95 + ((sample + k) % 7),
        mrdBytes: (95 + ((sample + k) % 7)) * 128,
        cpldCount: 94 + ((sample + k) % 5),
        cpldBytes: (94 + ((sample + k) % 5)) * 128,
        occSum: 250 * (180 + ((sample + k) % 40)),
        occPeak: 230 + ((sample + k) % 26),
        latSum: 94 * 300 + (sample + k),
        latCount: 94 + ((sample + k) % 5),
      }))
      const batch = { seq: seq & 0xffff, firstIndex: sample, dropped: 0, overflow: 0, records, receivedAt: at }
      yield { t: 'interval', at, batch }
      yield {
        t: 'frame',
        at,
        dir: 'rx',
        data: buildRawFrame(FRAME_TYPE.INTERVAL, seq++ & 0xffff, encodeInterval(batch)).toString('base64'),
      }
      sample += n
    }
  }
}

const dirBytes = (dir) => readdirSync(dir).reduce((a, f) => a + statSync(join(dir, f)).size, 0)
const fmt = (n, d = 1) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })
const mb = (b) => b / 1e6

const cpuSince = (c0) => {
  const c = process.cpuUsage(c0)
  return (c.user + c.system) / 1e6
}

// (1) write; the records go out of scope after it (the exports read the recording from disk, and
// a heap of records would only slow their garbage collection)
const dir = join(base, 'recording')
const { writeS, writeCpu, counts, recordCount } = (() => {
  const records = [...runRecords()] // built first, so the timing is the writer's alone
  const writer = RecordingWriter.create(dir, { source: 'twin', path: '/dev/pts/bench', probe, link: null, workloads: [] })
  const start = performance.now()
  const c = process.cpuUsage()
  for (const r of records) writer.append(r)
  writer.close()
  return {
    writeS: (performance.now() - start) / 1000,
    writeCpu: cpuSince(c),
    counts: records.reduce((m, r) => ((m[r.t] = (m[r.t] ?? 0) + 1), m), {}),
    recordCount: records.length,
  }
})()
const onDisk = dirBytes(dir)

// (2) exports
const recording = await openRecording(dir)
const rows = []
const timed = async (label, fn) => {
  const out = join(base, `out-${rows.length}`)
  const start = performance.now()
  const c = process.cpuUsage()
  await fn(out)
  const s = (performance.now() - start) / 1000
  rows.push({ label, s, cpu: cpuSince(c), bytes: statSync(out).size })
  rmSync(out, { force: true })
}
const toFile = async (out, chunks) => pipeline(Readable.from(chunks), createWriteStream(out))
for (const f of ['csv', 'jsonl', 'perfetto', 'vcd']) await timed(`${f}`, (out) => toFile(out, exportRecording(recording, f)))
await timed('parquet --table snapshots', (out) => exportParquet(recording, 'snapshots', out))
await timed('parquet --table intervals', (out) => exportParquet(recording, 'intervals', out))
await timed('pcapng', (out) => toFile(out, exportPcapng(recording, readRecords(dir))))
const t = performance.now()
const c0 = process.cpuUsage()
const loaded = await loadRecording(recording)
const q = await runQuery(loaded, 'select count(*) as n, avg(outstanding_avg) as occ from intervals')
loaded.close()
const queryS = (performance.now() - t) / 1000
const queryCpu = cpuSince(c0)

console.log(`### ${new Date().toISOString().slice(0, 10)}: the records of a run of ${fmt(scale, 0)} GiB (scale ${scale})\n`)
console.log(
  `${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), Node ${process.version}, ${base.startsWith('/tmp') ? '/tmp' : base}. ` +
    `${fmt(recordCount, 0)} records (${Object.entries(counts)
      .map(([k, v]) => `${fmt(v, 0)} ${k}`)
      .join(', ')}; ${fmt(SAMPLES, 0)} interval samples), ${fmt(mb(onDisk))} MB in ${readdirSync(dir).length - 1} segments.\n`,
)
console.log('| step | seconds | CPU s | records/s | MB/s | output MB |')
console.log('|---|---:|---:|---:|---:|---:|')
console.log(
  `| write (RecordingWriter) | ${fmt(writeS, 2)} | ${fmt(writeCpu, 2)} | ${fmt(recordCount / writeS / 1e3, 0)} k | ${fmt(mb(onDisk) / writeS)} | ${fmt(mb(onDisk))} |`,
)
for (const r of rows) {
  console.log(
    `| export ${r.label} | ${fmt(r.s, 2)} | ${fmt(r.cpu, 2)} | ${fmt(recordCount / r.s / 1e3, 0)} k | ${fmt(mb(onDisk) / r.s)} | ${fmt(mb(r.bytes), 2)} |`,
  )
}
console.log(
  `| query (load + \`select count(*) … from intervals\`: ${q.rows[0][0]} rows) | ${fmt(queryS, 2)} | ${fmt(queryCpu, 2)} | ${fmt(recordCount / queryS / 1e3, 0)} k | ${fmt(mb(onDisk) / queryS)} | - |`,
)
console.log('\nMB/s of export and query rows: recording bytes read per second (wall time).')
rmSync(base, { recursive: true, force: true })
