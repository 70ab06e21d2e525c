#!/usr/bin/env node
/**
 * The traffic model against the GPU's own PCIe counters (Nsight Compute), per kernel of the micro
 * suite (every pattern x element width x L1 use of spec/workloads.json):
 *
 *   measured  MRd count = pcie__write_bytes / 16 (a 16-B request header per read), completion
 *             bytes = pcie__read_bytes (payload + a 12-B header per completion), sectors per
 *             request = lts__t_sectors / lts__t_requests (sysmem reads; the ratio is right even
 *             where the two counts are not, docs/gpu-coalescing.md)
 *   predicted the same three from build/gpu/pcie-scope-model (native/model): by default its
 *             scheduled model (--l1-model lru: blocks over the spec's SMs, an LRU L1 per SM,
 *             docs/gpu-model.md), with the ideal L1's MRd count (the twin's model) beside it
 *
 * and prints a Markdown table (kernel, predicted, measured, error %) for bench/RESULTS.md, with
 * the GPU, driver and CUDA versions from the runner's own JSON line.
 *
 * Usage: node bench/gpu-ncu.mjs [--bytes N] [--ncu PATH] [--build DIR] [--save DIR] [--from DIR]
 *                               [--only SUBSTRING] [--json] [--append] [--graph G]
 *                               [--l1-model lru|ideal] [--single]
 *   --bytes N   useful bytes per kernel (default 64 MiB: the PCIe counters count in 512-B steps)
 *   --graph G   the graph kernels instead (spec graphs.kernels: BFS, SSSP, CC, PageRank, zero-copy
 *               edge list) on graph G (kron:S, urand:S, file:PATH): every host-memory launch of
 *               one run under ncu, summed, against pcie-scope-model --graph G from the same source
 *   --save DIR  keep each kernel's raw ncu output as DIR/<kernel>.txt
 *   --from DIR  read those files instead of running ncu (re-analyse a GPU host's profile anywhere)
 *   --l1-model  the model the errors are against: lru (default) or ideal; the other one's MRd
 *               count is printed beside it (not with --single)
 *   --json      print the rows as JSON instead of Markdown
 *   --append    also append the Markdown section to bench/RESULTS.md
 * Needs `npm run build:gpu` (the runner and pcie-scope-model) and, live, ncu with access to the
 * GPU's performance counters (root, or NVreg_RestrictProfilingToAdminUsers=0).
 */
import { spawnSync } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const workloads = JSON.parse(readFileSync(join(root, 'spec/workloads.json'), 'utf8'))

export const METRICS = [
  'pcie__read_bytes.sum',
  'pcie__write_bytes.sum',
  'lts__t_sectors_aperture_sysmem_op_read.sum',
  'lts__t_requests_aperture_sysmem_op_read.sum',
  'gpu__time_duration.sum',
]
const MRD_HEADER_BYTES = 16
const CPL_HEADER_BYTES = 12
const OFF_LIMIT_PERCENT = 5
const L1_MODEL_TEXT = {
  lru: "blocks scheduled over the spec's SMs, the spec's L1 per SM (its fitted replacement and capacity) for default loads",
  ideal: 'ideal L1 for default loads',
}

/** Every kernel of the micro suite, in the runner's --suite order. */
export const suiteKernels = () =>
  workloads.patterns.flatMap((p) =>
    workloads.elementBytes.values.flatMap((e) =>
      workloads.l1.values.map((l) => ({
        pattern: p.name,
        offset: p.defaultOffset,
        elementBytes: e,
        l1: l.name,
        name: `${p.name}-e${e}-${l.name}`,
      })),
    ),
  )

/**
 * The CUDA function of each algorithm that reads the host memory (native/cuda/graph_bench.cu); the
 * kernels between launches (relax_update_kernel, pagerank_contribs) read GPU memory only.
 */
export const HOST_MEMORY_FUNCTIONS = { bfs: 'bfs_level', sssp: 'graph_relax', cc: 'graph_relax', pagerank: 'graph_pull' }

/** Every graph kernel on `graph`; profile file names keep only [a-z0-9-]. */
export const graphKernels = (graph) =>
  workloads.graphs.kernels.map((k) => ({
    pattern: k.name,
    cudaFunction: HOST_MEMORY_FUNCTIONS[k.name.split('-')[0]],
    name: `${k.name}-${graph
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase()}`,
  }))

