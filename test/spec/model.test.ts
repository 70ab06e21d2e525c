// Tests of spec/lib/model.ts: the spec validates itself before anything is generated.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildModel, readRawSpec, SpecError, type RawSpec } from '../../spec/lib/model.js'

const root = join(import.meta.dirname, '../..')
const fresh = (): RawSpec => structuredClone(readRawSpec(root))

const problems = (edit: (s: RawSpec) => void): string[] => {
  const s = fresh()
  edit(s)
  try {
    buildModel(s)
  } catch (e) {
    if (e instanceof SpecError) return e.problems
    throw e
  }
  return []
}

describe('spec validation', () => {
  it('accepts the checked-in spec', () => {
    expect(problems(() => undefined)).toEqual([])
  })
  it('refuses switch identities that do not fit their fields, a non-bridge class and duplicate counters', () => {
    expect(problems((s) => (s.switch.vendorId = '0x10000'))).toContain('switch: vendorId 0x10000 is not a 16-bit hex value')
    expect(problems((s) => (s.switch.classCode = '0x020000'))).toContain('switch: classCode 0x020000 must be 0x060400 (PCI-to-PCI bridge)')
    expect(problems((s) => s.switch.counters.push({ name: 'UR', doc: 'again' }))).toContain('switch: counter UR is used twice')
  })
  it('refuses latency-histogram kinds that collide, overlap or name no counter', () => {
    const kinds = (s: RawSpec) => s.registers.latencyHistogram.kinds
    expect(problems((s) => (kinds(s)[1]!.base = '0x500'))).toContain('latencyHistogram FIRST: its window overlaps latency histogram LAST')
    expect(problems((s) => (kinds(s)[1]!.key = 'last'))).toContain('latencyHistogram: key last is used twice')
    expect(problems((s) => (kinds(s)[1]!.countCounter = 'LAT_NONE'))).toContain(
      'latencyHistogram FIRST: countCounter LAT_NONE is not a counter',
    )
    expect(problems((s) => (kinds(s)[0]!.base = '0x404'))).toContain('latencyHistogram LAST: base 0x404 is not 8-byte aligned')
    expect(problems((s) => (kinds(s)[1]!.base = '0xF00'))).toContain(
      'latencyHistogram FIRST: 89 bins from 0xF00 overflow the address space',
    )
    expect(problems((s) => (s.registers.latencyHistogram.kinds = []))).toContain('latencyHistogram: kinds must list at least one histogram')
    expect(problems((s) => (s.registers.latencyHistogram.subBinsPerOctave = 6))).toContain(
      'latencyHistogram: subBinsPerOctave 6 is not a power of two from 2 up to 128',
    )
    expect(problems((s) => (s.registers.latencyHistogram.firstEdgeClocks = 4))).toContain(
      'latencyHistogram: firstEdgeClocks 4 is not a power of two from subBinsPerOctave up to 65536',
    )
    expect(problems((s) => (s.registers.latencyHistogram.bins = 12))).toContain(
      "latencyHistogram: bins 12 is fewer than two octaves of sub-bins (16): the probe's bin index needs them",
    )
  })
  it('keeps the trace registers in their window and the record words contiguous and read-only', () => {
    const reg = (s: RawSpec, name: string) => s.registers.registers.find((r) => r.name === name)!
    expect(problems((s) => (reg(s, 'TRC_PRE').offset = '0x0B0'))).toContain('registers: TRC_PRE at 0x0B0 lies outside the trace window')
    expect(problems((s) => (reg(s, 'SAMPLE_STATUS').offset = '0xCF0'))).toContain(
      'registers: SAMPLE_STATUS at 0xCF0 lies inside the trace window',
    )
    expect(problems((s) => (reg(s, 'TRC_REC_INFO').offset = '0xC98'))).toContain(
      'registers: TRC_REC_INFO leaves a gap in the TRC_REC_* record window',
    )
    expect(problems((s) => (reg(s, 'TRC_REC_DW2').access = 'rw'))).toContain('registers: TRC_REC_DW2 must be ro (a trace record word)')
    expect(problems((s) => (s.registers.trace.base = '0x800'))).toContain('trace: the window overlaps latency histogram FIRST')
    expect(problems((s) => (s.registers.trace.banks = 3))).toContain('trace: banks 3 is not a power of two')
    expect(problems((s) => (s.registers.trace.minDepth = 1000))).toContain('trace: minDepth 1000 is not a power of two of at least banks')
  })
  it('refuses duplicate register names and offsets, and unaligned offsets', () => {
    expect(problems((s) => s.registers.registers.push({ ...s.registers.registers[0]!, offset: '0x020' }))).toContain(
      'registers: name ID is used twice',
    )
    expect(problems((s) => s.registers.registers.push({ ...s.registers.registers[0]!, name: 'ID2' }))).toContain(
      'registers: offset 0x0 is used twice',
    )
    expect(problems((s) => (s.registers.registers[2]!.offset = '0x00A'))).toContain('registers: CTRL offset 0x00A is not 4-byte aligned')
  })
  it('refuses field bits outside the data width and registers inside the counter block', () => {
    expect(problems((s) => (s.registers.registers[2]!.fields![0]!.bit = 32))).toContain('registers: CTRL.ENABLE bit 32 is outside 0..31')
    expect(problems((s) => (s.registers.registers[2]!.offset = '0x108'))).toContain('registers: CTRL at 0x108 overlaps the counter block')
  })
  it('refuses a register range that is not [min, max] within the data width', () => {
    const tag = (s: RawSpec) => s.registers.registers.find((r) => r.name === 'TRC_TRIG_TAG')!
    expect(problems((s) => (tag(s).range = [5, 4]))).toContain('registers: TRC_TRIG_TAG range [5,4] is not [min, max] within 32 bits')
    expect(problems((s) => (tag(s).range = [0, 2 ** 32]))).toContain(
      'registers: TRC_TRIG_TAG range [0,4294967296] is not [min, max] within 32 bits',
    )
    expect(problems((s) => (tag(s).range = [0.5, 3]))).toHaveLength(1)
  })
  it('refuses duplicate counter names and keys, including ones the size classes create', () => {
    expect(problems((s) => s.registers.counters.list.push({ name: 'MRD_32', key: 'x', doc: '' }))).toContain(
      'counters: name MRD_32 is used twice',
    )
    expect(problems((s) => s.registers.counters.list.push({ name: 'X', key: 'cycles', doc: '' }))).toContain(
      'counters: key cycles is used twice',
    )
  })
  it('keeps the tracker counters after the probe counters, as the RTL concatenates them', () => {
    expect(
      problems((s) => {
        s.registers.counters.list.push({ name: 'T1', key: 't1', doc: '', source: 'tracker' })
        s.registers.counters.list.push({ name: 'P1', key: 'p1', doc: '' })
      }),
    ).toContain('counters: every source "tracker" counter must come after all probe counters')
    expect(problems((s) => s.registers.counters.list.push({ name: 'T1', key: 't1', doc: '', source: 'tracker' }))).toEqual([])
    expect(problems((s) => s.registers.counters.list.push({ name: 'T1', key: 't1', doc: '', source: 'fpga' as 'tracker' }))).toContain(
      "counters: T1: source 'fpga' is not probe or tracker",
    )
  })
  it('refuses size classes out of order or off the DW grid', () => {
    expect(problems((s) => (s.registers.sizeClasses.exact = [64, 32]))).toContain('sizeClasses: sizes must ascend (64 then 32)')
    expect(problems((s) => (s.registers.sizeClasses.exact = [30]))).toContain('sizeClasses: 30 is not a multiple of 4 in 4..4096')
  })
  it('refuses duplicate command ids and defaults outside min..max', () => {
    expect(problems((s) => (s.protocol.commands[1]!.id = s.protocol.commands[0]!.id))).toContain('commands: id 1 is used twice')
    expect(problems((s) => (s.protocol.commands.find((c) => c.name === 'START')!.args[0]!.default = 5))).toContain(
      'START.periodMs: default 5 is outside min..max',
    )
    expect(problems((s) => (s.protocol.commands.find((c) => c.name === 'START')!.args[0]!.max = 70000))).toContain(
      'START.periodMs: max 70000 does not fit u16',
    )
  })
  it('expands the link statistics into SNAPSHOT u32 fields after the counters, and refuses them misplaced or named twice', () => {
    const m = buildModel(fresh())
    const snap = m.layouts.SNAPSHOT.fields
    const after = snap.findIndex((f) => f.type === 'counters') + 1
    expect(snap.slice(after).map((f) => [f.name, f.type])).toEqual(m.linkStats.map((s) => [s.name, 'u32']))
    const stats = (s: RawSpec) => s.protocol.linkStats.list
    expect(problems((s) => stats(s).push({ ...stats(s)[0]! }))).toContain('linkStats: rxFrames is used twice')
    expect(problems((s) => (stats(s)[1]!.name = 'index'))).toContain('linkStats: index is also a SNAPSHOT field')
    expect(problems((s) => (stats(s)[1]!.name = 'rx_bad'))).toContain('linkStats: rx_bad is not camelCase')
    expect(problems((s) => s.protocol.payloads.INTERVAL.push({ name: 'stats', type: 'linkStats' }))).toContain(
      'INTERVAL.stats: linkStats belong in SNAPSHOT only',
    )
    expect(problems((s) => (s.protocol.payloads.SNAPSHOT = s.protocol.payloads.SNAPSHOT.filter((i) => i.type !== 'linkStats')))).toContain(
      'SNAPSHOT: needs exactly one linkStats item',
    )
  })
  it('refuses duplicate patterns and default offsets that break the limits', () => {
    expect(problems((s) => s.workloads.patterns.push({ ...s.workloads.patterns[0]!, id: 3, enum: 'Other' }))).toContain(
      'patterns: name strided is used twice',
    )
    expect(problems((s) => (s.workloads.patterns[2]!.defaultOffset = 30))).toContain(
      'patterns: merged-misaligned defaultOffset 30 breaks the offset limits',
    )
    expect(problems((s) => (s.workloads.limits.bytes.min = 6))).toContain('limits.bytes: min and max must be multiples of 4')
  })
  it('refuses GPUs the scheduled model cannot describe', () => {
    expect(problems((s) => (s.workloads.gpus.values[0]!.l1Bytes = 1000))).toContain(
      'gpus.values: h100 l1Bytes must be a non-negative multiple of the 128-B line',
    )
    expect(problems((s) => (s.workloads.gpus.values[0]!.smCount = 0))).toContain('gpus.values: h100 smCount must be a positive integer')
    expect(problems((s) => (s.workloads.gpus.values[0]!.maxWarpsPerSm = 4))).toContain(
      'gpus.values: h100 cannot hold one block of 256 threads',
    )
    expect(problems((s) => (s.workloads.gpus.blockThreads = 100))).toContain(
      'gpus.blockThreads must be a positive multiple of 32 (whole warps)',
    )
    expect(problems((s) => (s.workloads.gpus.default = 'a100'))).toContain('gpus: default a100 is not one of the values')
  })
  it('refuses lane widths that are not powers of two, and defaults outside the element and L1 tables', () => {
    expect(problems((s) => s.workloads.elementBytes.values.push(12))).toContain(
      'elementBytes: values must be powers of two up to lineBytes',
    )
    expect(problems((s) => (s.workloads.elementBytes.default = 32))).toContain('elementBytes: default 32 is not one of the values')
    expect(problems((s) => (s.workloads.l1.default = 'cached'))).toContain('l1: default cached is not one of the values')
    expect(problems((s) => (s.workloads.l1.values[1]!.id = 5))).toContain('l1: bypass has id 5; ids are the table order 0..1')
  })
  it('refuses graph scale limits out of order, a bad edge factor and generators named twice or file', () => {
    expect(problems((s) => (s.workloads.graphs.scale.serverMax = 31))).toContain(
      'graphs.scale: need integers 1 <= min <= serverMax <= max <= 32, got 1, 31, 30',
    )
    expect(problems((s) => (s.workloads.graphs.edgeFactor = 0))).toContain('graphs.edgeFactor: 0 is not a positive integer')
    expect(problems((s) => s.workloads.graphs.generators.push({ name: 'kron', doc: '' }))).toContain(
      'graphs.generators: name kron is used twice',
    )
    expect(problems((s) => s.workloads.graphs.generators.push({ name: 'file', doc: '' }))).toContain(
      "graphs.generators: 'file' is not a lower-case word other than file",
    )
  })
})
