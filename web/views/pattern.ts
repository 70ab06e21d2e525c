/**
 * Beside the run form: the chosen pattern's warp drawn from the model's table (lanes, lines,
 * sectors, reads; web/pattern-diagram.ts), and "predict, then observe" (web/predict.ts): the
 * model's and the link's prediction for the form's workload at the current latency and tag
 * budget, and, once a run of that workload came back, its observation with the differences
 * highlighted.
 */
import { GRAPH_KERNEL_SPECS, isGraphWorkload, workloadKey, type AnyWorkload } from '../../host/src/core/workload.js'
import { diagramSvg } from '../diagram-svg.js'
import { $, el, row, tbodyOf } from '../dom.js'
import {
  diagramLayout,
  fetchWarpTable,
  geometryCaption,
  graphEntry,
  instructionGeometry,
  patternEntry,
  type WarpTable,
} from '../pattern-diagram.js'
import { compareRows, LIMIT_WORDS, observe, predict, type PredictEnv } from '../predict.js'
import { patternKind, type RunFormValues } from '../run-form.js'
import { int } from '../model.js'
import type { AppState } from '../state.js'
import { formRequestBody, readRunForm } from './run.js'
import type { View } from './view.js'

/**
 * The form's workload as POST /api/run would take it (the server still checks it: a workload the
 * table has no entry for gets no diagram and no prediction).
 */
function formWorkload(v: RunFormValues): AnyWorkload | undefined {
  const { source: _source, ...body } = formRequestBody(v)
  const w = body as unknown as AnyWorkload
  if (isGraphWorkload(w)) return w
  const m = w as { bytes: number; offset: number }
  return Number.isSafeInteger(m.bytes) && m.bytes > 0 && Number.isSafeInteger(m.offset) ? w : undefined
}

function figure(svg: SVGSVGElement, caption: string, testid: string): HTMLElement {
  const f = el('figure')
  const c = el('figcaption', caption)
  f.dataset.testid = testid
  f.append(c, svg)
  return f
}

/** The diagrams of the form's choice: a micro pattern's first instruction, or a graph kernel's first steps. */
function renderDiagram(v: RunFormValues, w: AnyWorkload | undefined, t: WarpTable): HTMLElement[] {
  if (patternKind(v.pattern) === 'graph') {
    const id = Number(v.idBytes)
    const e = graphEntry(v.pattern, id, t)
    if (!e) return [el('p', `no diagram of ${v.pattern} with ${id}-B ids: run node scripts/gen-warp-table.mjs`, 'muted small')]
    const g = t.graph
    const perThread = GRAPH_KERNEL_SPECS.find((k) => k.name === v.pattern)?.lanesPerVertex === 1
    const intro = el(
      'p',
      `${v.pattern}: ${perThread ? 'a thread per vertex, so the 32 lanes walk 32 lists' : 'a warp per vertex, so the lanes share one list'}. ` +
        `Example lists of ${g.degree} neighbours, the first starting at element ${g.begin} (${id}-B ids): warp 0 runs ` +
        `${e.instructions} load instructions and makes ${int(e.total.count)} reads of ${int(e.total.bytes)} B in all.`,
      'small',
    )
    return [
      intro,
      ...e.shown.map((s, i) => {
        const geo = instructionGeometry(s, s.load === 'id' ? e.idBytes : 4, t)
        return figure(
          diagramSvg(diagramLayout(geo, t), `${v.pattern} instruction ${i + 1}`),
          `instruction ${i + 1} (${s.load}s): ${geometryCaption(geo)}`,
          `diagram-${i}`,
        )
      }),
    ]
  }
  const e = Number(v.elementBytes || 4)
  const offset = Number(v.offset)
  const entry = patternEntry(v.pattern, e, offset, t)
  if (!entry)
    return [
      el(
        'p',
        `no diagram for ${v.pattern} with ${e}-B lanes at +${v.offset} (the offset must be a multiple of the lane width up to 124)`,
        'muted small',
      ),
    ]
  const geo = instructionGeometry(entry.first, e, t)
  const [one] = entry.totals
  const l1 = w && !isGraphWorkload(w) ? (w.l1 ?? 'ideal') : 'ideal'
  // the table's count holds for the default chunk only (a chunk's ends are where lines split)
  const otherChunk = w !== undefined && !isGraphWorkload(w) && w.chunkBytes !== undefined
  const per = one && !otherChunk ? `; ${int(t.bytes)} B of it take ${int(one[l1].count)} reads` : ''
  return [
    figure(
      diagramSvg(diagramLayout(geo, t), `${v.pattern} warp 0, first load instruction`),
      `warp 0, load 1 of ${entry.instructions}: ${geometryCaption(geo)}${per}`,
      'diagram-0',
    ),
  ]
}

