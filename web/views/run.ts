/**
 * Run a workload from the page. The form's patterns, limits and default offsets come from the
 * spec (spec/workloads.json through core/workload.ts); picking a pattern sets its default offset,
 * so merged-misaligned starts at +32 rather than silently aligned.
 */
import type { RunReport } from '../../host/src/core/wire.js'
import { defaultOffset, PATTERN_SPECS, WORKLOAD_LIMITS, type PatternName } from '../../host/src/core/workload.js'
import { SIZE_CLASSES, SIZE_KEYS } from '../../host/src/core/size-classes.js'
import { $, el, row } from '../dom.js'
import { int, si } from '../model.js'
import type { View } from './view.js'
import { runSourceOptions, sourcesNote } from '../sources.js'

function limitInput(input: HTMLInputElement, name: 'bytes' | 'offset'): void {
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
      for (const p of PATTERN_SPECS) {
        const o = new Option(p.name, p.name)
        o.title = p.doc
        select.append(o)
      }
      limitInput(bytes, 'bytes')
      limitInput(offset, 'offset')
      const pick = () => {
        offset.value = String(defaultOffset(select.value as PatternName))
        select.title = PATTERN_SPECS.find((p) => p.name === select.value)?.doc ?? ''
      }
      select.addEventListener('change', pick)
      pick()
      $<HTMLFormElement>('run-form').addEventListener('submit', (ev) => {
        ev.preventDefault()
        const { state } = ctx
        const pattern = select.value
        state.manualStarted(`running ${pattern}…`)
        ctx.changed()
        ctx.api
          .post<{ report: RunReport }>('run', {
            pattern,
            bytes: Number(bytes.value),
            offset: Number(offset.value),
            ...(sourceSelect.value ? { source: sourceSelect.value } : {}),
          })
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
      $('runner-kind').textContent = sources.length
        ? `runs on: ${sources.map((o) => o.label).join(' or ')}`
        : 'no workload runner on this session'
      $<HTMLButtonElement>('run-button').disabled = sources.length === 0 || !st?.connected || state.manualPending
      if (shown === state.runBox) return
      shown = state.runBox
      const box = $('run-result')
      const b = state.runBox
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

const SIZES = SIZE_CLASSES.map((c) => c.key).join('/')

function reportTable(r: RunReport, clockHz: number | undefined): HTMLTableElement {
  const res = r.result
  const w = res.workload
  const probeBySize = SIZE_CLASSES.map((c) => r.probe[c.counter])
  const probeSeen = probeBySize.reduce((a, b) => a + b, 0)
  const t = el('table')
  const add = (k: string, v: string, cls?: string) => t.append(row([el('td', k, 'name'), el('td', v, `num${cls ? ` ${cls}` : ''}`)]))
  add('run', `#${r.id} (${r.origin}) ${w.pattern}, ${int(w.bytes)} B @ +${w.offset}`)
  add(
    'MRd issued / seen by probe',
    `${int(res.issued.count)} / ${int(probeSeen)}`,
    r.countersEnabled ? (probeSeen === res.issued.count ? 'ok' : 'bad') : undefined,
  )
  add(`by size issued (${SIZES})`, SIZE_KEYS.map((k) => int(res.issued.bySize[k])).join(' / '))
  add(`by size probe (${SIZES})`, probeBySize.map(int).join(' / '))
  add(
    'requested / useful bytes',
    `${si(res.issued.bytes, 'B')} / ${si(w.bytes, 'B')} (${((w.bytes / Math.max(1, res.issued.bytes)) * 100).toFixed(0)} % useful)`,
  )
  add('completions (payload errors)', `${int(res.completions)} (${res.payloadErrors})`, res.payloadErrors > 0 ? 'bad' : undefined)
  const simS = clockHz ? res.simCycles / clockHz : NaN
  if (res.gpu) add('kernel time (median) / wall time', `${si(res.gpu.kernel.medianMs / 1000, 's')} / ${si(res.wallSeconds, 's')}`)
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
