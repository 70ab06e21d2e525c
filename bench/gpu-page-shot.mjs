#!/usr/bin/env node
/**
 * The page on a GPU host, photographed while GPU runs go on (bench/RESULTS.md "GPU PCIe counters"):
 * starts `pcie-scope serve --gpu-counters` (the twin beside it, as every server has a probe), runs
 * workloads on this GPU through POST /api/run, and, while a last one runs, another process's load
 * (the CUDA runner `--load`, an unmodified program the server knows nothing of); screenshots of
 * the page at 1440×900 and of the GPU counters card are taken during the runs and after them.
 *
 * Usage: node bench/gpu-page-shot.mjs --out DIR [--chromium PATH] [--load RUNNER_BINARY]
 * Needs: dist/ (npm run build:ts, build:web), the addon with CUDA (build/addon/Release), the twin
 * (build/twin/pcie-scope-twin or PCIE_SCOPE_TWIN), playwright-core, a Chromium.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const opt = (name, dflt) => {
  const i = process.argv.indexOf(name)
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : dflt
}
const out = opt('--out', 'gpu-page-shot')
const chromiumPath = opt('--chromium', '/usr/bin/chromium')
const loadBinary = opt('--load', undefined)
const token = 'page-shot'
const GIB = 1 << 30
mkdirSync(out, { recursive: true })
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

const server = spawn(
  process.execPath,
  [join(root, 'bin/pcie-scope.mjs'), 'serve', '--twin', '--gpu-counters', '--http', '127.0.0.1:0', '--token', token, '--no-record'],
  { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
)
let log = ''
server.stderr.on('data', (d) => (log += d))
const url = await new Promise((resolve, reject) => {
  let text = ''
  server.stdout.on('data', (d) => {
    text += d
    const m = /^(http:\/\/\S+)$/m.exec(text)
    if (m) resolve(m[1])
  })
  server.on('exit', (code) => reject(new Error(`serve exited ${code}:\n${log}`)))
})
const base = new URL(url).origin
const api = async (method, path, body) => {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: r.status, json: await r.json().catch(() => null) }
}

const summary = { url: base, runs: [], shots: [] }
const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-gpu'] })
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  await page.goto(url)
  await page.getByTestId('gpu-counters-card').waitFor({ state: 'visible', timeout: 60_000 })
  summary.status = (await api('GET', '/api/status')).json?.gpuCounters
  await sleep(2000)
  const shoot = async (name) => {
    await page.getByTestId('gpu-counters-card').scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(out, `${name}-page.png`) })
    await page.getByTestId('gpu-counters-card').screenshot({ path: join(out, `${name}-card.png`) })
    summary.shots.push(name)
  }
  for (const pattern of ['strided', 'merged-misaligned', 'merged-aligned']) {
    const r = await api('POST', '/api/run', { pattern, bytes: GIB, source: 'gpu' })
    summary.runs.push({ pattern, status: r.status, gbps: r.json?.result?.gpu?.kernelGbps ?? null, error: r.json?.error ?? null })
    await sleep(1500)
  }
  // a last run, photographed while it goes on, with another process's load beside it
  const load = loadBinary
    ? spawn(loadBinary, ['--pattern', 'merged-aligned', '--bytes', String(GIB), '--warmup', '0', '--repeats', '200'], { stdio: 'ignore' })
    : undefined
  const last = api('POST', '/api/run', { pattern: 'merged-aligned', bytes: GIB, source: 'gpu' })
  await sleep(2500)
  await shoot('during')
  summary.runs.push({ pattern: 'merged-aligned', ...(await last).json?.result?.gpu })
  await new Promise((r) => (load ? load.on('exit', r) : r()))
  await sleep(2000)
  await shoot('after')
  summary.card = await page.getByTestId('gpu-counters-card').innerText()
} finally {
  await browser.close()
  server.kill('SIGINT')
  writeFileSync(join(out, 'page-shot.json'), JSON.stringify(summary, null, 2))
  writeFileSync(join(out, 'serve.log'), log)
}
process.stdout.write(JSON.stringify(summary) + '\n')
