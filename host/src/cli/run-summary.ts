/** The summary `capture` prints for a run: one line per fact, the probe's numbers first. */
import type { RunResult } from '../measure/run.js'
import { elementBytesOf, isGraphWorkload, l1Of, type AnyWorkload } from '../core/workload.js'
import { SIZE_CLASSES } from '../core/size-classes.js'
import { sig, summaryRows, type RunSummary } from '../core/run-summary.js'

/** A number for a reader: `digits` significant digits, never in exponent form (core/run-summary.ts `sig`). */
export const formatSignificant = sig
const fmt = formatSignificant

const workloadRow = (w: AnyWorkload): string =>
  isGraphWorkload(w)
    ? `${w.pattern} on ${w.graph}${w.l1 !== undefined ? `, L1 ${l1Of(w)}` : ''}`
    : `${w.pattern}, ${w.bytes} B, offset ${w.offset} B${w.elementBytes !== undefined || w.l1 !== undefined ? `, ${elementBytesOf(w)}-B loads, L1 ${l1Of(w)}` : ''}`

/** The result of one run as aligned `label  value` lines (`capture` without --json). */
/** The probe's link as LINK_GEN / LINK_WIDTH report it; 0 is what the port does not know (a link not trained). */
export const probeLink = (li: { linkGen: number; linkWidth: number }): string =>
  `PCIe ${li.linkGen === 0 ? 'gen unknown' : `gen ${li.linkGen}`} ${li.linkWidth === 0 ? 'width unknown' : `x${li.linkWidth}`}`

