import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LESSON_PLACES, validateLesson, type Lesson } from '../../host/src/core/lesson.js'
import type { RunReport } from '../../host/src/core/wire.js'
import type { AnyWorkload } from '../../host/src/core/workload.js'
import { defaultLessonsDir } from '../../host/src/server/lessons.js'
import { LessonProgress, PLACE_ELEMENTS, stepCaption, stepFormExtras, stepFormValues } from '../../web/lessons.js'
import { runRequestBody } from '../../web/run-form.js'

const lesson: Lesson = validateLesson(JSON.parse(readFileSync(join(defaultLessonsDir(), 'coalescing.json'), 'utf8')), 'coalescing')
const report = (id: number, workload: AnyWorkload, origin: 'manual' | 'demo' = 'manual') =>
  ({ id, origin, result: { workload } }) as unknown as RunReport

describe('web/lessons.ts', () => {
  it('every place a step may watch names an element of the page', () => {
    const html = readFileSync(join(import.meta.dirname, '../../web/index.html'), 'utf8')
    for (const p of LESSON_PLACES) expect(html).toContain(`id="${PLACE_ELEMENTS[p]}"`)
  })

  it('puts each step’s run into the run form, what it has no input for beside it, so that it sends that very workload', () => {
    // the shipped steps, a merged-chunked one in a chunk of its own, an L1 bypass, a seeded BFS's source vertex
    const more = validateLesson({
      ...lessonJson(),
      steps: [
        { pattern: 'merged-chunked', bytes: 65536, offset: 32, chunkBytes: 512 },
        { pattern: 'strided', bytes: 65536, offset: 0, l1: 'bypass' },
        { pattern: 'bfs-aligned', graph: 'kron:8:7', idBytes: 8, sourceVertex: 5 },
      ].map((run) => ({ ...stepJson(), run })),
    }).steps
    expect(stepFormExtras(more[1]!)).toEqual({ l1: 'bypass' })
    expect(stepFormExtras(more[2]!)).toEqual({ graph: 'kron:8:7', sourceVertex: 5 })
    for (const step of [...lesson.steps, ...more]) {
      const body = { ...runRequestBody({ ...stepFormValues(step), source: '' }), ...stepFormExtras(step) }
      expect(validateLesson({ ...lessonJson(), steps: [{ ...stepJson(), run: body }] }).steps[0]!.run).toEqual(step.run)
    }
  })

  it('answers a step with the first manual run of its workload after it asked, not a demo run or an older one', () => {
    const p = new LessonProgress(lesson)
    expect(stepCaption(p)).toBe('step 1 of 7')
    p.started(10)
    expect(stepCaption(p)).toBe('step 1 of 7 · running…')
    expect(p.seen(report(10, lesson.steps[0]!.run))).toBe(false) // seen before the step asked
    expect(p.seen(report(11, lesson.steps[0]!.run, 'demo'))).toBe(false)
    expect(p.seen(report(12, lesson.steps[1]!.run))).toBe(false) // another workload
    expect(p.seen(report(13, lesson.steps[0]!.run))).toBe(true)
    expect([p.phase, p.answeredBy]).toEqual(['answered', 13])
    p.go(p.index + 1)
    expect([p.index, p.phase, p.answeredBy]).toEqual([1, 'ask', undefined])
    p.go(99)
    expect(p.last).toBe(true)
    p.go(-1)
    expect(p.first).toBe(true)
    p.started(20)
    p.failed()
    expect(p.phase).toBe('ask')
  })
})

const lessonJson = () => ({ id: 'x', title: 't', minutes: 1, summary: 's' })
const stepJson = () => ({ title: 't', question: 'q', watch: ['histogram'], answer: 'a', text: 'x' })
