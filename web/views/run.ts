/**
 * Run a workload from the page. The form's patterns, graph kernels, limits and default offsets
 * come from the spec (spec/workloads.json through core/workload.ts and web/run-form.ts); picking
 * a pattern sets its default offset, so merged-misaligned starts at +32 rather than silently
 * aligned; picking a graph kernel swaps bytes and offset for the graph picker.
 */
import type { RunReport } from '../../host/src/core/wire.js'
import { defaultOffset, isGraphWorkload, WORKLOAD_LIMITS, type PatternName } from '../../host/src/core/workload.js'
import { SIZE_CLASSES, SIZE_KEYS } from '../../host/src/core/size-classes.js'
import { $, el, row, tbodyOf } from '../dom.js'
import type { AppState } from '../state.js'
import { shownRuns } from '../run-history.js'
import { int, si } from '../model.js'
import type { View } from './view.js'
import { runnerText, runSourceOptions, sourcesNote } from '../sources.js'
import {
  DEFAULT_GRAPH_SCALE,
  ELEMENT_BYTES_CHOICES,
  GRAPH_GENERATOR_CHOICES,
  GRAPH_SCALES,
  graphRows,
  ID_BYTES_CHOICES,
  PATTERN_CHOICES,
  patternKind,
  runRequestBody,
  runTitle,
  type RunFormValues,
} from '../run-form.js'

/** What the run form holds now (the diagrams, the prediction and the lessons read it too). */
export function readRunForm(): RunFormValues {
  const v = (id: string) => $<HTMLInputElement | HTMLSelectElement>(id).value
  return {
    pattern: v('run-pattern'),
    bytes: v('run-bytes'),
    offset: v('run-offset'),
    elementBytes: v('run-element-bytes'),
    chunkBytes: v('run-chunk-bytes'),
    generator: v('run-graph-generator'),
    scale: v('run-graph-scale'),
    idBytes: v('run-graph-id-bytes'),
    source: v('run-source') as RunFormValues['source'],
  }
}

/**
 * A lesson step's workload fields the form has no input for (`l1`, a graph's `sourceVertex`): sent
 * while the form still holds that step's values, dropped as soon as anything in it changes.
 */
let extras: { key: string; fields: Record<string, unknown> } | undefined
const formKey = (v: RunFormValues): string => JSON.stringify({ ...v, source: '' })

export function holdFormExtras(fields: Record<string, unknown>): void {
  extras = Object.keys(fields).length > 0 ? { key: formKey(readRunForm()), fields } : undefined
}

/** The POST /api/run body for what the form holds, with the held extras while it holds their step. */
export function formRequestBody(v: RunFormValues): Record<string, unknown> {
  const body = runRequestBody(v)
  return extras && extras.key === formKey(v) ? { ...body, ...extras.fields } : body
}

function limitInput(input: HTMLInputElement, name: 'bytes' | 'offset' | 'chunkBytes'): void {
  const l = WORKLOAD_LIMITS[name]
  input.min = String(l.min)
  input.max = String(l.max)
  input.step = String(l.multipleOf)
  input.title = `${l.doc}: a multiple of ${l.multipleOf} in ${l.min}..${l.max}`
}

