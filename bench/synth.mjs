#!/usr/bin/env node
/**
 * Area of the probe per configuration: Yosys `synth_xilinx -family xcup` (UltraScale+), printed
 * as Markdown for bench/RESULTS.md, with the structural checks that only a full synthesis can make
 * (moved here from the HDL tests, where they cost two minutes of every `npm test`):
 *   - no latches anywhere;
 *   - the histogram bins and the tracker's filtered-out bits land in LUT RAM, the sampler's record
 *     FIFO (and the tracker's tag table) in block RAM;
 *   - the probe (probe_core) at 512 bits with 10-bit tags within 2 % of an XCVU9P's LUTs, at 1, 2
 *     and 4 TLP segments per beat; the BAR top (the probe and the BAR responder) beside it;
 *   - the switch top (sw_router and its two probe taps) at 512 bits with 4 TLP segments per beat,
 *     its share of the XCVU9P reported beside them (no budget: only the probe has one);
 *   - flip-flops within budget: the counters' and the latency-histogram bins' running value +
 *     shadow, plus at most 2 000 more;
 *   - the trace unit (probe_trace) alone at 1 and 4 segments: its ring in block RAM and every
 *     register-to-register path within 8 LUT levels.
 * Each row also gives its deepest register-to-register path in LUT levels (logic-depth.mjs), and
 * the Verilog nets along it after the table: a proxy for timing, which needs Vivado. Every
 * configuration must keep it within MAX_LUT_LEVELS (8: a 250 MHz UltraScale+ budget); the
 * probe_tracker row counts its taps, inputs here, as sources.
 * The baseline in the same run is the BAR top at its default 256-bit width, so each row's ratio
 * says what a configuration costs against it. Exits 1 when a check fails.
 *
 * Usage: node bench/synth.mjs [--only TEXT] [--jobs N]
 *   --only: the configurations whose name contains TEXT, without the baseline (their "vs baseline"
 *           column is then empty)
 *   --jobs: N Yosys runs at once (default 1; each is single-threaded and takes up to a few GiB)
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { rtlFiles } from '../hdl/file-list.mjs'
import { LUTRAM_READS, MAX_LUT_LEVELS, logicDepth, topModule } from './logic-depth.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const build = join(root, 'build/synth')
mkdirSync(build, { recursive: true })
const { COUNTERS, HISTOGRAM_KINDS, HISTOGRAM_WORDS } = await import(pathToFileURL(join(root, 'dist/host/core/generated.js')).href)

// each configuration's sources: its top's file list (hdl/**/*.f)
const TRACKER = rtlFiles('hdl/rtl/probe_tracker.f')
// the probe itself: counters, tracker, sampler and CSR (probe_core), without a BAR responder
const PROBE = rtlFiles('hdl/rtl/probe_core.f')
const TOP = rtlFiles('hdl/rtl/pcie_scope_bar_top.f')
// the switch design: sw_router and a probe_core on each side, the CSR split by tap
const SWITCH_TOP = rtlFiles('hdl/rtl/pcie_scope_switch_top.f')
// the trace unit beside each probe
const TRACE = rtlFiles('hdl/rtl/probe_trace.f')

// LUTs (SLICEM LUT sites) each LUT-RAM primitive occupies (UltraScale+ CLB user guide, UG574:
// a LUT holds 64 x 1 bits, a dual-port RAM a copy per read port)
const LUTRAM_SITES = {
  RAM64M8: 8,
  RAM64M: 4,
  RAM32M: 4,
  RAM32M16: 8,
  RAM64X1S: 1,
  RAM64X1D: 2,
  RAM128X1S: 2,
  RAM128X1D: 4,
  RAM256X1S: 4,
  RAM256X1D: 8,
  RAM512X1S: 8,
}
const RAM = { lut: Object.keys(LUTRAM_SITES), block: ['RAMB18E2', 'RAMB36E2'] }
// The multi-port LUT-RAM macros are one LUT per read output (UG574: RAM64M8's eight LUTs share
// the write address, each with its own read address; RAM32M16 two bits a LUT). Yosys 0.23 maps a
// narrow memory with a few read ports to a whole RAM64M8 per port and leaves the other outputs
// unconnected; Vivado's opt_design sweep removes such unconnected leaf cells (UG904, "Remove
// unconnected leaf-level instances"). So these count the LUTs whose output something reads.
const MACRO_OUTPUTS = Object.fromEntries(['RAM64M8', 'RAM32M16', 'RAM64M', 'RAM32M'].map((t) => [t, LUTRAM_READS[t].outs]))

