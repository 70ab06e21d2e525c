/**
 * `pcie-scope trace --twin --pattern P [--trigger SPEC] [--filter SPEC] [--tap N] [--pre N] [--json]
 * [--out DIR]`: arm one tap's TLP trace (docs/trace.md) with a trigger and a filter, run one
 * workload on the twin, read the trace back and pair each memory read with its completions: per
 * read its latency and bytes, the trigger's position, and the same tap's tracker statistics of the
 * run beside them. --out also writes
 * the records as pcapng (export/trace-pcapng.ts) and the reads as Perfetto slices
 * (export/trace-perfetto.ts).
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { InvalidArgumentError, Option, type Command } from 'commander'
import { PsError } from '../core/errors.js'
import { TAPS } from '../core/generated.js'
import { tapCounters } from '../core/tap-counters.js'
import { pairReads, type PairedRead } from '../core/trace.js'
import { buildReport, ns, type TraceReport } from '../core/trace-report.js'
import { FILTER_SYNTAX, parseFilter, parseTrigger, TRIGGER_SYNTAX } from '../core/trace-trigger.js'
import { requireTraceTap } from '../device/trace-tap.js'
import { PATTERN_SPECS, PATTERNS, WORKLOAD_LIMITS, type PatternName } from '../core/workload.js'
import type { TwinMode } from '../core/twin-mode.js'
import { validateWorkload } from '../core/workload-schema.js'
import { tracePcapng } from '../export/trace-pcapng.js'
import { tracePerfetto } from '../export/trace-perfetto.js'
import { parseIntIn, parseSize, parseTwinRange, requireOptions, twinModeOption } from './args.js'
import type { CliDeps, CliIo, SetCode } from './io.js'

export { buildReport, parseFilter, parseTrigger, type TraceReadRow, type TraceReport, type TriggerSpec } from '../core/trace-report.js'

/** commander's argParser: the grammar's refusal as commander's own usage error (exit 2, before any twin starts) */
const checkSyntax =
  (parse: (value: string) => unknown) =>
  (value: string): string => {
    try {
      parse(value)
    } catch (e) {
      throw new InvalidArgumentError(e instanceof Error ? e.message : String(e))
    }
    return value
  }
// the syntax at a typical clock; durations are checked again at the probe's own once it answers
const checkTriggerSyntax = checkSyntax((v) => parseTrigger(v, 250_000_000))
const checkFilterSyntax = checkSyntax(parseFilter)

const fmtNs = (v: number | null): string => (v === null ? '-' : v.toFixed(1))
const hexAddr = (a: number): string => '0x' + a.toString(16).padStart(12, '0')

