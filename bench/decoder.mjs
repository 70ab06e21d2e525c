#!/usr/bin/env node
/**
 * Decoder throughput on one core, printed as Markdown for bench/RESULTS.md.
 *
 * Input: a buffer of realistic SNAPSHOT frames (counters that grow like a live run's, so COBS
 * sees the zero bytes of real 64-bit counters), fed to FrameDecoder in serial-port sized chunks.
 * Measured: MB/s of wire bytes through (1) FrameDecoder alone (split, COBS, CRC, sequence) and
 * (2) FrameDecoder + decodeSnapshot (what DeviceClient does with every snapshot). The baseline in
 * the same run is what a hand-written decoder must beat to earn its place: serialport's own
 * DelimiterParser splitting on 0x00, followed by the same COBS, CRC and snapshot decoding.
 *
 * Usage: node bench/decoder.mjs [--mib N] [--chunk BYTES] [--runs N] [--root DIR]
 * (--root: measure another checkout's build, e.g. an older commit's, with this same script)
 * Needs `npm run build:ts` first (npm test and npm start do it).
 */
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const rootArg = process.argv.indexOf('--root')
const root = rootArg > 0 ? process.argv[rootArg + 1] : join(dirname(fileURLToPath(import.meta.url)), '..')
const load = (p) => import(pathToFileURL(join(root, 'dist/host', p)).href)
const { FrameDecoder } = await load('protocol/decoder.js')
const { cobsDecode } = await load('protocol/cobs.js')
const { DelimiterParser } = await import('@serialport/parser-delimiter')
const { parseFrame } = await load('protocol/frame.js')
const { decodeSnapshot } = await load('protocol/messages.js')
// the device's side (what a probe encodes) is test code, loaded from this checkout through tsx
const { tsImport } = await import('tsx/esm/api')
const { encodeFrame, encodeSnapshot, zeroCounters } = await tsImport('../test/host/protocol/device-codec.ts', import.meta.url)
const { FRAME_TYPE } = await load('core/generated.js')

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name)
  return i > 0 ? Number(process.argv[i + 1]) : dflt
}
const mib = arg('--mib', 64)
const chunkBytes = arg('--chunk', 4096) // what a serial port hands over per read, at most
const runs = arg('--runs', 5)

function snapshotStream(totalBytes) {
  const frames = []
  let len = 0
  const counters = zeroCounters()
  const keys = Object.keys(counters)
  for (let i = 0; len < totalBytes; i++) {
    keys.forEach((k, j) => (counters[k] = i * (j + 1) * 977 + j))
    const payload = encodeSnapshot({
      index: i,
      onDemand: false,
      enabled: true,
      counters,
      firmware: { rxFrames: i, rxBadFrames: 0, rxOverflows: 0, unknownCommands: 0, txDropped: 0 },
    })
    const f = encodeFrame(FRAME_TYPE.SNAPSHOT, i & 0xffff, payload)
    frames.push(f)
    len += f.length
  }
  return { bytes: Buffer.concat(frames), frames: frames.length }
}

function chunks(buf) {
  const out = []
  for (let o = 0; o < buf.length; o += chunkBytes) out.push(buf.subarray(o, o + chunkBytes))
  return out
}

function time(fn) {
  const t0 = process.hrtime.bigint()
  const n = fn()
  return { s: Number(process.hrtime.bigint() - t0) / 1e9, n }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const { bytes, frames } = snapshotStream(mib * 1024 * 1024)
const parts = chunks(bytes)

const cases = {
  'serialport DelimiterParser + decodeSnapshot (baseline)': () => {
    const d = new DelimiterParser({ delimiter: Buffer.from([0]) })
    let n = 0
    d.on('data', (enc) => {
      const c = cobsDecode(enc)
      if (!c.ok) return
      const f = parseFrame(c.data, true)
      if (f.ok && decodeSnapshot(f.frame.seq, f.frame.payload, 0).ok) n++
    })
    for (const c of parts) d.write(c)
    return n
  },
  FrameDecoder: () => {
    const d = new FrameDecoder()
    let n = 0
    d.on('data', () => n++)
    for (const c of parts) d.write(c)
    return n
  },
  'FrameDecoder + decodeSnapshot': () => {
    const d = new FrameDecoder()
    let n = 0
    d.on('data', (f) => {
      if (decodeSnapshot(f.seq, f.payload, 0).ok) n++
    })
    for (const c of parts) d.write(c)
    return n
  },
}

const results = {}
for (const [name, fn] of Object.entries(cases)) {
  fn() // warm-up
  const ts = []
  for (let r = 0; r < runs; r++) {
    const { s, n } = time(fn)
    if (n !== frames) throw new Error(`${name}: ${n} frames, expected ${frames}`)
    ts.push(s)
  }
  results[name] = median(ts)
}

const base = results['serialport DelimiterParser + decodeSnapshot (baseline)']
console.log(
  `Decoder throughput: ${mib} MiB of SNAPSHOT frames (${frames} frames of ${(bytes.length / frames).toFixed(0)} B), ${chunkBytes}-B chunks, median of ${runs}; ${cpus()[0]?.model ?? '?'}, Node ${process.version}\n`,
)
console.log('| path | MB/s | frames/s | × baseline |')
console.log('|---|---:|---:|---:|')
for (const [name, s] of Object.entries(results)) {
  console.log(`| ${name} | ${(bytes.length / s / 1e6).toFixed(1)} | ${(frames / s / 1e3).toFixed(0)} k | ${(base / s).toFixed(3)} |`)
}
