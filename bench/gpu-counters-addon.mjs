#!/usr/bin/env node
// The addon's gpuCounters on a GPU host, without the rest of the host (bench/gpu-counters.sh's
// `addon` step): loads the .node given, samples for SECONDS at INTERVAL_US and prints the start
// event, the batches' count and the done summary as one JSON line.
//
// Usage: node bench/gpu-counters-addon.mjs ADDON.node [INTERVAL_US] [SECONDS]
import { createRequire } from 'node:module'

const [path, intervalUs = '100', seconds = '2'] = process.argv.slice(2)
const addon = createRequire(import.meta.url)(path)
let start
let batches = 0
let samples = 0
const t0 = process.hrtime.bigint()
const handle = addon.gpuCounters({ intervalUs: Number(intervalUs) }, (e) => {
  if (e.type === 'start') start = e.info
  else {
    batches++
    samples += e.data.length / e.stride
  }
})
setTimeout(() => handle.stop(), Number(seconds) * 1000)
try {
  const done = await handle.done
  const wall = Number(process.hrtime.bigint() - t0) / 1e9
  console.log(JSON.stringify({ pmSamplingBuilt: addon.pmSamplingBuilt, start, batches, samples, wall, done, cpu: process.cpuUsage() }))
} catch (e) {
  console.log(JSON.stringify({ pmSamplingBuilt: addon.pmSamplingBuilt, error: { code: e.code, message: e.message } }))
  process.exitCode = 1
}
