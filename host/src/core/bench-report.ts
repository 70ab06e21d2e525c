/**
 * Runs as pictures and as a report: grouped bar charts (inline SVG) of requests by size, bytes on
 * the wire, GB/s, tags in use and latency, one bar per run in each group, and a self-contained
 * HTML report of one or more runs (inline CSS and SVG, the data written in: nothing is fetched),
 * for slides. The page draws the same charts; `compare --html` and `summary --html` write the
 * same report. Browser-safe: imports only core.
 */
import { changeText, compareRuns, runLabel, type Comparison } from './compare.js'
import { sig, summaryRows, type RunEntry, type RunSummary } from './run-summary.js'
import { SIZE_CLASSES } from './size-classes.js'

/** One colour per run, in order (repeats after eight). */
export const RUN_COLOURS = ['#2f6fdf', '#e0803a', '#3a9a5b', '#b04fc0', '#c8404a', '#2aa5b5', '#8a6d3b', '#6b6b6b'] as const
export const runColour = (i: number): string => RUN_COLOURS[i % RUN_COLOURS.length]!

/** A run's colour as a small square: SVG, so a page whose policy refuses inline style attributes draws it too. */
const swatch = (i: number): string =>
  `<svg class="swatch" width="10" height="10" aria-hidden="true"><rect width="10" height="10" rx="2" fill="${runColour(i)}"/></svg>`

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

export interface BarChart {
  /** a stable name (the page's test ids, the report's anchors) */
  key: string
  title: string
  unit: string
  groups: string[]
  /** one series per run: its name and one value per group (null: none) */
  series: { name: string; values: (number | null)[] }[]
}

/** The five charts of a set of runs. */
export function runCharts(runs: RunEntry[]): BarChart[] {
  const series = (of: (s: RunSummary) => (number | null)[]) => runs.map((r) => ({ name: runLabel(r), values: of(r.summary) }))
  return [
    {
      key: 'sizes',
      title: 'Requests by size',
      unit: 'MRd',
      groups: SIZE_CLASSES.map((c) => c.label),
      series: series((s) => SIZE_CLASSES.map((c) => s.requests.bySize[c.key])),
    },
    {
      key: 'wire',
      title: 'Bytes on the wire',
      unit: 'B',
      groups: ['payload', 'completion headers', 'requests'],
      series: series((s) => [s.bytes.completed, s.wire.completionBytes - s.bytes.completed, s.wire.requestBytes]),
    },
    {
      key: 'rate',
      title: 'Payload rate',
      unit: 'GB/s',
      groups: ['payload', 'link ceiling'],
      series: series((s) => [s.gbPerSecond, s.ceiling.gbPerSecond]),
    },
    {
      key: 'tags',
      title: 'Tags in use',
      unit: 'reads in flight',
      groups: ['average', 'peak', 'tag budget'],
      series: series((s) => [s.inFlight.avg, s.inFlight.peak, s.inFlight.tagBudget]),
    },
    {
      key: 'latency',
      title: 'Latency, request to last completion',
      unit: 'ns',
      groups: ['mean', 'p50', 'p99'],
      series: series((s) => [s.latencyNs.mean, s.latencyNs.p50, s.latencyNs.p99]),
    },
  ]
}

const short = (n: number): string =>
  n >= 1e9 ? `${sig(n / 1e9)} G` : n >= 1e6 ? `${sig(n / 1e6)} M` : n >= 1e4 ? `${sig(n / 1e3)} k` : sig(n)

/**
 * A grouped bar chart as an SVG element: groups along x, one bar per series in each, a common
 * linear scale from 0, each bar's value written above it. Every bar carries `data-series` and
 * `data-group` (indices) and a <title> for its tooltip.
 */
export function groupedBarsSvg(chart: BarChart, width = 520, height = 220): string {
  const pad = { left: 8, right: 8, top: 34, bottom: 36 }
  const plotW = width - pad.left - pad.right
  const plotH = height - pad.top - pad.bottom
  const max = Math.max(0, ...chart.series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v))))
  const groupW = plotW / Math.max(1, chart.groups.length)
  const n = Math.max(1, chart.series.length)
  const barW = Math.max(2, (groupW * 0.8) / n)
  const parts: string[] = []
  chart.groups.forEach((g, gi) => {
    const x0 = pad.left + gi * groupW + groupW * 0.1
    chart.series.forEach((s, si) => {
      const v = s.values[gi]
      if (v === null || v === undefined || !Number.isFinite(v)) return
      const h = max > 0 ? (v / max) * plotH : 0
      const x = x0 + si * barW
      const y = pad.top + plotH - h
      parts.push(
        `<rect data-series="${si}" data-group="${gi}" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${(barW - 1).toFixed(1)}" height="${h.toFixed(1)}" fill="${runColour(si)}">` +
          `<title>${escapeHtml(`${s.name}: ${g} ${sig(v)} ${chart.unit}`)}</title></rect>`,
      )
      // a zero needs no label: the missing bar says it
      if (v !== 0)
        parts.push(
          `<text x="${(x + barW / 2).toFixed(1)}" y="${(y - 3).toFixed(1)}" font-size="9" text-anchor="middle" fill="currentColor">${escapeHtml(short(v))}</text>`,
        )
    })
    parts.push(
      `<text x="${(pad.left + gi * groupW + groupW / 2).toFixed(1)}" y="${height - pad.bottom + 14}" font-size="11" text-anchor="middle" fill="currentColor">${escapeHtml(g)}</text>`,
    )
  })
  const axisY = pad.top + plotH
  return (
    `<svg class="bench-bars" data-chart="${escapeHtml(chart.key)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(`${chart.title} (${chart.unit})`)}">` +
    `<text x="${pad.left}" y="13" font-size="12" font-weight="600" fill="currentColor">${escapeHtml(chart.title)} <tspan font-weight="400" opacity="0.7">(${escapeHtml(chart.unit)})</tspan></text>` +
    `<line x1="${pad.left}" x2="${width - pad.right}" y1="${axisY}" y2="${axisY}" stroke="currentColor" opacity="0.5"/>` +
    parts.join('') +
    `</svg>`
  )
}