/** The counters of several launches (a BFS's levels, SSSP's rounds, ...), added up metric by metric. */
export function sumLaunches(launches) {
  const metrics = {}
  for (const l of launches) for (const [k, v] of Object.entries(l.metrics)) metrics[k] = (metrics[k] ?? 0) + v
  return metrics
}

/** One CSV line into fields ("a","b,c" -> [a, b,c]; doubled quotes inside quotes). */
export function parseCsvLine(line) {
  const out = []
  let cur = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"'
        i++
      } else if (c === '"') quoted = false
      else cur += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      out.push(cur)
      cur = ''
    } else cur += c
  }
  out.push(cur)
  return out
}

const UNIT_SCALE = {
  '': 1,
  byte: 1,
  B: 1,
  Kbyte: 1e3,
  Mbyte: 1e6,
  Gbyte: 1e9,
  Tbyte: 1e12,
  KB: 1e3,
  MB: 1e6,
  GB: 1e9,
  nsecond: 1,
  usecond: 1e3,
  msecond: 1e6,
  second: 1e9,
  // ncu 2025.x prints short time units and names counts by what they count
  ns: 1,
  us: 1e3,
  ms: 1e6,
  s: 1e9,
  request: 1,
  sector: 1,
}

/**
 * ncu --csv output (its "==PROF==" lines and the program's own stdout mixed in) -> one entry per
 * profiled kernel launch: { id, kernel, metrics: { name: value in base units } }. The details
 * page has one row per (launch, metric); columns are found by their header names.
 */
export function parseNcuCsv(text) {
  const lines = text.split(/\r?\n/)
  const h = lines.findIndex((l) => l.startsWith('"ID",') && l.includes('"Metric Name"'))
  if (h < 0) throw new Error('no ncu CSV header ("ID",…,"Metric Name",…) in the output')
  const head = parseCsvLine(lines[h])
  const col = (name) => {
    const i = head.indexOf(name)
    if (i < 0) throw new Error(`ncu CSV has no "${name}" column`)
    return i
  }
  const [cId, cKernel, cName, cUnit, cValue] = ['ID', 'Kernel Name', 'Metric Name', 'Metric Unit', 'Metric Value'].map(col)
  const launches = new Map()
  for (const line of lines.slice(h + 1)) {
    if (!line.startsWith('"')) continue // ==PROF== lines, the program's JSON
    const f = parseCsvLine(line)
    if (f.length !== head.length) continue
    const unit = f[cUnit]
    if (!(unit in UNIT_SCALE)) throw new Error(`metric ${f[cName]}: unknown unit "${unit}"`)
    const value = Number(f[cValue].replace(/,/g, ''))
    if (!launches.has(f[cId])) launches.set(f[cId], { id: Number(f[cId]), kernel: f[cKernel], metrics: {} })
    launches.get(f[cId]).metrics[f[cName]] = Number.isFinite(value) ? value * UNIT_SCALE[unit] : NaN
  }
  return [...launches.values()]
}

/** The counters of one launch -> what the GPU put on the wire. */
export function measuredOf(metrics) {
  const need = (n) => {
    const v = metrics[n]
    if (v === undefined || !Number.isFinite(v)) throw new Error(`ncu did not report ${n}`)
    return v
  }
  const mrd = need('pcie__write_bytes.sum') / MRD_HEADER_BYTES
  const readBytes = need('pcie__read_bytes.sum')
  const requests = metrics['lts__t_requests_aperture_sysmem_op_read.sum']
  const sectors = metrics['lts__t_sectors_aperture_sysmem_op_read.sum']
  return {
    mrd,
    readBytes,
    payload: readBytes - CPL_HEADER_BYTES * mrd,
    sectorsPerRequest: requests > 0 && Number.isFinite(sectors) ? sectors / requests : null,
    ms: Number.isFinite(metrics['gpu__time_duration.sum']) ? metrics['gpu__time_duration.sum'] / 1e6 : null,
  }
}

const errorPercent = (pred, meas) => (pred === 0 ? (meas === 0 ? 0 : Infinity) : ((meas - pred) / pred) * 100)

