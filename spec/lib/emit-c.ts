/** C headers for the firmware (and the twin, which includes them): registers and protocol. */
import { num, type Placed, type SpecModel } from './model.js'
import { banner, hex, snake } from './text.js'

export function emitCRegs(m: SpecModel): string {
  const regs = m.raw.registers
  const L: string[] = [banner('/*').concat(' */'), '#ifndef PCIE_SCOPE_REGS_H', '#define PCIE_SCOPE_REGS_H', '']
  L.push(`#define PS_ID_MAGIC 0x${hex(num(regs.idMagic), 8)}u`)
  L.push(`#define PS_VERSION_VALUE 0x${hex(m.versionValue, 8)}u`, '')
  const sw = m.raw.switch
  L.push('/* switch ports (spec/switch.json) */')
  L.push(`#define PS_SW_VENDOR_ID 0x${hex(num(sw.vendorId), 4)}u`)
  L.push(`#define PS_SW_UP_DEVICE_ID 0x${hex(num(sw.upstreamDeviceId), 4)}u`)
  L.push(`#define PS_SW_DN_DEVICE_ID 0x${hex(num(sw.downstreamDeviceId), 4)}u`)
  L.push(`#define PS_SW_CLASS_CODE 0x${hex(num(sw.classCode), 6)}u`)
  L.push(`#define PS_SW_CNT_COUNT ${sw.counters.length}`)
  sw.counters.forEach((c, i) => L.push(`#define PS_SW_CNT_${c.name} ${i}`))
  L.push('')
  for (const r of regs.registers) {
    L.push(`/* ${r.name} (${r.access}): ${r.doc} */`)
    L.push(`#define PS_REG_${r.name} 0x${hex(num(r.offset), 3)}u`)
    if (r.reset !== undefined) L.push(`#define PS_REG_${r.name}_RESET ${r.reset}u`)
    if (r.range) L.push(`#define PS_REG_${r.name}_MIN ${r.range[0]}u`, `#define PS_REG_${r.name}_MAX ${r.range[1]}u`)
    for (const f of r.fields ?? []) L.push(`#define PS_REG_${r.name}_${f.name} (1u << ${f.bit})`)
  }
  L.push('', '/* counters: 64-bit shadows; low word at PS_REG_CNT_LO(i), high word at PS_REG_CNT_HI(i) */')
  L.push(`#define PS_REG_CNT_BASE 0x${hex(num(regs.counters.base), 3)}u`)
  L.push(`#define PS_CNT_COUNT ${m.counters.length}u`)
  L.push('#define PS_REG_CNT_LO(i) (PS_REG_CNT_BASE + 8u * (unsigned)(i))')
  L.push('#define PS_REG_CNT_HI(i) (PS_REG_CNT_BASE + 8u * (unsigned)(i) + 4u)')
  for (const c of m.counters) L.push(`#define PS_CNT_${c.name} ${c.index}u /* ${c.doc} */`)
  L.push('', '/* MRd size classes: the exact sizes in class order, then one class for every other size */')
  L.push(`#define PS_SIZE_CLASS_COUNT ${m.sizeClasses.length}u`)
  L.push(
    `#define PS_SIZE_EXACT_BYTES_INIT { ${m.sizeClasses
      .filter((s) => s.bytes !== null)
      .map((s) => `${s.bytes}u`)
      .join(', ')} }`,
  )
  L.push(`#define PS_CNT_SIZE_FIRST ${m.sizeCounterFirst}u`)
  L.push('', '/* interval record: PS_SMP_WORDS 32-bit words, the SMP_* registers from PS_REG_SMP_TS_LO */')
  L.push(`#define PS_SMP_WORDS ${m.sampleWords.length}u`)
  L.push('/* trace record: PS_TRC_REC_WORDS 32-bit words, the TRC_REC_* registers from PS_REG_TRC_REC_DW0 */')
  L.push(`#define PS_TRC_REC_WORDS ${m.traceWords.length}u`)
  const hist = regs.latencyHistogram
  L.push('', '/* latency histograms: per kind PS_HIST_WORDS 64-bit shadows (the bins, then overflow) from the')
  L.push(" * kind's base; PS_HIST_KIND_<NAME> is its id (the HISTOGRAM frame's kind byte), PS_HIST_BASES by id */")
  L.push(`#define PS_HIST_BINS ${hist.bins}u`, `#define PS_HIST_WORDS ${m.histogramWords}u`, `#define PS_HIST_KINDS ${hist.kinds.length}u`)
  L.push("/* the bins' layout (HIST_LAYOUT): 2^PS_HIST_SUB_BINS_LOG2 sub-bins per octave from 2^PS_HIST_FIRST_EDGE_LOG2 clocks */")
  L.push(
    `#define PS_HIST_SUB_BINS_LOG2 ${Math.log2(hist.subBinsPerOctave)}u`,
    `#define PS_HIST_FIRST_EDGE_LOG2 ${Math.log2(hist.firstEdgeClocks)}u`,
  )
  L.push(`#define PS_HIST_LAYOUT_VALUE 0x${hex(m.histogramLayoutValue, 8)}u`)
  hist.kinds.forEach((k, i) => {
    L.push(`#define PS_HIST_KIND_${k.name} ${i}u /* ${k.doc} */`)
    L.push(`#define PS_REG_HIST_${k.name}_BASE 0x${hex(num(k.base), 3)}u`)
  })
  L.push(`#define PS_HIST_BASES { ${hist.kinds.map((k) => `PS_REG_HIST_${k.name}_BASE`).join(', ')} }`)
  L.push('#define PS_REG_HIST_LO(base, k) ((base) + 8u * (unsigned)(k))')
  L.push('#define PS_REG_HIST_HI(base, k) ((base) + 8u * (unsigned)(k) + 4u)')
  const taps = regs.taps
  L.push('', "/* probe taps: tap i's copy of every register above at PS_TAP_BASE(i) + offset; PS_TAP_<NAME> is")
  L.push(" * its id (TAP_INFO bits 7:0, the TAP_* frames' tap byte); PS_TAP_COUNT the most a design has */")
  L.push(`#define PS_TAP_STRIDE 0x${hex(num(taps.stride), 4)}u`, `#define PS_TAP_COUNT ${taps.list.length}u`)
  L.push('#define PS_TAP_BASE(i) (PS_TAP_STRIDE * (unsigned)(i))')
  taps.list.forEach((t, i) => L.push(`#define PS_TAP_${t.name} ${i}u /* ${t.doc} */`))
  L.push('', '#endif', '')
  return L.join('\n')
}