export const formatRunResult = (r: RunResult, path: string): string => {
  const b = r.requests.bySize
  const g = r.graph
  const gg = r.model.gpuGraph
  const rows: [string, string][] = [
    ['workload', workloadRow(r.workload)],
    ...(r.twinMode
      ? [
          [
            'design',
            r.twinMode === 'switch'
              ? 'switch between the GPU and the host model (the twin default; --mode endpoint for the BAR endpoint)'
              : "the GPU's BAR endpoint (--mode endpoint)",
          ] as [string, string],
        ]
      : []),
    ...(g
      ? ([
          [
            'graph',
            `${g.vertices} vertices, ${g.edges} directed edges, ${g.idBytes}-B ids, BFS from ${g.sourceVertex} in ${g.launches} launches (levels)`,
          ],
        ] as [string, string][])
      : []),
    ['source', `${r.source} (${path})`],
    ['MRd requests', `${r.requests.count}  [${SIZE_CLASSES.map((c) => `${c.label}: ${b[c.key]}`).join('  ')}]`],
    ['requested bytes', String(r.bytes.requested)],
    ['completions', `${r.completions.count} with data (${r.bytes.completed} B), ${r.completions.withoutData} without`],
    ['MWr requests', `${r.writes.count} (${r.writes.bytes} B)`],
    [
      'time',
      `${r.cycles} cycles = ${fmt(r.seconds * 1e6, 4)} µs at ${fmt(r.clockHz / 1e6)} MHz${r.source === 'twin' ? ' (simulated)' : ''}`,
    ],
    ['rates', `${(r.rates.mrdPerSecond / 1e6).toFixed(2)} million MRd/s, ${fmt(r.rates.gbPerSecond)} GB/s of requested data`],
    [
      'outstanding',
      `${fmt(r.outstanding.avg)} average, ${r.outstanding.peak} peak` +
        (r.outstanding.tagBudget !== null
          ? ` of ${r.outstanding.tagBudget} tags (${fmt((100 * r.outstanding.avg) / r.outstanding.tagBudget)} %)`
          : ''),
    ],
    ...(['first', 'last'] as const).map((kind): [string, string] => {
      const l = r.latencyNs[kind]
      return [
        `latency, ${kind} completion`,
        l.count > 0
          ? `${fmt(l.min ?? 0)} / ${fmt(l.mean ?? 0)} / ${fmt(l.max ?? 0)} ns (min / mean / max)` +
            (l.p50 !== null && l.p99 !== null
              ? `, p50 ${fmt(l.p50)} / p99 ${r.latencyHistograms[kind]?.overflow ? '≥ ' : ''}${fmt(l.p99)} ns`
              : '')
          : 'no read completed',
      ]
    }),
    ...(r.hostSide
      ? [
          [
            'host side',
            `${r.hostSide.requests.count} MRd; last-completion latency ${fmt(r.hostSide.latencyNs.last.mean ?? 0)} ns mean` +
              ` (GPU side ${fmt((r.latencyNs.last.mean ?? 0) - (r.hostSide.latencyNs.last.mean ?? 0))} ns more: the switch, both ways);` +
              ` outstanding ${fmt(r.hostSide.outstanding.avg)} average, ${r.hostSide.outstanding.peak} peak`,
          ] as [string, string],
        ]
      : []),
    [
      "Little's law",
      r.littlesLaw
        ? `rate × latency = ${fmt(r.littlesLaw.rateTimesLatency)} outstanding, measured ${fmt(r.littlesLaw.measuredOutstanding)} (${fmt(r.littlesLaw.errorPercent, 2)} %)`
        : '–',
    ],
    [
      'completion errors',
      `UR ${r.completions.byStatus.ur}, CA ${r.completions.byStatus.ca}, other ${r.completions.byStatus.other}, unexpected ${r.completions.unexpected}, byte-count mismatch ${r.completions.mismatch}, timed out ${r.completions.timeouts}`,
    ],
    ['poisoned TLPs', String(r.poisoned)],
    [
      'ceiling',
      r.pcie.ceilingGbPerSecond === null
        ? `${r.pcie.link ?? 'unknown link'}: no wire limit`
        : `${fmt(r.pcie.ceilingGbPerSecond)} GB/s on ${r.pcie.link} for this completion mix`,
    ],
    [
      'model check',
      r.model.matchesProbe
        ? `model issued ${r.model.issued.count} MRd: matches the probe`
        : `MISMATCH: model issued ${r.model.issued.count} MRd / ${r.model.issued.bytes} B, probe counted ${r.requests.count} / ${r.bytes.requested} B`,
    ],
    [
      'link errors',
      `host bad ${r.link.host.badFrames}, crc ${r.link.host.crcErrors}, overflow ${r.link.host.overflows}, lost ${r.link.host.lostFrames} in ${r.link.host.seqGaps} gaps; ` +
        `firmware bad ${r.link.firmware.rxBadFrames}, overflow ${r.link.firmware.rxOverflows}, dropped ${r.link.firmware.txDropped}`,
    ],
    ...(r.linkInfo
      ? ([
          [
            'probe',
            `${probeLink(r.linkInfo)}, MPS ${r.linkInfo.mps} B, MRRS ${r.linkInfo.mrrs} B, RCB ${r.linkInfo.rcb || 'none'}, ` +
              `${r.linkInfo.tagBits}-bit tags, ${fmt(r.linkInfo.clockHz / 1e6)} MHz, build ${r.linkInfo.buildId}`,
          ],
        ] as [string, string][])
      : []),
    ...(r.filter
      ? ([['filter', `reads in [0x${r.filter.base.toString(16)}, 0x${r.filter.limit.toString(16)}] only`]] as [string, string][])
      : []),
    ...(r.intervals
      ? ([
          [
            'intervals',
            `${r.intervals.count} of ${fmt(r.intervals.periodNs)} ns (${r.intervals.totals.mrdCount} MRd), ${r.intervals.dropped} dropped on the UART, ${r.intervals.overflow} on the probe`,
          ],
        ] as [string, string][])
      : []),
    ...(gg
      ? ([
          [
            'GPU BFS',
            `${gg.device.name}, edge list ${gg.memory}: ${fmt(gg.bfs.medianMs)} ms (median), ${fmt(gg.gteps)} GTEPS, ${fmt(gg.edgeGbps)} GB/s of edges, levels ${gg.levels.ok ? 'ok' : `BAD (${gg.levels.mismatches} differ)`}`,
          ],
        ] as [string, string][])
      : []),
    ...(r.model.gpu
      ? ([
          [
            'GPU',
            `${r.model.gpu.device.name}: kernel ${fmt(r.model.gpu.kernelGbps)} GB/s (median of ${fmt(r.model.gpu.kernel.medianMs)} ms), ${fmt(r.model.gpu.ratioToMemcpy)} x cudaMemcpy, checksum ${r.model.gpu.checksum.ok ? 'ok' : 'BAD'}`,
          ],
        ] as [string, string][])
      : []),
    ['wall time', `${r.wallSeconds.toFixed(2)} s`],
  ]
  const w = Math.max(...rows.map(([k]) => k.length))
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n') + '\n\n' + formatSummary(r.summary)
}

/** The bench summary (core/run-summary.ts) as an indented block under its heading. */
export const formatSummary = (s: RunSummary, heading = 'bench summary'): string => {
  const rows = summaryRows(s)
  const w = Math.max(...rows.map(([k]) => k.length))
  return `${heading}\n` + rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`).join('\n') + '\n'
}