/** One table row from the model's JSON and the measured counters (`other`: the other model's). */
export function compare(kernel, model, meas, other) {
  const row = {
    l1Model: model.l1Model ?? 'ideal',
    kernel,
    bytes: model.bytes ?? model.usefulBytes,
    mrd: { predicted: model.mrd.count, measured: meas.mrd, errorPercent: errorPercent(model.mrd.count, meas.mrd) },
    readBytes: {
      predicted: model.pcieReadBytes,
      measured: meas.readBytes,
      errorPercent: errorPercent(model.pcieReadBytes, meas.readBytes),
    },
    sectorsPerRequest: { predicted: model.sectorsPerRequest, measured: meas.sectorsPerRequest },
  }
  if (other) row.other = { l1Model: other.l1Model, mrd: other.mrd.count, errorPercent: errorPercent(other.mrd.count, meas.mrd) }
  row.off = Math.abs(row.mrd.errorPercent) > OFF_LIMIT_PERCENT || Math.abs(row.readBytes.errorPercent) > OFF_LIMIT_PERCENT
  return row
}

const fmtInt = (v) => (v === null || v === undefined ? '–' : Math.round(v).toLocaleString('en-US'))
const fmtPct = (v) => (Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${v.toFixed(1)} %` : '∞')
const fmt2 = (v) => (v === null || v === undefined ? '–' : v.toFixed(2))

/** The Markdown section for bench/RESULTS.md. */
export function markdown(rows, meta) {
  const L = []
  L.push(`### ${meta.date}: ${meta.gpu}`, '')
  L.push(
    `${meta.gpu} (${meta.link}), driver ${meta.driver}, CUDA runtime ${meta.runtime}; ${meta.graph ? `graph kernels on \`${meta.graph}\`, zero-copy edge list, every host-memory launch of one run under \`ncu\`, summed` : 'one launch of each kernel under `ncu`'}; model: \`pcie-scope-model --l1-model ${meta.l1Model}\` (${L1_MODEL_TEXT[meta.l1Model]}; none for \`ld.global.cg\`).`,
    '',
  )
  const other = meta.l1Model === 'lru' ? 'ideal' : 'lru'
  L.push(
    `| kernel | useful bytes | MRds predicted | MRds measured | error | \`pcie__read_bytes\` predicted | measured | error | sectors/request predicted | measured | MRds, ${other} L1 | error |`,
  )
  L.push('|---|---|---|---|---|---|---|---|---|---|---|---|')
  for (const r of rows) {
    L.push(
      `| ${r.kernel}${r.off ? ' ⚠' : ''} | ${fmtInt(r.bytes)} | ${fmtInt(r.mrd.predicted)} | ${fmtInt(r.mrd.measured)} | ${fmtPct(r.mrd.errorPercent)} | ${fmtInt(r.readBytes.predicted)} | ${fmtInt(r.readBytes.measured)} | ${fmtPct(r.readBytes.errorPercent)} | ${fmt2(r.sectorsPerRequest.predicted)} | ${fmt2(r.sectorsPerRequest.measured)} | ${fmtInt(r.other?.mrd)} | ${r.other ? fmtPct(r.other.errorPercent) : '–'} |`,
    )
  }
  const off = rows.filter((r) => r.off)
  if (off.length) {
    L.push('', `⚠ off by more than ${OFF_LIMIT_PERCENT} %: ${off.map((r) => r.kernel).join(', ')}.`)
    const strided = off.some((r) => r.kernel.startsWith('strided') && r.kernel.endsWith('-ideal'))
    if (strided && meta.l1Model === 'lru')
      L.push(
        'The strided walk with default loads is the known hard case: at 8 resident blocks per SM its 2 048 thread-private lines are more than the L1 holds; the fitted random L1 matches the first wave of blocks, while the GPU loses fewer lines as waves follow each other (docs/gpu-model.md).',
      )
    else if (strided)
      L.push(
        "The strided walk with default loads is the known hard case: the model's ideal L1 never evicts, while the real L1 thrashes under thousands of thread-private walks (docs/gpu-coalescing.md), so the model is a lower bound there.",
      )
    if (off.some((r) => r.kernel.startsWith('bfs-naive')))
      L.push(
        meta.l1Model === 'lru'
          ? 'bfs-naive walks thread-private lists whose lines must survive in L1 between steps while every step also gathers 32 labels through the same L1 (docs/gpu-model.md): the hard case.'
          : "bfs-naive walks thread-private lists, the same hard case: the model's ideal L1 is a lower bound there (`--l1 bypass` the upper one), and its one shared L1 does not fetch a line twice for two SMs (docs/gpu-coalescing.md, graph model).",
      )
  }
  return L.join('\n') + '\n'
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 })
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`)
  return r
}

/** The runner's JSON result line inside ncu's mixed stdout. */
const runnerJson = (text) => {
  const line = text.split(/\r?\n/).find((l) => l.startsWith('{"pattern"'))
  return line ? JSON.parse(line) : undefined
}

/**
 * One run of the runner under ncu: every launch of `kernel` (or the first `launchCount`), one timed
 * run and no warm-up; the text (ncu's CSV with the runner's JSON line), kept in `save` if given.
 */
function profile({ ncu, runnerBin, kernel, launchCount, workload, name, save }) {
  process.stderr.write(`gpu-ncu: ${name}\n`)
  const r = run(ncu, [
    '--csv',
    '--print-units',
    'base',
    '--metrics',
    METRICS.join(','),
    '--kernel-name',
    `regex:${kernel}`,
    ...(launchCount === null ? [] : ['--launch-count', String(launchCount)]),
    runnerBin,
    ...workload,
    '--warmup',
    '0',
    '--repeats',
    '1',
  ])
  const text = r.stdout + r.stderr
  if (/ERR_NVGPUCTRPERM/.test(text))
    throw new Error('ncu may not read the GPU performance counters: run as root or set NVreg_RestrictProfilingToAdminUsers=0')
  if (r.status !== 0) throw new Error(`ncu … ${workload.join(' ')} failed (exit ${r.status}):\n${text.slice(-2000)}`)
  if (save) writeFileSync(join(save, `${name}.txt`), text)
  return text
}

/** pcie-scope-model's prediction for `args` under the chosen L1 model and the other one. */
function predict(modelBin, args, l1Model, single) {
  const one = (m) => {
    const r = run(modelBin, [...args, '--l1-model', m])
    if (r.status !== 0) throw new Error(`pcie-scope-model ${args.join(' ')} --l1-model ${m}: ${r.stdout}${r.stderr}`)
    return JSON.parse(r.stdout)
  }
  return [one(l1Model), single ? undefined : one(l1Model === 'lru' ? 'ideal' : 'lru')]
}

/** The graph kernels on one graph: profile (or read) every host-memory launch of one run, sum, compare. */
function graphRows({ graph, ncu, modelBin, runnerBin, save, from, only, l1Model, single }) {
  const rows = []
  let device
  for (const k of graphKernels(graph).filter((k) => k.name.includes(only))) {
    const file = from ? join(from, `${k.name}.txt`) : undefined
    if (file && !existsSync(file)) continue
    const workload = ['--pattern', k.pattern, '--graph', graph, '--memory', 'zerocopy']
    const text = file
      ? readFileSync(file, 'utf8')
      : profile({ ncu, runnerBin, kernel: k.cudaFunction, launchCount: null, workload, name: k.name, save })
    const result = runnerJson(text)
    if (!result) throw new Error(`${file ?? k.name}: no runner result line in the output`)
    if (result.pattern !== k.pattern || result.graph !== graph || result.memory !== 'zerocopy')
      throw new Error(
        `${file ?? k.name}: holds ${result.pattern} on ${result.graph} (${result.memory}), not ${k.pattern} on ${graph} (zerocopy)`,
      )
    if (!result.levels?.ok) throw new Error(`${k.name}: the GPU's answer does not match the CPU's`)
    device ??= result.device
    const launches = parseNcuCsv(text).filter((l) => l.kernel.includes(k.cudaFunction))
    if (launches.length !== result.launches)
      throw new Error(`${k.name}: ${launches.length} ${k.cudaFunction} launches profiled, the run made ${result.launches}`)
    const modelArgs = ['--pattern', k.pattern, '--graph', graph, '--id-bytes', String(result.idBytes), '--source', String(result.source)]
    const [model, other] = predict(modelBin, modelArgs, l1Model, single)
    rows.push(compare(k.name, model, measuredOf(sumLaunches(launches)), other))
  }
  return { rows, device }
}

function main(argv) {
  const opt = (name, dflt) => {
    const i = argv.indexOf(name)
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : dflt
  }
  const bytes = Number(opt('--bytes', String(64 << 20)))
  const build = resolve(opt('--build', join(root, 'build/gpu')))
  const ncu = opt('--ncu', 'ncu')
  const save = argv.includes('--save') ? resolve(opt('--save')) : undefined
  const from = argv.includes('--from') ? resolve(opt('--from')) : undefined
  const only = opt('--only', '')
  const modelBin = join(build, 'pcie-scope-model')
  const runnerBin = join(build, 'pcie-scope-gpu')
  if (!existsSync(modelBin)) throw new Error(`${modelBin} is missing: run npm run build:gpu`)
  if (!from && !existsSync(runnerBin)) throw new Error(`${runnerBin} is missing: run npm run build:gpu`)
  if (save) mkdirSync(save, { recursive: true })

  const l1Model = opt('--l1-model', 'lru')
  if (!(l1Model in L1_MODEL_TEXT)) throw new Error(`--l1-model must be lru or ideal, not ${l1Model}`)
  const single = argv.includes('--single')
  const graph = opt('--graph', undefined)
  const rows = []
  let device
  if (graph) {
    const g = graphRows({ graph, ncu, modelBin, runnerBin, save, from, only, l1Model, single })
    rows.push(...g.rows)
    device = g.device
  }
  for (const k of graph ? [] : suiteKernels().filter((k) => k.name.includes(only))) {
    const file = from ? join(from, `${k.name}.txt`) : undefined
    if (file && !existsSync(file)) continue // a saved profile covers what it covers
    const workload = [
      '--pattern',
      k.pattern,
      '--bytes',
      String(bytes),
      '--offset',
      String(k.offset),
      '--element-bytes',
      String(k.elementBytes),
      '--l1',
      k.l1,
    ]
    const text = file
      ? readFileSync(file, 'utf8')
      : profile({ ncu, runnerBin, kernel: 'zc_read', launchCount: 1, workload, name: k.name, save })
    const result = runnerJson(text)
    if (result?.checksum && !result.checksum.ok) throw new Error(`${k.name}: the kernel's checksum does not match the CPU's`)
    device ??= result?.device
    // the profile must be of this workload: the runner's line says what ran
    if (result && (result.pattern !== k.pattern || result.elementBytes !== k.elementBytes || result.l1 !== k.l1))
      throw new Error(`${file ?? k.name}: holds ${result.pattern} e${result.elementBytes} ${result.l1}, not ${k.name}`)
    const launch = parseNcuCsv(text).find((l) => l.kernel.includes('zc_read'))
    if (!launch) throw new Error(`${k.name}: no zc_read launch in the ncu output`)
    const ranBytes = result?.bytes ?? bytes
    const args = workload.map((a, i) => (workload[i - 1] === '--bytes' ? String(ranBytes) : a))
    const [model, other] = predict(modelBin, args, l1Model, single)
    rows.push(compare(k.name, model, measuredOf(launch.metrics), other))
  }
  if (!rows.length) throw new Error(from ? `no <kernel>.txt profiles in ${from}` : `no kernel matches --only ${only}`)
  if (argv.includes('--json')) {
    process.stdout.write(JSON.stringify({ device: device ?? null, l1Model, rows }) + '\n')
    return
  }
  const ver = (v) => (Number.isInteger(v) ? `${Math.floor(v / 1000)}.${(v % 1000) / 10}` : '?')
  const md = markdown(rows, {
    date: new Date().toISOString().slice(0, 10),
    gpu: device?.name ?? 'unknown GPU',
    link: device?.pcieGen ? `PCIe Gen${device.pcieGen} x${device.pcieWidth}` : 'PCIe link unknown',
    driver: device?.nvidiaDriver ?? `(CUDA driver API ${ver(device?.driverVersion)})`,
    runtime: ver(device?.runtimeVersion),
    graph,
    l1Model,
  })
  process.stdout.write(md)
  if (argv.includes('--append'))
    appendFileSync(join(root, 'bench/RESULTS.md'), `\n## GPU: Nsight Compute counters against the model (\`bench/gpu-ncu.mjs\`)\n\n${md}`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2))
  } catch (e) {
    process.stderr.write(`gpu-ncu: ${e instanceof Error ? e.message : String(e)}\n`)
    process.exit(1)
  }
}