/** The report for people: the trace, the trigger's place, one line per paired read, the tracker beside it. */
export const formatReport = (r: TraceReport): string => {
  const L: string[] = []
  const why = r.full ? 'the ring filled after the trigger' : 'stopped after the workload'
  L.push(`trace: ${r.records} records of tap ${r.tap} (ring ${r.depth}), ${why}; ${r.lost} lost`)
  if (r.filter !== null) L.push(`filter ${r.filter}: only those TLPs recorded`)
  if (r.triggerIndex === null) L.push(`trigger ${r.trigger}: never fired (the trace holds the ring's last records)`)
  else if (r.triggerRecord === null) L.push(`trigger ${r.trigger}: fired at record ${r.triggerIndex}, after the last record stored`)
  else {
    const t = r.triggerRecord
    const idx = r.triggerIndex
    const read = r.reads.find((x) => x.records.includes(idx))
    // a completion's read: its latency, unless its request lies before the trace's first record
    const of =
      t.kind !== 'CPLD' && t.kind !== 'CPL'
        ? ''
        : read
          ? `; its read of record ${read.record}: first ${fmtNs(read.firstLatencyNs)} ns`
          : '; its read was requested before the first record'
    L.push(
      `trigger ${r.trigger}: record ${idx} of ${r.records} (${t.kind} tag ${t.tag}${t.address !== null ? ` at ${hexAddr(t.address)}` : ''}, clock ${t.clock})${of}`,
    )
  }
  const ended = (e: PairedRead['end']) => r.reads.filter((x) => x.end === e).length
  L.push(
    `reads: ${r.reads.length} paired (${ended('done')} done, ${ended('error')} ended by an error, ${ended('open')} open at the end), ${r.unexpected.length} unexpected completions, ${r.earlier.length} completions of reads before the first record`,
  )
  L.push('')
  L.push(
    `${'record'.padStart(6)} ${'tag'.padStart(4)} ${'address'.padEnd(14)} ${'req B'.padStart(6)} ${'bytes'.padStart(6)} ${'cpls'.padStart(4)} ${'first ns'.padStart(9)} ${'last ns'.padStart(9)}`,
  )
  for (const x of r.reads) {
    const mark = r.triggerIndex !== null && x.records.includes(r.triggerIndex) ? '  <- trigger' : ''
    L.push(
      `${String(x.record).padStart(6)} ${String(x.tag).padStart(4)} ${hexAddr(x.address)} ${String(x.requestedBytes).padStart(6)} ${String(x.bytes).padStart(6)} ${String(x.completions).padStart(4)} ${fmtNs(x.firstLatencyNs).padStart(9)} ${fmtNs(x.lastLatencyNs).padStart(9)}${mark}`,
    )
  }
  L.push('')
  const mean = (sum: number, n: number) => (n === 0 ? '-' : fmtNs(ns(sum / n, r.clockHz)))
  L.push(
    `paired reads done: ${r.paired.done}, ${r.paired.bytes} B, mean first ${mean(r.paired.firstLatencySumClocks, r.paired.done)} ns, last ${mean(r.paired.lastLatencySumClocks, r.paired.done)} ns`,
  )
  const t = r.tracker
  L.push(
    t === null
      ? `tracker (the whole run): tap ${r.tap}'s counters did not come`
      : `tracker (the whole run): ${t.reads} reads, ${t.cpldBytes} B, mean first ${mean(t.firstLatencySumClocks, t.reads)} ns, last ${mean(t.lastLatencySumClocks, t.reads)} ns`,
  )
  return L.join('\n') + '\n'
}

/** --out: a folder that does not exist yet or is empty. */
const prepareOut = (dir: string): void => {
  try {
    if (readdirSync(dir).length > 0) throw new PsError('PS_USAGE', `--out ${dir} is not empty`)
  } catch (e) {
    if (e instanceof PsError) throw e
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new PsError('PS_USAGE', `--out ${dir}: ${(e as Error).message}`)
  }
  mkdirSync(dir, { recursive: true })
}

interface TraceOpts {
  twin?: boolean
  pattern: PatternName
  bytes: number
  offset?: number
  trigger: string
  filter?: string
  tap: number
  pre: number
  mode?: TwinMode
  latencyCycles?: number
  json?: boolean
  out?: string
}

