/** TypeScript constants for the host and the browser (host/src/core/generated.ts). */
import { num, type SpecModel } from './model.js'
import { banner, hex } from './text.js'

export function emitTs(m: SpecModel): string {
  const { registers: regs, protocol: proto, workloads: w } = m.raw
  const J = (v: unknown): string => JSON.stringify(v, null, 2)
  const L: string[] = [banner('//'), '/* eslint-disable */', '']
  L.push(`export const PROTOCOL_VERSION = ${proto.version}`)
  const sw = m.raw.switch
  L.push(
    `export const SWITCH_IDS = ${J({ vendorId: num(sw.vendorId), upstreamDeviceId: num(sw.upstreamDeviceId), downstreamDeviceId: num(sw.downstreamDeviceId), revisionId: num(sw.revisionId), classCode: num(sw.classCode) })} as const`,
  )
  L.push(`export const SWITCH_COUNTERS = ${J(sw.counters.map((c) => c.name))} as const`)
  L.push('export type SwitchCounterName = (typeof SWITCH_COUNTERS)[number]')
  L.push(
    `export const FRAMING = ${J({
      delimiter: proto.framing.delimiter,
      headerBytes: proto.framing.headerBytes,
      crcBytes: 2,
      maxPayloadBytes: proto.framing.maxPayloadBytes,
      maxRawBytes: m.maxRaw,
      maxEncodedBytes: m.maxEncoded,
    })} as const`,
  )
  L.push(
    `export const CRC16 = ${J({ name: proto.framing.crc.name, poly: num(proto.framing.crc.poly), init: num(proto.framing.crc.init), xorout: num(proto.framing.crc.xorout), check: num(proto.framing.crc.check) })} as const`,
  )
  L.push(`export const FRAME_TYPE = ${J(Object.fromEntries(proto.frameTypes.map((t) => [t.name, num(t.id)])))} as const`)
  L.push('export type FrameTypeName = keyof typeof FRAME_TYPE')
  L.push(`export const STATUS = ${J(Object.fromEntries(proto.status.map((s) => [s.name, s.id])))} as const`)
  L.push('export type StatusName = keyof typeof STATUS')
  L.push(`export const STATUS_DOC: Record<number, string> = ${J(Object.fromEntries(proto.status.map((s) => [s.id, s.doc])))}`)
  L.push(
    `export const COMMANDS = ${J(
      Object.fromEntries(
        m.commands.map((c) => [
          c.name,
          {
            id: c.id,
            doc: c.doc,
            args: c.argsLayout.fields.map(({ name, type, offset, min, max, default: dflt }) => ({
              name,
              type,
              offset,
              ...(min !== undefined ? { min } : {}),
              ...(max !== undefined ? { max } : {}),
              ...(dflt !== undefined ? { default: dflt } : {}),
            })),
            argsBytes: c.argsLayout.bytes,
            reply: c.replyLayout.fields.map(({ name, type, offset }) => ({ name, type, offset })),
            replyBytes: c.replyLayout.bytes,
          },
        ]),
      ),
    )} as const`,
  )
  L.push('export type CommandName = keyof typeof COMMANDS')
  for (const [name, l] of Object.entries(m.layouts)) {
    L.push(
      `export const ${name}_LAYOUT = ${J({ bytes: l.bytes, fields: Object.fromEntries(l.fields.map((f) => [f.name, { type: f.type, offset: f.offset, bytes: f.bytes }])) })} as const`,
    )
  }
  L.push(`export const SNAPSHOT_FLAG = ${J(Object.fromEntries(proto.snapshotFlags.map((f) => [f.name, 1 << f.bit])))} as const`)
  L.push(`/** ${proto.linkStats.doc}; in SNAPSHOT order. error: a value above 0 means something went wrong. */`)
  L.push(`export const LINK_STATS = ${J(m.linkStats.map((s) => ({ key: s.name, label: s.label, error: s.error, doc: s.doc })))} as const`)
  L.push("export type LinkStatKey = (typeof LINK_STATS)[number]['key']")
  L.push(`export const REG = ${J(Object.fromEntries(regs.registers.map((r) => [r.name, num(r.offset)])))} as const`)
  L.push('/** The values a register holds where the spec bounds them, [min, max]. */')
  L.push(`export const REG_RANGE = ${J(Object.fromEntries(regs.registers.flatMap((r) => (r.range ? [[r.name, r.range]] : []))))} as const`)
  L.push(`export const ID_MAGIC = 0x${hex(num(regs.idMagic), 8)}`)
  L.push(`export const REG_VERSION_VALUE = 0x${hex(m.versionValue, 8)}`)
  L.push('/** Interval-record words in order (register SMP_<word>), 32 bits each. */')
  L.push(`export const SAMPLE_WORDS = ${J(m.sampleWords)} as const`)
  L.push('/** Trace-record words in order (register TRC_REC_<word>), 32 bits each. */')
  L.push(`export const TRACE_WORDS = ${J(m.traceWords)} as const`)
  const fieldsOf = (name: string) => [...(regs.registers.find((r) => r.name === name)?.fields ?? [])].sort((a, b) => a.bit - b.bit)
  L.push('/** Trace record kinds by bit (TRC_TRIG_TYPES, TRC_FILT_TYPES), and the trigger conditions by bit (TRC_TRIG_EN). */')
  L.push(`export const TRACE_KINDS = ${J(fieldsOf('TRC_TRIG_TYPES').map((f) => f.name))} as const`)
  L.push('export type TraceKind = (typeof TRACE_KINDS)[number]')
  L.push(`export const TRACE_TRIGGER_BITS = ${J(Object.fromEntries(fieldsOf('TRC_TRIG_EN').map((f) => [f.name, f.bit])))} as const`)
  L.push('/** INTERVAL frames: the INTERVAL_LAYOUT header, then up to INTERVAL_MAX_RECORDS records of SAMPLE_WORDS. */')
  L.push(`export const INTERVAL_RECORD_BYTES = ${m.intervalRecordBytes}`, `export const INTERVAL_MAX_RECORDS = ${m.intervalMaxRecords}`)
  L.push('/** TRACE frames: the TRACE_LAYOUT header, then up to TRACE_MAX_RECORDS records of TRACE_WORDS. */')
  L.push(`export const TRACE_RECORD_BYTES = ${m.traceRecordBytes}`, `export const TRACE_MAX_RECORDS = ${m.traceMaxRecords}`)
  const hist = regs.latencyHistogram
  L.push('/** Latency histograms: HISTOGRAM_BINS log-spaced bins (HISTOGRAM_BIN_LAYOUT), then one overflow bin, per kind. */')
  L.push(`export const HISTOGRAM_BINS = ${hist.bins}`, `export const HISTOGRAM_WORDS = ${m.histogramWords}`)
  L.push("/** The bin layout of this spec: sub-bins per octave, the first octave's lower edge in clocks, bins before the overflow bin. */")
  L.push(
    `export const HISTOGRAM_BIN_LAYOUT = ${J({ subBins: hist.subBinsPerOctave, firstEdgeClocks: hist.firstEdgeClocks, bins: hist.bins })} as const`,
  )
  L.push("/** The histogram kinds by id (the HISTOGRAM frame's kind byte), with the counter each one's bins add up to. */")
  L.push(
    `export const HISTOGRAM_KINDS = ${J(regs.latencyHistogram.kinds.map((k) => ({ key: k.key, base: num(k.base), countCounter: m.counters.find((c) => c.name === k.countCounter)!.key, doc: k.doc })))} as const`,
  )
  L.push("/** The probe taps by id (TAP_INFO, the TAP_* frames' tap byte); tap i's registers at i * TAP_STRIDE. */")
  L.push(`export const TAP_STRIDE = ${num(regs.taps.stride)}`)
  L.push(`export const TAPS = ${J(regs.taps.list.map((t) => ({ name: t.name, key: t.key, doc: t.doc })))} as const`)
  L.push("export type TapKey = (typeof TAPS)[number]['key']")
  L.push("export type HistogramKindKey = (typeof HISTOGRAM_KINDS)[number]['key']")
  L.push(
    `export const COUNTERS = ${J(m.counters.map(({ name, key, index, offset, doc, source, noValueWhenZero }) => ({ name, key, index, offset, doc, source, ...(noValueWhenZero !== undefined ? { noValueWhenZero } : {}) })))} as const`,
  )
  L.push("export type CounterKey = (typeof COUNTERS)[number]['key']", '')
  L.push('/** MRd size classes in histogram order: `bytes` null for the catch-all class. */')
  L.push(
    `export const SIZE_CLASSES = ${J(m.sizeClasses.map((s) => ({ key: s.key, bytes: s.bytes, label: s.label, counter: s.counter.key })))} as const`,
  )
  L.push("export type SizeKey = (typeof SIZE_CLASSES)[number]['key']", '')
  L.push(`export const LINE_BYTES = ${w.lineBytes}`)
  L.push(`export const WORKLOAD_LIMITS = ${J(w.limits)} as const`)
  L.push('/** Lane load widths in bytes; bytes and offset must be multiples of the one used. */')
  L.push(`export const ELEMENT_BYTES = ${J(w.elementBytes.values)} as const`)
  L.push('export type ElementBytes = (typeof ELEMENT_BYTES)[number]')
  L.push(`export const ELEMENT_BYTES_DEFAULT: ElementBytes = ${w.elementBytes.default}`)
  L.push(`export const ELEMENT_BYTES_DOC = ${J(w.elementBytes.doc)}`)
  L.push('/** How the loads use L1, in spec order. */')
  L.push(`export const L1_SPECS = ${J(w.l1.values.map((v) => ({ name: v.name, id: v.id, doc: v.doc })))} as const`)
  L.push(`export const L1_LOADS = ${J(w.l1.values.map((v) => v.name))} as const`)
  L.push('export type L1LoadName = (typeof L1_LOADS)[number]')
  L.push(`export const L1_LOAD_DEFAULT: L1LoadName = ${J(w.l1.default)}`)
  L.push('/** Access patterns every runner accepts, in spec order. */')
  L.push(
    `export const PATTERN_SPECS = ${J(w.patterns.map((p) => ({ name: p.name, id: p.id, defaultOffset: p.defaultOffset, doc: p.doc })))} as const`,
  )
  L.push(`export const PATTERNS = ${J(w.patterns.map((p) => p.name))} as const`)
  L.push('export type PatternName = (typeof PATTERNS)[number]', '')
  const g = w.graphs
  L.push('/** Graph traversal kernels (EMOGI-style, over a CSR in host memory), in spec order. */')
  L.push(
    `export const GRAPH_KERNEL_SPECS = ${J(g.kernels.map((k) => ({ name: k.name, id: k.id, lanesPerVertex: k.lanesPerVertex, doc: k.doc })))} as const`,
  )
  L.push(`export const GRAPH_KERNELS = ${J(g.kernels.map((k) => k.name))} as const`)
  L.push('export type GraphKernelName = (typeof GRAPH_KERNELS)[number]')
  L.push("/** Graph generators, `NAME:S[:SEED]` (a user's own graph is `file:PATH`). */")
  L.push(`export const GRAPH_GENERATOR_SPECS = ${J(g.generators)} as const`)
  L.push(`export const GRAPH_GENERATORS = ${J(g.generators.map((x) => x.name))} as const`)
  L.push(`/** Edge tuples a generator draws per vertex. */`)
  L.push(`export const GRAPH_EDGE_FACTOR = ${g.edgeFactor}`)
  L.push(`/** ${g.scale.doc} */`)
  L.push(`export const GRAPH_SCALE = ${J({ min: g.scale.min, max: g.scale.max, serverMax: g.scale.serverMax })} as const`)
  L.push(`export const GRAPH_ID_BYTES = ${J(g.idBytes.values)} as const`)
  L.push(`export const GRAPH_ID_BYTES_DEFAULT = ${g.idBytes.default}`)
  L.push(`/** PageRank: ${g.pagerank.doc.replace(/`/g, '')}. */`)
  L.push(
    `export const PAGERANK = ${J({ iterations: g.pagerank.iterations, damping: g.pagerank.damping, tolerance: g.pagerank.tolerance })} as const`,
    '',
  )
  return L.join('\n')
}