export function runView(): View {
  let select: HTMLSelectElement
  let offset: HTMLInputElement
  let sourceSelect: HTMLSelectElement
  let shown: unknown
  let sourcesShown = ''
  return {
    mount(ctx) {
      select = $<HTMLSelectElement>('run-pattern')
      offset = $<HTMLInputElement>('run-offset')
      sourceSelect = $<HTMLSelectElement>('run-source')
      const bytes = $<HTMLInputElement>('run-bytes')
      const generator = $<HTMLSelectElement>('run-graph-generator')
      const scale = $<HTMLSelectElement>('run-graph-scale')
      const idBytes = $<HTMLSelectElement>('run-graph-id-bytes')
      for (const p of PATTERN_CHOICES) select.append(Object.assign(new Option(p.value, p.value), { title: p.title }))
      for (const g of GRAPH_GENERATOR_CHOICES) generator.append(Object.assign(new Option(g.value, g.value), { title: g.title }))
      for (const n of GRAPH_SCALES) scale.append(new Option(`${n} (2^${n} vertices)`, String(n), false, n === DEFAULT_GRAPH_SCALE))
      for (const b of ID_BYTES_CHOICES) idBytes.append(new Option(b.value, b.value, false, b.selected))
      for (const b of ELEMENT_BYTES_CHOICES) $('run-element-bytes').append(new Option(b.value, b.value, false, b.selected))
      limitInput(bytes, 'bytes')
      limitInput(offset, 'offset')
      const chunk = $<HTMLInputElement>('run-chunk-bytes')
      limitInput(chunk, 'chunkBytes')
      chunk.value = String(WORKLOAD_LIMITS.chunkBytes.default)
      const pick = () => {
        const kind = patternKind(select.value)
        for (const l of document.querySelectorAll<HTMLElement>('#run-form .run-micro')) l.hidden = kind !== 'micro'
        for (const l of document.querySelectorAll<HTMLElement>('#run-form .run-graph')) l.hidden = kind !== 'graph'
        // only merged-chunked walks chunks: the field is hidden, and not sent, for the others
        for (const l of document.querySelectorAll<HTMLElement>('#run-form .run-chunk')) l.hidden = select.value !== 'merged-chunked'
        if (kind === 'micro') offset.value = String(defaultOffset(select.value as PatternName))
        select.title = PATTERN_CHOICES.find((p) => p.value === select.value)?.title ?? ''
      }
      select.addEventListener('change', pick)
      pick()
      $('run-dismiss').addEventListener('click', () => {
        ctx.state.dismissRunBox()
        ctx.changed()
      })
      const withDemo = $<HTMLInputElement>('history-demo')
      withDemo.addEventListener('change', () => {
        ctx.state.setHistoryWithDemo(withDemo.checked)
        ctx.changed()
      })
      $<HTMLFormElement>('run-form').addEventListener('submit', (ev) => {
        ev.preventDefault()
        const { state } = ctx
        const pattern = select.value
        state.manualStarted(`running ${pattern}…`)
        ctx.changed()
        ctx.api
          .post<{ report: RunReport }>('run', formRequestBody(readRunForm()))
          .then(
            (r) => state.manualFinished({ report: r.report }),
            (e: unknown) => state.manualFinished({ error: (e as Error).message }),
          )
          .finally(() => ctx.changed())
      })
    },
    render(ctx) {
      const { state } = ctx
      const st = state.status
      const sources = runSourceOptions(st)
      const key = JSON.stringify(sources)
      if (key !== sourcesShown) {
        // rebuilt only when the choice changes, so a user's pick survives status updates
        sourcesShown = key
        const keep = sourceSelect.value
        sourceSelect.replaceChildren(...sources.map((o) => Object.assign(new Option(o.label, o.value), { title: o.title })))
        if (sources.some((o) => o.value === keep)) sourceSelect.value = keep
        $('run-sources-note').textContent = sourcesNote(st)
      }
      $('runner-kind').textContent = runnerText(state.live(ctx.now()).key, sources)
      $<HTMLButtonElement>('run-button').disabled = sources.length === 0 || !st?.connected || state.manualPending
      renderHistory(state)
      if (shown === state.runBox) return
      shown = state.runBox
      const box = $('run-result')
      const b = state.runBox
      $('run-dismiss').hidden = !(b.kind === 'error' || (b.kind === 'report' && b.report.origin === 'manual'))
      if (b.kind === 'idle') box.replaceChildren(el('span', 'no run yet', 'muted'))
      else if (b.kind === 'pending') box.replaceChildren(el('p', b.text, 'muted'))
      else if (b.kind === 'error') {
        const p = el('p', b.text, 'bad')
        p.dataset.testid = 'run-error'
        box.replaceChildren(p)
      } else box.replaceChildren(reportTable(b.report, state.info?.clockHz))
    },
  }
}

let historyShown = ''
const timeFmt = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })

/** The run list, rebuilt only when a run was added or the demo runs were switched in or out. */
function renderHistory(state: AppState): void {
  const newest = state.runHistory.at(-1)
  const key = `${state.runHistory.length}/${newest?.id}/${state.historyWithDemo}`
  if (key === historyShown) return
  historyShown = key
  const lines = shownRuns(state.runHistory, state.historyWithDemo)
  const rows = lines.map((e) => {
    const tr = row([
      el('td', `#${e.id} ${e.origin}`, e.origin),
      el('td', e.label),
      el('td', e.gbps === null ? '–' : e.gbps.toFixed(2), 'num'),
      el('td', int(e.requests), 'num'),
      el('td', timeFmt.format(e.at), 'num'),
    ])
    if (!e.counted) tr.title = 'counters were stopped: the probe saw nothing of this run'
    tr.dataset.testid = `run-history-${e.id}`
    return tr
  })
  if (rows.length === 0)
    rows.push(row([el('td', state.runHistory.length ? 'no manual run yet (tick "demo runs too" to list those)' : 'no run yet', 'muted')]))
  tbodyOf('run-history').replaceChildren(...rows)
}

const SIZES = SIZE_CLASSES.map((c) => c.key).join('/')

function reportTable(r: RunReport, clockHz: number | undefined): HTMLTableElement {
  const res = r.result
  const w = res.workload
  const probeBySize = SIZE_CLASSES.map((c) => r.probe[c.counter])
  const probeSeen = probeBySize.reduce((a, b) => a + b, 0)
  const t = el('table')
  const add = (k: string, v: string, cls?: string) => t.append(row([el('td', k, 'name'), el('td', v, `num${cls ? ` ${cls}` : ''}`)]))
  add('run', runTitle(r.id, r.origin, w))
  for (const g of graphRows(res)) add(g.label, g.value, g.status)
  add(
    'MRd issued / seen by probe',
    `${int(res.issued.count)} / ${int(probeSeen)}`,
    r.countersEnabled ? (probeSeen === res.issued.count ? 'ok' : 'bad') : undefined,
  )
  add(`by size issued (${SIZES})`, SIZE_KEYS.map((k) => int(res.issued.bySize[k])).join(' / '))
  add(`by size probe (${SIZES})`, probeBySize.map(int).join(' / '))
  if (!isGraphWorkload(w))
    add(
      'requested / useful bytes',
      `${si(res.issued.bytes, 'B')} / ${si(w.bytes, 'B')} (${((w.bytes / Math.max(1, res.issued.bytes)) * 100).toFixed(0)} % useful)`,
    )
  else add('requested bytes', si(res.issued.bytes, 'B'))
  add('completions (payload errors)', `${int(res.completions)} (${res.payloadErrors})`, res.payloadErrors > 0 ? 'bad' : undefined)
  const simS = clockHz ? res.simCycles / clockHz : NaN
  const gpuMs = res.gpu?.kernel.medianMs ?? res.gpuGraph?.bfs.medianMs
  if (gpuMs !== undefined) add('kernel time (median) / wall time', `${si(gpuMs / 1000, 's')} / ${si(res.wallSeconds, 's')}`)
  else
    add(
      'simulated time / wall time',
      `${Number.isFinite(simS) ? si(simS, 's') : `${int(res.simCycles)} cycles`} / ${si(res.wallSeconds, 's')}`,
    )
  const g = res.gpu
  if (g) {
    add('GPU', `${g.device.name} (PCIe gen${g.device.pcieGen} x${g.device.pcieWidth})`)
    add('kernel / cudaMemcpy', `${g.kernelGbps.toFixed(2)} / ${g.memcpyGbps.toFixed(2)} GB/s (× ${g.ratioToMemcpy.toFixed(2)})`)
    add('× 128-B ceiling of the link', g.ratioToCeiling128 === null ? '–' : g.ratioToCeiling128.toFixed(2))
    add('checksum', g.checksum.ok ? 'ok' : `BAD: GPU ${g.checksum.gpu}, CPU ${g.checksum.cpu}`, g.checksum.ok ? 'ok' : 'bad')
  }
  if (!r.countersEnabled) add('note', 'counters were stopped: press Start to count', 'bad')
  t.dataset.testid = 'run-table'
  return t
}