/** The legend: each run's colour and name. */
export const legendHtml = (runs: RunEntry[]): string =>
  `<ul class="bench-legend">${runs.map((r, i) => `<li>${swatch(i)}${escapeHtml(runLabel(r))}</li>`).join('')}</ul>`

/** The comparison table: one row per metric, one column per run with its change against the baseline. */
export function comparisonTableHtml(c: Comparison): string {
  const head = `<tr><th>metric</th>${c.runs.map((r, i) => `<th>${swatch(i)}${escapeHtml(runLabel(r))}${i === 0 ? ' (baseline)' : ''}</th>`).join('')}</tr>`
  const rows = c.metrics.map(
    (m) =>
      `<tr data-metric="${escapeHtml(m.key)}"><th>${escapeHtml(m.label)} (${escapeHtml(m.unit)})</th>${m.values
        .map((v, i) => {
          const ch = m.changes[i] ?? null
          const better = ch === null || ch === 0 || m.higherIsBetter === null ? '' : ch > 0 === m.higherIsBetter ? 'better' : 'worse'
          return `<td>${v === null ? '–' : escapeHtml(sig(v))}${i > 0 && v !== null ? ` <span class="change ${better}">${escapeHtml(changeText(ch))}</span>` : ''}</td>`
        })
        .join('')}</tr>`,
  )
  const limits = `<tr data-metric="limit"><th>limit</th>${c.limits.map((l) => `<td>${escapeHtml(l)}</td>`).join('')}</tr>`
  return `<table class="bench-compare">${head}${rows.join('')}${limits}</table>`
}

/** One run's summary as a table of the same rows `capture` prints. */
export const summaryTableHtml = (r: RunEntry, i: number): string =>
  `<table class="bench-summary" data-run="${escapeHtml(r.key)}"><caption>${swatch(i)}${escapeHtml(runLabel(r))} · ${escapeHtml(r.source)} · ${escapeHtml(new Date(r.at).toISOString())}</caption>` +
  summaryRows(r.summary)
    .map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
    .join('') +
  `</table>`

const REPORT_CSS = [
  'body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}',
  'h1{font-size:20px;margin:0 0 4px}',
  'p.why{font-size:15px;margin:6px 0}',
  'table{border-collapse:collapse;margin:12px 0}',
  'th,td{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}',
  'caption{text-align:left;font-weight:600;padding:4px 0}',
  '.change.better{color:#1d7a3a}.change.worse{color:#b3261e}',
  '.swatch{margin-right:5px;vertical-align:-1px}',
  '.bench-legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:12px}',
  '.charts{display:flex;flex-wrap:wrap;gap:16px}',
  '.muted{color:#666}',
].join('')

/**
 * A self-contained HTML report of one or more runs: the summaries, and with two or more the
 * comparison (the first run the baseline) and its sentences; the five charts either way.
 */
export function reportHtml(runs: RunEntry[], opts: { title?: string; generatedAt?: Date } = {}): string {
  if (runs.length === 0) throw new RangeError('a report needs a run')
  const comparison = runs.length >= 2 ? compareRuns(runs) : null
  const title = opts.title ?? (comparison ? `pcie-scope: ${runs.length} runs compared` : `pcie-scope: ${runLabel(runs[0]!)}`)
  const when = (opts.generatedAt ?? new Date()).toISOString()
  const body = [
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="muted">pcie-scope report, ${escapeHtml(when)}</p>`,
    ...(comparison ? comparison.sentences.map((s) => `<p class="why">${escapeHtml(s)}</p>`) : []),
    legendHtml(runs),
    `<div class="charts">${runCharts(runs)
      .map((c) => groupedBarsSvg(c))
      .join('')}</div>`,
    ...(comparison ? [comparisonTableHtml(comparison)] : []),
    ...runs.map(summaryTableHtml),
  ]
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${REPORT_CSS}</style></head><body>${body.join('\n')}</body></html>\n`
}