// LUT-RAM sites of a flattened netlist (Yosys write_json): every primitive at its LUTRAM_SITES,
// except the macros above, at the LUTs whose output has a reader; and the macro LUTs left unread
function lutramSites(netlist) {
  const top = topModule(netlist)
  const read = new Set()
  for (const cell of Object.values(top.cells)) {
    for (const [port, dir] of Object.entries(cell.port_directions ?? {})) {
      if (dir === 'input') for (const bit of cell.connections[port] ?? []) read.add(bit)
    }
  }
  for (const port of Object.values(top.ports)) if (port.direction === 'output') for (const bit of port.bits) read.add(bit)
  let sites = 0
  let unread = 0
  for (const cell of Object.values(top.cells)) {
    const outputs = MACRO_OUTPUTS[cell.type]
    if (outputs) {
      const used = outputs.filter((o) => (cell.connections[o] ?? []).some((bit) => read.has(bit))).length
      sites += used
      unread += outputs.length - used
    } else if (LUTRAM_SITES[cell.type]) sites += LUTRAM_SITES[cell.type]
  }
  return { sites, unread }
}
// the budget: the probe at 512 bits with 10-bit tags within 2 % of an XCVU9P's 1 182 240
// CLB LUTs (AMD Virtex UltraScale+ product table)
const VU9P_LUTS = 1182240
// a ceiling on flip-flops: every counter and every histogram bin as a 64-bit running value and a
// shadow, plus 2 000 (the bins are LUT RAM since probe_hist_bank, so the tops stay well below it)
const ffBudget = (COUNTERS.length + HISTOGRAM_KINDS.length * HISTOGRAM_WORDS) * 64 * 2 + 2000

const configs = [
  { name: 'BAR top, 256-bit, 8-bit tags (baseline)', top: 'pcie_scope_bar_top', files: TOP, params: [], checks: ['ffBudget', 'bram'] },
  {
    name: 'BAR top, 512-bit (the twin)',
    top: 'pcie_scope_bar_top',
    files: TOP,
    params: ['TLP_DATA_WIDTH 512'],
    checks: ['ffBudget', 'bram'],
  },
  // hist_shadow (every bin, for the benches) is not a port here, as in probe_core, which leaves
  // it open: as an output it would read every bin of the histograms' block RAM at once
  {
    name: 'probe_tracker alone, defaults',
    top: 'probe_tracker',
    files: TRACKER,
    params: [],
    setup: ['hierarchy -top probe_tracker', 'delete -port probe_tracker/hist_shadow'],
    checks: ['lutram'],
  },
  // the smallest probe: the first to check after a change to its RTL (about 2 minutes alone)
  { name: 'the probe (probe_core), defaults: 1 segment, 8-bit tags', top: 'probe_core', files: PROBE, params: [], checks: [] },
  // the budget is the probe's: probe_core at 512 bits (headers only: the width is the
  // segments') with 10-bit tags, a 1024-entry tag table in block RAM (probe_mp_ram,
  // probe_xor_bram), at 1, 2 and 4 TLP starts per clock (a straddled 512-bit interface: the
  // UltraScale+ completer request and completion interfaces straddle 2, its requester
  // completion interface 4)
  ...[1, 2, 4].map((seg) => ({
    name: `the probe (probe_core), 512-bit, ${seg} segment${seg > 1 ? 's' : ''}, 10-bit tags (the VU9P budget)`,
    top: 'probe_core',
    files: PROBE,
    params: [`TLP_SEG_COUNT ${seg}`, 'TAG_WIDTH 10'],
    checks: ['bram', 'lutram', 'vu9p'],
    weight: seg,
  })),
  // the BAR-endpoint top: the probe and the BAR responder (the completer the GPU reads), reported
  // against the same device; every per-segment part of both (classifiers, tracker lookups,
  // histogram banks, the responder's beat) once per segment
  ...[1, 2, 4].map((seg) => ({
    name: `BAR top, 512-bit, ${seg} segment${seg > 1 ? 's' : ''}, 10-bit tags`,
    top: 'pcie_scope_bar_top',
    files: TOP,
    params: ['TLP_DATA_WIDTH 512', `TLP_SEG_COUNT ${seg}`, 'TAG_WIDTH 10'],
    checks: ['bram', 'lutram'],
    weight: seg,
  })),
  // the trace unit alone: 4 096 records in block RAM; its paths within 8 LUT levels
  ...[1, 4].map((seg) => ({
    name: `the trace unit (probe_trace), ${seg} segment${seg > 1 ? 's' : ''}, ${seg > 1 ? 10 : 8}-bit tags`,
    top: 'probe_trace',
    files: TRACE,
    params: [`TLP_SEG_COUNT ${seg}`, `TAG_WIDTH ${seg > 1 ? 10 : 8}`],
    checks: ['ring'],
  })),
  {
    name: 'switch top with its two taps, 512-bit, 4 segments, 8-bit tags',
    top: 'pcie_scope_switch_top',
    files: SWITCH_TOP,
    params: ['TLP_DATA_WIDTH 512', 'TLP_SEG_COUNT 4'],
    checks: ['bram', 'lutram'],
    weight: 5,
  },
  // the rest of the depth matrix (every design at 256 and 512 bits, 1, 2 and 4 segments): the BAR
  // top at 256 bits, the switch top at its narrower straddles (the probe sees headers only, so its
  // rows above stand for both widths)
  ...[2, 4].map((seg) => ({
    name: `BAR top, 256-bit, ${seg} segments, 10-bit tags`,
    top: 'pcie_scope_bar_top',
    files: TOP,
    params: ['TLP_DATA_WIDTH 256', `TLP_SEG_COUNT ${seg}`, 'TAG_WIDTH 10'],
    checks: ['bram', 'lutram'],
    weight: seg,
  })),
  ...[
    [256, 1],
    [256, 2],
    [256, 4],
    [512, 1],
    [512, 2],
  ].map(([width, seg]) => ({
    name: `switch top with its two taps, ${width}-bit, ${seg} segment${seg > 1 ? 's' : ''}, 8-bit tags`,
    top: 'pcie_scope_switch_top',
    files: SWITCH_TOP,
    params: [`TLP_DATA_WIDTH ${width}`, `TLP_SEG_COUNT ${seg}`],
    checks: ['bram', 'lutram'],
    weight: seg + 1,
  })),
]
const onlyAt = process.argv.indexOf('--only')
const only = onlyAt > 0 ? process.argv[onlyAt + 1] : undefined
const selected = only ? configs.filter((c) => c.name.includes(only)) : configs

