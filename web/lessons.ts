/**
 * Stepping through a lesson (docs/lessons.md; served by GET /api/lessons): which step is shown,
 * whether its run has come back, what the run form must hold for it, and where on the page its
 * answer shows. Pure, so it is tested without a page; web/views/lesson.ts draws it.
 */
import type { Lesson, LessonPlace, LessonStep } from '../host/src/core/lesson.js'
import type { RunReport } from '../host/src/core/wire.js'
import { chunkBytesOf, ELEMENT_BYTES_DEFAULT, generatedGraph, isGraphWorkload, workloadKey } from '../host/src/core/workload.js'
import { runRequestBody, type RunFormValues } from './run-form.js'

/** The element each place of a step's `watch` names (index.html). */
export const PLACE_ELEMENTS: Record<LessonPlace, string> = {
  diagram: 'run-diagram',
  prediction: 'predict-box',
  histogram: 'hist-card',
  rate: 'rate-card',
  inflight: 'inflight-card',
  latency: 'latency-card',
}

/** What the run form holds for a step's run (the graph picker takes generated graphs: kron:S, urand:S). */
export function stepFormValues(step: LessonStep): Omit<RunFormValues, 'source'> {
  const w = step.run
  if (isGraphWorkload(w)) {
    const g = generatedGraph(w.graph)
    return {
      pattern: w.pattern,
      bytes: '',
      offset: '',
      generator: g?.generator ?? '',
      scale: String(g?.scale ?? ''),
      idBytes: String(w.idBytes ?? ''),
    }
  }
  return {
    pattern: w.pattern,
    bytes: String(w.bytes),
    offset: String(w.offset),
    elementBytes: String(w.elementBytes ?? ELEMENT_BYTES_DEFAULT),
    chunkBytes: String(chunkBytesOf(w)),
    generator: '',
    scale: '',
    idBytes: '',
  }
}

/**
 * The fields of a step's run the form cannot hold (an `l1`, a graph's `sourceVertex`, a graph's
 * seed, which the graph picker leaves out): they travel beside it.
 */
export function stepFormExtras(step: LessonStep): Record<string, unknown> {
  const body = runRequestBody({ ...stepFormValues(step), source: '' })
  return Object.fromEntries(Object.entries(step.run).filter(([k, v]) => body[k] !== v))
}

export type StepPhase = 'ask' | 'running' | 'answered'

/** Where a reader is in a lesson. */
export class LessonProgress {
  index = 0
  phase: StepPhase = 'ask'
  /** the run id this step's answer came from */
  answeredBy: number | undefined
  /** runs with an id above this one may answer the step (those already seen may not) */
  private after = -1

  constructor(readonly lesson: Lesson) {}

  get step(): LessonStep {
    return this.lesson.steps[this.index]!
  }
  get first(): boolean {
    return this.index === 0
  }
  get last(): boolean {
    return this.index === this.lesson.steps.length - 1
  }

  go(index: number): void {
    this.index = Math.max(0, Math.min(this.lesson.steps.length - 1, index))
    this.phase = 'ask'
    this.answeredBy = undefined
  }

  /** The step's run was asked for; `newestRunId` is the newest run the page has seen so far. */
  started(newestRunId: number): void {
    this.phase = 'running'
    this.after = newestRunId
  }

  /** The run failed: ask again. */
  failed(): void {
    this.phase = 'ask'
  }

  /**
   * A run came back: it answers the step when it is a manual run of the step's workload started
   * after the step asked for it. Returns whether the step is now answered.
   */
  seen(r: RunReport): boolean {
    if (this.phase !== 'running' || r.origin !== 'manual' || r.id <= this.after) return false
    if (workloadKey(r.result.workload) !== workloadKey(this.step.run)) return false
    this.phase = 'answered'
    this.answeredBy = r.id
    return true
  }
}

/** The line under a step's title: where it is and how to go on. */
export const stepCaption = (p: LessonProgress): string =>
  `step ${p.index + 1} of ${p.lesson.steps.length}${p.phase === 'running' ? ' · running…' : p.phase === 'answered' ? ' · answered' : ''}`
