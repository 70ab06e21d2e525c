/** Verilog `defines: register map, counter indices and the size classes of the MRd classifier. */
import { num, type SpecModel } from './model.js'
import { banner, hex } from './text.js'

export function emitVerilog(m: SpecModel): string {
  const regs = m.raw.registers
  const aw = regs.addressWidth
  const L: string[] = [banner('//'), '`ifndef PCIE_SCOPE_REGS_VH', '`define PCIE_SCOPE_REGS_VH', '']
  L.push(`\`define PS_ADDR_WIDTH ${aw}`)
  L.push(`\`define PS_ID_MAGIC 32'h${hex(num(regs.idMagic), 8)}`)
  L.push(`\`define PS_VERSION_VALUE 32'h${hex(m.versionValue, 8)}`)
  L.push('')
  for (const r of regs.registers) {
    L.push(`// ${r.name} (${r.access}): ${r.doc}`)
    L.push(`\`define PS_REG_${r.name} ${aw}'h${hex(num(r.offset), 3)}`)
    if (r.reset !== undefined) L.push(`\`define PS_REG_${r.name}_RESET 32'd${r.reset}`)
    for (const f of r.fields ?? []) L.push(`\`define PS_REG_${r.name}_${f.name}_BIT ${f.bit}`)
  }
  L.push('', `// counters: ${regs.counters.width}-bit shadows, low word at PS_REG_CNT_BASE + 8*index`)
  L.push(`\`define PS_REG_CNT_BASE ${aw}'h${hex(num(regs.counters.base), 3)}`)
  L.push(`\`define PS_CNT_COUNT ${m.counters.length}`)
  for (const c of m.counters) L.push(`\`define PS_CNT_${c.name} ${c.index}`)
  const probe = m.counters.filter((c) => c.source === 'probe').length
  L.push('// probe_counters owns counters 0..PS_CNT_PROBE_COUNT-1; probe_tracker the rest, from PS_CNT_TRACKER_FIRST')
  L.push(`\`define PS_CNT_PROBE_COUNT ${probe}`)
  L.push('`define PS_CNT_TRACKER_FIRST `PS_CNT_PROBE_COUNT')
  L.push(`\`define PS_CNT_TRACKER_COUNT ${m.counters.length - probe}`)
  const exact = m.sizeClasses.filter((s) => s.bytes !== null)
  L.push('', '// MRd size classes: class k < PS_SIZE_EXACT_COUNT is exactly PS_SIZE_EXACT_BYTES[k*13 +: 13] requested')
  L.push('// bytes; class PS_SIZE_EXACT_COUNT catches every other size. Class k counts in counter PS_CNT_SIZE_FIRST + k.')
  L.push(`\`define PS_SIZE_CLASS_COUNT ${m.sizeClasses.length}`)
  L.push(`\`define PS_SIZE_EXACT_COUNT ${exact.length}`)
  L.push(
    `\`define PS_SIZE_EXACT_BYTES {${[...exact]
      .reverse()
      .map((s) => `13'd${s.bytes}`)
      .join(', ')}}`,
  )
  L.push(`\`define PS_CNT_SIZE_FIRST ${m.sizeCounterFirst}`)
  L.push('', '// interval record: PS_SMP_WORDS 32-bit words, the SMP_* registers from PS_REG_SMP_TS_LO')
  L.push(`\`define PS_SMP_WORDS ${m.sampleWords.length}`)
  const hist = regs.latencyHistogram
  L.push('', '// latency histograms: per kind PS_HIST_BINS bins plus overflow, 64-bit shadows from PS_REG_HIST_<NAME>_BASE;')
  L.push("// PS_HIST_<NAME> is the kind's id (its slice of the tracker's histogram read bus)")
  L.push(`\`define PS_HIST_BINS ${hist.bins}`, `\`define PS_HIST_KINDS ${hist.kinds.length}`)
  L.push("// the bins' layout: 2**PS_HIST_SUB_BINS_LOG2 sub-bins per octave from 2**PS_HIST_FIRST_EDGE_LOG2 clocks")
  L.push(
    `\`define PS_HIST_SUB_BINS_LOG2 ${Math.log2(hist.subBinsPerOctave)}`,
    `\`define PS_HIST_FIRST_EDGE_LOG2 ${Math.log2(hist.firstEdgeClocks)}`,
  )
  hist.kinds.forEach((k, i) => {
    L.push(`// ${k.doc}`)
    L.push(`\`define PS_HIST_${k.name} ${i}`)
    L.push(`\`define PS_REG_HIST_${k.name}_BASE ${aw}'h${hex(num(k.base), 3)}`)
  })
  const tr = regs.trace
  L.push('', '// trace unit: its TRC_* registers in [PS_TRC_WINDOW_BASE, +PS_TRC_WINDOW_BYTES); a record is PS_TRC_REC_WORDS')
  L.push('// 32-bit words, the TRC_REC_* registers from PS_REG_TRC_REC_DW0; PS_TRC_BANKS records stored per clock')
  L.push(`\`define PS_TRC_WINDOW_BASE ${aw}'h${hex(num(tr.base), 3)}`, `\`define PS_TRC_WINDOW_BYTES ${tr.bytes}`)
  L.push(
    `\`define PS_TRC_REC_WORDS ${m.traceWords.length}`,
    `\`define PS_TRC_BANKS ${tr.banks}`,
    `\`define PS_TRC_MIN_DEPTH ${tr.minDepth}`,
  )
  const taps = regs.taps
  L.push('', "// probe taps: tap i's copy of the map at i * PS_TAP_STRIDE; PS_TAP_<NAME> is its id (TAP_INFO)")
  L.push(`\`define PS_TAP_STRIDE 32'h${hex(num(taps.stride), 8)}`, `\`define PS_TAP_COUNT ${taps.list.length}`)
  taps.list.forEach((t, i) => L.push(`\`define PS_TAP_${t.name} ${i}`))
  const sw = m.raw.switch
  L.push('', '// switch (spec/switch.json): port identity and per-direction counters, counter i at [32*i +: 32]')
  L.push(`\`define PS_SW_VENDOR_ID 16'h${hex(num(sw.vendorId), 4)}`)
  L.push(`\`define PS_SW_UP_DEVICE_ID 16'h${hex(num(sw.upstreamDeviceId), 4)}`)
  L.push(`\`define PS_SW_DN_DEVICE_ID 16'h${hex(num(sw.downstreamDeviceId), 4)}`)
  L.push(`\`define PS_SW_REVISION_ID 8'h${hex(num(sw.revisionId), 2)}`)
  L.push(`\`define PS_SW_CLASS_CODE 24'h${hex(num(sw.classCode), 6)}`)
  L.push(`\`define PS_SW_CNT_COUNT ${sw.counters.length}`)
  sw.counters.forEach((c, i) => L.push(`\`define PS_SW_CNT_${c.name} ${i}`))
  L.push('', '`endif', '')
  return L.join('\n')
}