const cFields = (prefix: string, fields: Placed[]): string[] =>
  fields.flatMap((f) => {
    const n = `${prefix}_${snake(f.name)}`
    const lines = [`#define ${n}_OFFSET ${f.offset}u /* ${f.type} */`]
    if (f.min !== undefined) lines.push(`#define ${n}_MIN ${f.min}u`)
    if (f.max !== undefined) lines.push(`#define ${n}_MAX ${f.max}u`)
    if (f.default !== undefined) lines.push(`#define ${n}_DEFAULT ${f.default}u /* used when 0 is sent */`)
    return lines
  })

/**
 * The firmware's link statistics: the struct it counts in, and PS_LINK_STATS(X), which calls
 * X(member, offset) for each in SNAPSHOT order (the SNAPSHOT encoder writes them with it).
 */
const cLinkStats = (m: SpecModel): string[] => {
  const member = (name: string) => snake(name).toLowerCase()
  const width = Math.max(...m.linkStats.map((s) => member(s.name).length)) + 1
  return [
    `/* ${m.raw.protocol.linkStats.doc} */`,
    `#define PS_LINK_STAT_COUNT ${m.linkStats.length}u`,
    '#define PS_LINK_STATS(X) \\',
    ...m.linkStats.map((s, i) => `    X(${member(s.name)}, PS_SNAPSHOT_${snake(s.name)}_OFFSET)${i + 1 < m.linkStats.length ? ' \\' : ''}`),
    'typedef struct ps_link_stats {',
    ...m.linkStats.map((s) => `    uint32_t ${`${member(s.name)};`.padEnd(width)} /* ${s.doc} */`),
    '} ps_link_stats_t;',
  ]
}