export const registerTrace = (program: Command, io: CliIo, setCode: SetCode, deps: CliDeps): void => {
  program
    .command('trace')
    .description(
      "arm one tap's TLP trace with a trigger and a filter, run a workload on the twin, read the trace and pair every read with its completions",
    )
    .option('--twin', 'use the twin (the only source today)')
    .addOption(new Option('--pattern <name>', 'access pattern').choices(PATTERNS))
    .option('--bytes <n>', 'bytes the workload reads (K, M suffixes; default 64K)', parseSize, 64 * 1024)
    .option(
      '--offset <b>',
      `start of the data within a 128-B line (default: the pattern's, ${PATTERN_SPECS.map((p) => `${p.name} ${p.defaultOffset}`).join(', ')})`,
      parseIntIn(WORKLOAD_LIMITS.offset.min, WORKLOAD_LIMITS.offset.max),
    )
    .option(
      '--trigger <spec>',
      `what fires the trace: ${TRIGGER_SYNTAX}; all must hold, for one TLP (outstanding and timeout: in its clock) (force: at once, the trace starts with the workload). E.g. 'type=cpld & tag=5', 'type=mrd & addr=0x100000000:0x100000fff & len=128B', 'type=cpld & latency>2us'`,
      checkTriggerSyntax,
      'force',
    )
    .option(
      '--filter <spec>',
      `what the ring records (default everything): ${FILTER_SYNTAX}. E.g. 'type=mrd|cpld & addr=0x100000000:0x10000ffff'`,
      checkFilterSyntax,
    )
    .option(
      '--tap <n>',
      `which tap's trace: ${TAPS.map((t, i) => `${i} ${t.key}`).join(', ')} (the switch design's host side; the BAR design has tap 0 only)`,
      parseIntIn(0, TAPS.length - 1),
      0,
    )
    .option('--pre <n>', 'records kept before the trigger record (at most the ring depth - 8; default 0)', parseIntIn(0, 2 ** 32 - 1), 0)
    .addOption(twinModeOption())
    .option('--latency-cycles <n>', 'twin only: completion latency in probe clocks (BAR_LATENCY)', parseTwinRange('latencyCycles'))
    .option('--json', 'print exactly one JSON object on stdout')
    .option(
      '--out <dir>',
      'also write the report and every record (raw words) to DIR/trace.json, the records as DIR/trace.pcapng (Wireshark) and the paired reads as DIR/trace.perfetto.json (Perfetto); DIR must not exist or be empty',
    )
    .hook('preAction', requireOptions('pattern'))
    .action(async (o: TraceOpts) => {
      if (!o.twin) throw new PsError('PS_USAGE', 'trace needs --twin (the only source today)')
      const workload = validateWorkload({ pattern: o.pattern, bytes: o.bytes, ...(o.offset !== undefined ? { offset: o.offset } : {}) })
      if (o.out !== undefined) prepareOut(o.out)
      const progress = (m: string) => io.stderr(`pcie-scope: ${m}\n`)
      progress('starting the twin')
      const session = await deps.openSession({
        twin: true,
        ...(o.latencyCycles !== undefined ? { latencyCycles: o.latencyCycles } : {}),
        twinOptions: { ...(o.mode !== undefined ? { mode: o.mode } : {}) },
      })
      try {
        const client = session.client
        const clockHz = session.info.clockHz
        const trigger = parseTrigger(o.trigger, clockHz)
        const filter = o.filter === undefined ? undefined : parseFilter(o.filter)
        const tap = o.tap
        if (!session.runner) throw new PsError('PS_WORKLOAD_UNSUPPORTED', 'this session has no workload runner')
        await requireTraceTap(client, tap)
        await client.clear()
        await client.start(1000) // the counters count; one snapshot a second leaves the line to the trace
        const { depth } = await client.traceArm({
          tap,
          pre: o.pre,
          ...(trigger.force ? {} : { trigger: trigger.settings }),
          ...(filter ? { filter: filter.filter } : {}),
        })
        if (trigger.force) await client.traceForce(tap)
        progress(
          `tap ${tap}'s trace armed (ring ${depth} records, trigger ${trigger.text}${filter ? `, filter ${filter.text}` : ''}, ${o.pre} before it); running ${o.pattern}, ${o.bytes} B`,
        )
        await session.runner.run(workload)
        // every tap's counters, read at one snapshot: the tracker's figures are the trace's tap's
        const reading = await client.latencyHistograms()
        const st = await client.traceStatus(tap)
        if (st.state === 'armed' || st.state === 'triggered') await client.traceStop(tap)
        await client.stop()
        const trace = await client.readTrace(tap, {
          onProgress: (sent, total) => {
            if (sent === total || sent % (29 * 40) === 0) progress(`read ${sent} of ${total} records`)
          },
        })
        const pairing = pairReads(trace.records)
        const report = buildReport(
          { pattern: o.pattern, bytes: o.bytes, trigger: trigger.text, filter: filter?.text ?? null, depth, clockHz },
          trace,
          pairing,
          tapCounters(reading, tap),
        )
        if (o.out !== undefined) {
          writeFileSync(join(o.out, 'trace.json'), JSON.stringify({ ...report, words: trace.words }) + '\n')
          writeFileSync(
            join(o.out, 'trace.pcapng'),
            tracePcapng(trace, clockHz, `pcie-scope trace (${o.pattern}, trigger ${trigger.text})`),
          )
          const meta = { clockHz, pattern: o.pattern, bytes: o.bytes, trigger: trigger.text }
          writeFileSync(join(o.out, 'trace.perfetto.json'), JSON.stringify(tracePerfetto(trace, pairing, meta)) + '\n')
          progress(`wrote ${join(o.out, 'trace.json')}, trace.pcapng and trace.perfetto.json`)
        }
        io.stdout(o.json ? JSON.stringify(report) + '\n' : formatReport(report))
        setCode(trace.triggered ? 0 : 1)
      } finally {
        await session.close()
      }
    })
}