export function patternView(): View {
  let diagramKey = ''
  let predictKey = ''
  let table: WarpTable | undefined
  let tableError = ''
  return {
    mount(ctx) {
      const form = $('run-form')
      for (const ev of ['change', 'input']) form.addEventListener(ev, () => ctx.changed())
      fetchWarpTable().then(
        (t) => {
          table = t
          ctx.changed()
        },
        (e: unknown) => {
          tableError = `no diagrams: ${(e as Error).message}`
          ctx.changed()
        },
      )
    },
    render(ctx) {
      const { state } = ctx
      const t = table
      if (!t) {
        $('run-diagram').replaceChildren(el('p', tableError || 'loading the warp table…', 'muted small'))
        return
      }
      const v = readRunForm()
      const w = formWorkload(v)
      const dk = JSON.stringify([v.pattern, v.offset, v.elementBytes, v.chunkBytes, v.idBytes])
      if (dk !== diagramKey) {
        diagramKey = dk
        $('run-diagram').replaceChildren(...renderDiagram(v, w, t))
      }
      const env = envOf(state)
      const report = state.runBox.kind === 'report' ? state.runBox.report : undefined
      const pk = JSON.stringify([w && workloadKey(w), env, report?.id])
      if (pk === predictKey) return
      predictKey = pk
      renderPrediction(state, w, env, report, t)
    },
  }
}

/** The link and tags the page knows; the latency a shown lesson step will set, else the device's now. */
function envOf(state: AppState): PredictEnv {
  const info = state.info
  const cycles = state.stepLatencyCycles ?? info?.barLatencyCycles
  return {
    link: state.pcieLink,
    tagBudget: state.tagBudget,
    latencyS: info && info.clockHz > 0 && cycles !== undefined ? cycles / info.clockHz : null,
  }
}

function renderPrediction(
  state: AppState,
  w: AnyWorkload | undefined,
  env: PredictEnv,
  report: AppState['lastRun'] | undefined,
  t: WarpTable,
): void {
  const body = tbodyOf('predict-table')
  const note = $('predict-note')
  const p = w && predict(w, env, t)
  if (!w || !p) {
    body.replaceChildren()
    note.textContent = w ? 'no prediction for this workload' : 'the form holds a workload the server would refuse'
    return
  }
  const matches = report && workloadKey(report.result.workload) === workloadKey(w)
  const o = matches ? observe(report, state.info?.clockHz, state.tagBudget) : undefined
  body.replaceChildren(
    ...compareRows(p, env, o).map((r) => {
      const diff = r.differencePercent === null ? '' : `${r.differencePercent >= 0 ? '+' : ''}${r.differencePercent.toFixed(1)} %`
      const tr = row(
        [el('td', r.label), el('td', r.predicted, 'num'), el('td', r.observed, 'num'), el('td', diff, 'num diff')],
        r.differs ? 'differs' : undefined,
      )
      tr.dataset.testid = `predict-${r.key}`
      return tr
    }),
  )
  const parts = [
    p.mrds !== null && !p.exact ? 'reads scaled from the model’s table (exact for whole multiples of 4 KiB)' : '',
    p.mrds === null
      ? 'a graph run’s reads depend on the graph: counted after the run; the ceiling and Little’s law use the example warp’s read sizes'
      : '',
    p.limit ? `predicted limit: ${LIMIT_WORDS[p.limit]}` : '',
    o
      ? `observed: run #${report!.id}${o.counted ? '' : ' (the GPU does not count its reads: the model’s count stands in)'}`
      : 'run it to see the observation beside the prediction',
  ]
  note.textContent = parts.filter(Boolean).join(' · ')
}