const jobsAt = process.argv.indexOf('--jobs')
const jobs = Math.max(1, jobsAt > 0 ? Number(process.argv[jobsAt + 1]) || 1 : 1)

// one Yosys run, its exit status and output
function yosysRun(script) {
  return new Promise((resolve) => {
    const child = spawn('yosys', ['-q', '-p', script], { cwd: root })
    let out = ''
    child.stdout.on('data', (d) => (out = (out + d).slice(-65536)))
    child.stderr.on('data', (d) => (out = (out + d).slice(-65536)))
    child.on('error', (e) => resolve({ status: -1, out: String(e) }))
    child.on('close', (status) => resolve({ status, out }))
  })
}

// one configuration synthesised and measured: its row
async function measure(c) {
  const report = join(build, `${c.name.replace(/[^a-z0-9]+/gi, '_')}.log`)
  const script = [
    `read_verilog -Ihdl/rtl/generated ${c.files.join(' ')}`,
    ...c.params.map((p) => `chparam -set ${p} ${c.top}`),
    ...(c.setup ?? []),
    `synth_xilinx -family xcup -top ${c.top} -flatten`,
    'select -assert-none t:$dlatch t:LDCE t:LDPE',
    `tee -o ${report} stat -tech xilinx`,
    `write_json ${report.replace(/\.log$/, '.json')}`,
  ].join('; ')
  const t0 = Date.now()
  const r = await yosysRun(script)
  const seconds = (Date.now() - t0) / 1000
  console.error(`synth: ${c.name}: ${r.status === 0 ? 'done' : 'FAILED'} in ${seconds.toFixed(0)} s`)
  if (r.status !== 0) return { c, error: `yosys failed (latch or error): ${r.out.trim().split('\n').slice(-3).join(' ')}` }
  const stat = readFileSync(report, 'utf8')
  // the netlist, read once for the LUT-RAM sites and the logic depth
  const netlist = JSON.parse(readFileSync(report.replace(/\.log$/, '.json'), 'utf8'))
  const lutram = lutramSites(netlist)
  const cells = (n) => Number(new RegExp(`^\\s+${n}\\s+(\\d+)$`, 'm').exec(stat)?.[1] ?? 0)
  const sum = (ns) => ns.reduce((a, n) => a + cells(n), 0)
  const m = {
    ffs: cells('FDRE') + cells('FDSE') + cells('FDCE') + cells('FDPE'),
    luts: sum(['LUT1', 'LUT2', 'LUT3', 'LUT4', 'LUT5', 'LUT6']),
    lcs: Number(/Estimated number of LCs:\s+(\d+)/.exec(stat)?.[1] ?? NaN),
    lutram: sum(RAM.lut),
    // LUT sites: Yosys's estimate of logic cells (small LUTs paired into one site, as Vivado
    // packs them) plus the sites LUT RAM occupies (lutramSites)
    sites: Number(/Estimated number of LCs:\s+(\d+)/.exec(stat)?.[1] ?? NaN) + lutram.sites,
    lutramSites: lutram.sites,
    unread: lutram.unread,
    bram18: cells('RAMB18E2') + 2 * cells('RAMB36E2'),
    depth: logicDepth(netlist),
    seconds,
  }
  const problems = []
  if (c.checks.includes('ffBudget') && m.ffs > ffBudget) problems.push(`${m.ffs} FFs > budget ${ffBudget}`)
  if (c.checks.includes('bram') && m.bram18 < 1) problems.push('the record FIFO is not in block RAM')
  // 4 096 records of 179 bits: 20 BRAM36 at least
  if (c.checks.includes('ring') && m.bram18 < 40) problems.push(`the trace ring takes ${m.bram18} BRAM18, not the 40 of a block-RAM ring`)
  if (c.checks.includes('lutram') && m.lutram < 1) problems.push('no LUT RAM (the histogram bins and filtered-out bits belong there)')
  if (c.checks.includes('vu9p') && !(m.sites <= 0.02 * VU9P_LUTS)) problems.push(`${m.sites} LUT sites > 2 % of the XCVU9P's ${VU9P_LUTS}`)
  if (m.depth.level > MAX_LUT_LEVELS) problems.push(`a path of ${m.depth.level} LUT levels > ${MAX_LUT_LEVELS}`)
  return { c, m, problems }
}