export function emitCProtocol(m: SpecModel): string {
  const proto = m.raw.protocol
  const fr = proto.framing
  const L: string[] = [
    banner('/*').concat(' */'),
    '#ifndef PCIE_SCOPE_PROTOCOL_H',
    '#define PCIE_SCOPE_PROTOCOL_H',
    '',
    '#include <stdint.h>',
    '',
  ]
  L.push(`/* ${fr.doc} */`)
  L.push(`#define PS_PROTOCOL_VERSION ${proto.version}u`)
  L.push(`#define PS_FRAME_DELIMITER 0x${hex(fr.delimiter, 2)}u`)
  L.push(`#define PS_FRAME_HEADER_BYTES ${fr.headerBytes}u`)
  L.push('#define PS_FRAME_CRC_BYTES 2u')
  L.push(`#define PS_FRAME_MAX_PAYLOAD ${fr.maxPayloadBytes}u`)
  L.push(`#define PS_FRAME_MAX_RAW ${m.maxRaw}u /* header + payload + crc, before COBS */`)
  L.push(`#define PS_FRAME_MAX_ENCODED ${m.maxEncoded}u /* after COBS, with the delimiter */`)
  L.push(`/* ${fr.crc.name} over ${fr.crc.covers} */`)
  L.push(`#define PS_CRC16_POLY ${fr.crc.poly}u`, `#define PS_CRC16_INIT ${fr.crc.init}u`)
  L.push(`#define PS_CRC16_XOROUT ${fr.crc.xorout}u`, `#define PS_CRC16_CHECK ${fr.crc.check}u`, '')
  for (const t of proto.frameTypes) L.push(`#define PS_FRAME_${t.name} ${t.id}u /* ${t.direction}: ${t.doc} */`)
  L.push('')
  for (const s of proto.status) L.push(`#define PS_STATUS_${s.name} ${s.id}u /* ${s.doc} */`)
  L.push('')
  for (const [name, l] of Object.entries(m.layouts)) {
    L.push(`/* ${name} payload */`, ...cFields(`PS_${name}`, l.fields), `#define PS_${name}_BYTES ${l.bytes}u`, '')
  }
  L.push('/* INTERVAL: the header above, then up to PS_INTERVAL_MAX_RECORDS records of PS_SMP_WORDS u32 words */')
  L.push(`#define PS_INTERVAL_RECORD_BYTES ${m.intervalRecordBytes}u`, `#define PS_INTERVAL_MAX_RECORDS ${m.intervalMaxRecords}u`, '')
  L.push('/* TRACE: the header above, then up to PS_TRACE_MAX_RECORDS records of PS_TRC_REC_WORDS u32 words */')
  L.push(`#define PS_TRACE_RECORD_BYTES ${m.traceRecordBytes}u`, `#define PS_TRACE_MAX_RECORDS ${m.traceMaxRecords}u`, '')
  for (const f of proto.snapshotFlags) L.push(`#define PS_SNAPSHOT_FLAG_${f.name} (1u << ${f.bit})`)
  L.push('', ...cLinkStats(m), '')
  for (const c of m.commands) {
    L.push(`/* ${c.name}: ${c.doc} */`)
    L.push(`#define PS_CMD_${c.name} ${c.id}u`)
    L.push(`#define PS_CMD_${c.name}_ARGS_BYTES ${c.argsLayout.bytes}u`)
    L.push(...cFields(`PS_CMD_${c.name}_ARG`, c.argsLayout.fields))
    L.push(`#define PS_CMD_${c.name}_REPLY_BYTES ${c.replyLayout.bytes}u`)
    L.push(...cFields(`PS_CMD_${c.name}_REPLY`, c.replyLayout.fields))
  }
  L.push('', '#endif', '')
  return L.join('\n')
}
