#!/usr/bin/env node
// `watch --gpu`'s own code (dist/host/cli/watch.js: the sampler client, the derivations, the live
// lines) on a GPU host that has no node_modules but commander: runs watchGpu for SECONDS at
// INTERVAL_US against the addon given and prints the summary as JSON (bench/gpu-counters.sh's
// `watch` step; the live lines go to stderr).
//
// Usage: node bench/gpu-counters-watch.mjs ADDON.node [INTERVAL_US] [SECONDS]
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { watchGpu } = await import(join(root, 'dist/host/cli/watch.js'))
const { loadAddon } = await import(join(root, 'dist/host/native/addon.js'))
const { IDLE_ROUND_TRIP_NS } = await import(join(root, 'dist/host/gpu-counters/derive.js'))
const [path, intervalUs = '100', seconds = '3'] = process.argv.slice(2)
const io = { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) }
const deps = { loadAddon: () => loadAddon(path), openSession: () => Promise.reject(new Error('no session')) }
const options = {
  gpu: true,
  device: 0,
  intervalUs: Number(intervalUs),
  duration: Number(seconds),
  source: 'auto',
  rttNs: IDLE_ROUND_TRIP_NS,
  json: true,
}
try {
  console.log(JSON.stringify(await watchGpu(options, io, deps)))
} catch (e) {
  console.log(JSON.stringify({ error: { code: e.code, message: e.message } }))
  process.exitCode = 1
}
