#!/usr/bin/env node
/**
 * Snapshot-to-WebSocket delay, printed as Markdown for bench/RESULTS.md: how long after the host
 * decoded a snapshot (its `receivedAt`) a WebSocket client of `pcie-scope serve --twin --demo`
 * has it, p50/p99/max over every snapshot of the run. The baseline in the same run is the server
 * with `--ws-batch-ms 50` (the batching interval before it became 25 ms).
 *
 * Usage: node bench/ws-latency.mjs [--seconds N]
 * Needs `npm run build` first (npm test or npm start do it).
 */
import { spawn } from 'node:child_process'
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import WebSocket from 'ws'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const cli = join(root, 'bin/pcie-scope.mjs')
const argIndex = process.argv.indexOf('--seconds')
const seconds = argIndex > 0 ? Number(process.argv[argIndex + 1]) : 30

async function measure(batchMs) {
  const args = [cli, 'serve', '--twin', '--demo', '--no-record', '--http', '127.0.0.1:0']
  if (batchMs !== undefined) args.push('--ws-batch-ms', String(batchMs))
  const server = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  try {
    const url = await new Promise((resolve, reject) => {
      let out = ''
      server.stdout.on('data', (d) => {
        out += d
        const m = /^(http:\/\/\S+)$/m.exec(out)
        if (m) resolve(new URL(m[1]))
      })
      server.once('exit', (code) => reject(new Error(`serve exited with ${code}`)))
    })
    const ws = new WebSocket(`ws://${url.host}/ws?token=${url.searchParams.get('token')}`, { headers: { origin: url.origin } })
    const delays = []
    ws.on('message', (data) => {
      const now = Date.now()
      const msg = JSON.parse(String(data))
      if (msg.type === 'snapshot') for (const s of msg.snapshots) delays.push(now - s.receivedAt)
    })
    await new Promise((resolve, reject) => {
      ws.once('open', resolve)
      ws.once('error', reject)
    })
    await new Promise((r) => setTimeout(r, seconds * 1000))
    ws.close()
    return delays.sort((a, b) => a - b)
  } finally {
    server.kill('SIGINT')
  }
}

const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]
const base = await measure(50)
const now = await measure(undefined)
console.log(
  `Snapshot-to-WebSocket delay: serve --twin --demo, one client, ${seconds} s each; ${cpus()[0]?.model ?? '?'}, Node ${process.version}\n`,
)
console.log('| server | snapshots | p50 ms | p99 ms | max ms | p99 vs baseline |')
console.log('|---|---:|---:|---:|---:|---:|')
for (const [name, xs] of [
  ['--ws-batch-ms 50 (baseline)', base],
  ['default (25 ms batches)', now],
]) {
  console.log(`| ${name} | ${xs.length} | ${pct(xs, 50)} | ${pct(xs, 99)} | ${xs.at(-1)} | ${(pct(xs, 99) / pct(base, 99)).toFixed(2)} |`)
}