// --jobs N configurations at once (Yosys is single-threaded), the largest first so that the
// longest runs start early; rows printed in the table's order
const rows = new Array(selected.length)
const order = selected.map((c, i) => i).sort((a, b) => (selected[b].weight ?? 1) - (selected[a].weight ?? 1))
let next = 0
await Promise.all(
  Array.from({ length: Math.min(jobs, order.length) }, async () => {
    while (next < order.length) {
      const i = order[next++]
      rows[i] = await measure(selected[i])
    }
  }),
)
const failed = rows.filter((r) => r.error || r.problems.length).length

const base = only ? undefined : rows[0]?.m
const yosys = spawnSync('yosys', ['-V'], { encoding: 'utf8' }).stdout.trim().split(' ').slice(0, 2).join(' ')
console.log(
  `Probe area, ${yosys} synth_xilinx -family xcup (not Vivado: expect Vivado's LUT counts to differ); ${cpus().length} × ${cpus()[0]?.model.trim() ?? '?'}, ${new Date().toISOString().slice(0, 10)}\n`,
)
console.log(
  '| configuration | FFs | LUTs | LCs (Yosys estimate) | LUT RAM cells | LUT RAM sites (macro LUTs unread) | BRAM18 | LUT sites (LCs + LUT RAM) / XCVU9P | LUTs vs baseline | deepest path: LUT levels / carry cells | checks | synth s |',
)
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|')
for (const { c, m, problems, error } of rows) {
  if (error) console.log(`| ${c.name} | | | | | | | | | FAILED: ${error} | |`)
  else
    console.log(
      `| ${c.name} | ${m.ffs} | ${m.luts} | ${m.lcs} | ${m.lutram} | ${m.lutramSites} (${m.unread}) | ${m.bram18} | ${m.sites} (${((100 * m.sites) / VU9P_LUTS).toFixed(2)} %) | ${base ? (m.luts / base.luts).toFixed(2) : '?'} | ${m.depth.level} / ${m.depth.carry} | ${problems.length ? 'FAILED: ' + problems.join('; ') : 'ok'} | ${m.seconds.toFixed(0)} |`,
    )
}
// each configuration's deepest path, by the Verilog nets along it (Yosys's own $-names left out)
for (const { c, m } of rows) {
  if (!m) continue
  const named = m.depth.cells.map((x) => x.net).filter((n) => !n.startsWith('$'))
  console.log(
    `\n${c.name}: ${m.depth.level} LUT levels, ${m.depth.carry} carry cells, ${m.depth.muxf} MUXF; through ${named.join(' -> ') || '(unnamed nets)'}`,
  )
  const blocks = m.depth.byBlock.slice(0, 8).map((b) => `${b.block} ${b.level}/${b.carry}`)
  console.log(`  deepest into each block's registers (LUT levels / carry cells): ${blocks.join(', ')}`)
}
process.exit(failed ? 1 : 0)
