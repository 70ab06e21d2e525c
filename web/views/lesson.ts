/**
 * The lesson card: the lessons the server offers (GET /api/lessons), one step at a time. A step
 * shows its question and puts its workload into the run form, so the diagram and the prediction
 * (at the latency the step will set) show it before it runs; "Run this step" sets the twin's
 * completer latency when the step names one (POST /api/latency) and submits the form: the same POST /api/run as a run by hand, on the source the
 * form offers (the twin, or a GPU where the server has one). When that run comes back the answer
 * and the text appear, and the places the step names are outlined. Hidden when the server has no
 * lessons.
 */
import type { Lesson, LessonStep, LessonSummary } from '../../host/src/core/lesson.js'
import { isGraphWorkload, workloadLabel } from '../../host/src/core/workload.js'
import { $, el } from '../dom.js'
import { LessonProgress, PLACE_ELEMENTS, stepCaption, stepFormExtras, stepFormValues } from '../lessons.js'
import { int } from '../model.js'
import { holdFormExtras, readRunForm } from './run.js'
import type { View, ViewContext } from './view.js'

/** Put a step's values into the run form; the pattern's change runs the form's own handler first. */
function fillForm(step: LessonStep): void {
  const values = stepFormValues(step)
  const set = (id: string, value: string) => {
    if (value !== '') $<HTMLInputElement | HTMLSelectElement>(id).value = value
  }
  set('run-pattern', values.pattern)
  $('run-pattern').dispatchEvent(new Event('change', { bubbles: true }))
  set('run-bytes', values.bytes)
  set('run-offset', values.offset)
  set('run-element-bytes', values.elementBytes ?? '')
  set('run-chunk-bytes', values.chunkBytes ?? '')
  set('run-graph-generator', values.generator)
  set('run-graph-scale', values.scale)
  set('run-graph-id-bytes', values.idBytes)
  holdFormExtras(stepFormExtras(step))
  $('run-form').dispatchEvent(new Event('change', { bubbles: true }))
}

/** The form's workload fields (the source list fills in later, whatever the user does). */
const formNow = (): string => JSON.stringify({ ...readRunForm(), source: '' })

export function lessonView(): View {
  let progress: LessonProgress | undefined
  let shown = ''
  let error = ''
  /** the form was submitted for the running step: from now on an error box is its answer */
  let submitted = false

  /** the run form as the page opened it: a lesson that loads later fills it only if nobody changed it since */
  let pristine = ''

  /** Show step `index`: the form holds its run and the prediction its latency, before it runs. */
  const show = (ctx: ViewContext, index: number, fill = true) => {
    const p = progress
    if (!p) return
    p.go(index)
    if (fill) fillForm(p.step)
    const onTwin = ctx.state.status?.source === 'twin' && $<HTMLSelectElement>('run-source').value !== 'gpu'
    ctx.state.planLatency(onTwin ? (p.step.latencyCycles ?? null) : null)
    ctx.changed()
  }

  const load = (ctx: ViewContext, id: string) => {
    ctx.api.get<{ lesson: Lesson }>(`lessons/${encodeURIComponent(id)}`).then(
      (r) => {
        progress = new LessonProgress(r.lesson)
        error = ''
        show(ctx, 0, formNow() === pristine)
      },
      (e: unknown) => {
        error = (e as Error).message
        ctx.changed()
      },
    )
  }

  const runStep = async (ctx: ViewContext) => {
    const p = progress
    if (!p) return
    const step = p.step
    fillForm(step)
    const source = $<HTMLSelectElement>('run-source').value
    const onTwin = ctx.state.status?.source === 'twin' && source !== 'gpu'
    p.started(ctx.state.runHistory.at(-1)?.id ?? -1)
    submitted = false
    ctx.changed()
    try {
      if (step.latencyCycles !== undefined && onTwin) {
        await ctx.api.post('latency', { cycles: step.latencyCycles })
        ctx.state.latencySet(step.latencyCycles)
      }
      $<HTMLFormElement>('run-form').requestSubmit()
      submitted = true
    } catch (e) {
      p.failed()
      error = (e as Error).message
      ctx.changed()
    }
  }

  return {
    mount(ctx) {
      pristine = formNow()
      const pick = $<HTMLSelectElement>('lesson-pick')
      pick.addEventListener('change', () => load(ctx, pick.value))
      $('lesson-prev').addEventListener('click', () => progress && show(ctx, progress.index - 1))
      $('lesson-next').addEventListener('click', () => progress && show(ctx, progress.index + 1))
      ctx.api.get<{ lessons: LessonSummary[] }>('lessons').then(
        (r) => {
          if (r.lessons.length === 0) return
          pick.replaceChildren(...r.lessons.map((l) => Object.assign(new Option(l.title, l.id), { title: l.summary })))
          $('lesson-card').hidden = false
          load(ctx, r.lessons[0]!.id)
        },
        () => {}, // no lessons (an older server, no token yet): the card stays hidden
      )
    },
    render(ctx) {
      const { state } = ctx
      const p = progress
      if (p && p.phase === 'running') {
        const b = state.runBox
        if (b.kind === 'report') p.seen(b.report)
        else if (b.kind === 'error' && submitted && !state.manualPending) {
          p.failed()
          error = b.text
        }
      }
      const busy = state.manualPending || p?.phase === 'running'
      const key = JSON.stringify([p?.lesson.id, p?.index, p?.phase, p?.answeredBy, error, busy, state.status?.connected])
      if (key === shown) return
      shown = key
      for (const id of Object.values(PLACE_ELEMENTS)) $(id).classList.remove('lesson-watch')
      if (!p) {
        $('lesson-step').replaceChildren(el('p', error || 'loading…', error ? 'bad' : 'muted'))
        return
      }
      const step = p.step
      $('lesson-meta').textContent = `${p.lesson.minutes} min · ${stepCaption(p)}`
      $<HTMLButtonElement>('lesson-prev').disabled = p.first
      $<HTMLButtonElement>('lesson-next').disabled = p.last
      for (const place of step.watch) $(PLACE_ELEMENTS[place]).classList.add('lesson-watch')
      const w = step.run
      const what = `${workloadLabel(w)}${!isGraphWorkload(w) ? ` @ +${w.offset}` : ''}${step.latencyCycles !== undefined ? `, completer latency ${int(step.latencyCycles)} clocks (twin)` : ''}`
      const run = el('button', p.phase === 'running' ? 'Running…' : p.phase === 'answered' ? 'Run again' : 'Run this step')
      run.type = 'button'
      run.dataset.testid = 'lesson-run'
      run.disabled = busy || !state.status?.connected
      run.addEventListener('click', () => void runStep(ctx))
      const title = el('h3', `${p.index + 1}. ${step.title}`)
      title.dataset.testid = 'lesson-title'
      const question = el('p', step.question, 'lesson-question')
      question.dataset.testid = 'lesson-question'
      const parts: HTMLElement[] = [title, question, el('p', `The run: ${what}. Watch: ${step.watch.join(', ')}.`, 'small muted'), run]
      if (error) parts.push(el('p', error, 'bad small'))
      if (p.phase === 'answered') {
        const answer = el('div', undefined, 'lesson-answer')
        answer.dataset.testid = 'lesson-answer'
        answer.append(el('p', step.answer), el('p', step.text, 'small'))
        parts.push(answer)
      }
      $('lesson-step').replaceChildren(...parts)
      if (p.phase === 'answered') error = ''
    },
  }
}
