#!/usr/bin/env node
/**
 * The tables of bench/RESULTS.md "GPU PCIe counters" from a folder of `bench/gpu-counters.sh`
 * results (no GPU needed): every micro kernel and every graph kernel, the sampled per-kernel (per
 * run) read and write bytes against Nsight Compute's, and the request count derived from the
 * sampled write bytes against pcie-scope-model's where the model is exact (merged-aligned, and every
 * pattern with `--l1 bypass`: bench/gpu-ncu.mjs, 0.0 % there).
 *
 * Derived requests = (write bytes − the sampler's own writes) / 16 (host/src/gpu-counters/derive.ts:
 * a 4-DW MRd header per request; PM sampling writes `--self-write-bytes` per sample, taken off over
 * the samples of the window, shared by the repeats).
 *
 * Usage: node bench/gpu-counters-report.mjs RESULTS_DIR [RESULTS_DIR ...] [--model BIN]
 *        [--self-write-bytes 92]
 * RESULTS_DIR holds kernels.jsonl + ncu.csv and/or graph.jsonl + ncu-graph.csv.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseNcuCsv, sumLaunches } from './gpu-ncu.mjs'

const MRD_HEADER_BYTES = 16

/** ncu's CSV of several profiles, each after a "# name" line: name -> metrics summed over its launches. */
export function ncuSections(text) {
  const out = new Map()
  for (const part of text.split(/^# /m).slice(1)) {
    const nl = part.includes('\n') ? part.indexOf('\n') : part.length
    const name = part.slice(0, nl).trim()
    const body = part.slice(nl + 1)
    out.set(name, body.includes('"ID"') ? sumLaunches(parseNcuCsv(body)) : {})
  }
  return out
}

const jsonLines = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l))

const pct = (measured, reference) => (reference > 0 ? (100 * (measured - reference)) / reference : NaN)
const signed = (v) => (Number.isFinite(v) ? `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(2)} %` : '–')
const int = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–')

/** A sampled row against ncu: bytes both ways, and the derived requests. */
export function compareRow({ name, sampled, ncu, samplesPerKernel, selfWriteBytes, predictedRequests }) {
  const read = sampled['pcie__read_bytes.sum']
  const write = sampled['pcie__write_bytes.sum']
  const requests = (write - selfWriteBytes * samplesPerKernel) / MRD_HEADER_BYTES
  return {
    name,
    ncuRead: ncu['pcie__read_bytes.sum'],
    read,
    readError: pct(read, ncu['pcie__read_bytes.sum']),
    ncuWrite: ncu['pcie__write_bytes.sum'],
    write,
    writeError: pct(write, ncu['pcie__write_bytes.sum']),
    requests,
    predictedRequests,
    requestError: predictedRequests === undefined ? NaN : pct(requests, predictedRequests),
  }
}

function modelRequests(modelBin, k) {
  if (!modelBin) return undefined
  const exact = k.pattern === 'merged-aligned' || k.l1 === 'bypass'
  if (!exact) return undefined
  const r = spawnSync(
    modelBin,
    [
      '--pattern',
      k.pattern,
      '--element-bytes',
      String(k.elementBytes),
      '--bytes',
      String(k.bytes),
      '--l1',
      k.l1 === 'bypass' ? 'bypass' : 'ideal',
    ],
    { encoding: 'utf8' },
  )
  if (r.status !== 0) throw new Error(`pcie-scope-model failed: ${r.stdout}${r.stderr}`)
  return JSON.parse(r.stdout).mrd.count
}

function table(rows, first) {
  const head = `| ${first} | ncu read B | sampled read B | error | ncu write B | sampled write B | error | derived requests | model requests | error |`
  const lines = [head, '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|']
  for (const r of rows)
    lines.push(
      `| ${r.name} | ${int(r.ncuRead)} | ${int(r.read)} | ${signed(r.readError)} | ${int(r.ncuWrite)} | ${int(r.write)} | ${signed(r.writeError)} | ${int(r.requests)} | ${r.predictedRequests === undefined ? '–' : int(r.predictedRequests)} | ${signed(r.requestError)} |`,
    )
  const worst = (key) => Math.max(...rows.map((r) => Math.abs(r[key])).filter(Number.isFinite))
  lines.push(
    '',
    `Largest |error|: read ${worst('readError').toFixed(2)} %, write ${worst('writeError').toFixed(2)} %, requests against the model ${Number.isFinite(worst('requestError')) ? `${worst('requestError').toFixed(2)} %` : '–'}.`,
  )
  return lines.join('\n')
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

function main(argv) {
  const opt = (name) => {
    const i = argv.indexOf(name)
    return i >= 0 ? argv[i + 1] : undefined
  }
  const modelBin = opt('--model')
  const selfWriteBytes = Number(opt('--self-write-bytes') ?? 92)
  const dirs = argv.filter((a, i) => !a.startsWith('--') && !(i > 0 && argv[i - 1].startsWith('--')))
  const out = []
  const ratios = []
  for (const dir of dirs) {
    if (existsSync(join(dir, 'kernels.jsonl')) && existsSync(join(dir, 'ncu.csv'))) {
      const ncu = ncuSections(readFileSync(join(dir, 'ncu.csv'), 'utf8'))
      const rows = jsonLines(join(dir, 'kernels.jsonl')).map((k) => {
        const name = `${k.pattern} e${k.elementBytes} ${k.l1 === 'bypass' ? 'bypass' : 'ideal'}`
        const ref = ncu.get(name)
        if (!ref) throw new Error(`${dir}: no ncu profile named "${name}"`)
        ratios.push(k.kernelMsSampled / k.kernelMsUnsampled)
        return compareRow({
          name,
          sampled: k.perKernel,
          ncu: ref,
          samplesPerKernel: k.samplesInWindow / k.repeats,
          selfWriteBytes,
          predictedRequests: modelRequests(modelBin, k),
        })
      })
      out.push(table(rows, 'kernel (64 MiB)'))
    }
    if (existsSync(join(dir, 'graph.jsonl')) && existsSync(join(dir, 'ncu-graph.csv'))) {
      const ncu = ncuSections(readFileSync(join(dir, 'ncu-graph.csv'), 'utf8'))
      const rows = jsonLines(join(dir, 'graph.jsonl')).map((g) => {
        const name = `${g.graph} ${g.pattern}`
        const ref = ncu.get(name)
        if (!ref) throw new Error(`${dir}: no ncu profile named "${name}"`)
        ratios.push(g.runMsSampled / g.runMsUnsampled)
        return compareRow({ name, sampled: g.perRun, ncu: ref, samplesPerKernel: g.samplesInWindow / g.repeats, selfWriteBytes })
      })
      out.push(table(rows, 'graph kernel (one run)'))
    }
  }
  if (ratios.length)
    out.push(
      `Sampled / unsampled time over ${ratios.length} kernels: median ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)} to ${Math.max(...ratios).toFixed(3)}).`,
    )
  process.stdout.write(out.join('\n\n') + '\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2))
  } catch (e) {
    process.stderr.write(`gpu-counters-report: ${e instanceof Error ? e.message : String(e)}\n`)
    process.exit(1)
  }
}
