import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { isPsError } from '../../../host/src/core/errors.js'
import { LESSON_PLACES, validateLesson } from '../../../host/src/core/lesson.js'
import { isGraphWorkload } from '../../../host/src/core/workload.js'
import { defaultLessonsDir, loadLessons } from '../../../host/src/server/lessons.js'
import { lessonSchemaPath, lessonSchemaText } from '../../../scripts/gen-lesson-schema.js'

const shipped = readdirSync(defaultLessonsDir()).filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json'))
const read = (f: string): unknown => JSON.parse(readFileSync(join(defaultLessonsDir(), f), 'utf8'))
const good = () => read('coalescing.json') as { steps: Record<string, unknown>[] } & Record<string, unknown>

const refused = (value: unknown, name?: string): string => {
  try {
    validateLesson(value, name)
  } catch (e) {
    expect(isPsError(e, 'PS_LESSON_INVALID'), String(e)).toBe(true)
    return (e as Error).message
  }
  throw new Error('the lesson was accepted')
}

const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

describe('lessons: the shipped files', () => {
  it('every shipped lesson is valid and named by its file', () => {
    expect(shipped.length).toBeGreaterThan(0)
    for (const f of shipped) expect(validateLesson(read(f), f.slice(0, -5)).id).toBe(f.slice(0, -5))
  })

  it('the coalescing lesson: strided, merged-aligned, merged-misaligned, then latency and tags, then BFS naive against aligned', () => {
    const l = validateLesson(read('coalescing.json'), 'coalescing')
    expect(l.minutes).toBe(30)
    expect(l.steps.map((s) => s.run.pattern)).toEqual([
      'strided',
      'merged-aligned',
      'merged-misaligned',
      'strided',
      'merged-aligned',
      'bfs-naive',
      'bfs-aligned',
    ])
    // the latency steps use the twin's completer latency; the others restore the default
    expect(l.steps.map((s) => s.latencyCycles)).toEqual([250, 250, 250, 1000, 1000, 250, 250])
    // a step's run is filled in as POST /api/run would (the misaligned walk's offset kept)
    const s2 = l.steps[2]!.run
    expect(!isGraphWorkload(s2) && s2.offset).toBe(32)
  })

  it('lessons/lesson.schema.json is generated from the schema (npm run gen:lessons)', () => {
    expect(readFileSync(lessonSchemaPath, 'utf8')).toBe(lessonSchemaText())
  })
})

describe('lessons: what the schema refuses, with PS_LESSON_INVALID and the path of the problem', () => {
  it('a step whose run is not a workload the server runs', () => {
    const l = good()
    l.steps[0]!['run'] = { pattern: 'zigzag', bytes: 4096 }
    expect(refused(l)).toMatch(
      /steps\.0\.run: invalid workload: pattern: pattern must be one of strided, merged-aligned, merged-misaligned/,
    )
    const g = good()
    g.steps[5]!['run'] = { pattern: 'bfs-naive', graph: 'kron:29' }
    expect(refused(g)).toMatch(/steps\.5\.run: .*serverMax/)
  })

  it('a missing question, an unknown place, a latency out of range, an unknown field', () => {
    const l = good()
    delete l.steps[0]!['question']
    expect(refused(l)).toMatch(/steps\.0\.question/)
    const w = good()
    w.steps[1]!['watch'] = ['histogram', 'heatmap']
    expect(refused(w)).toMatch(new RegExp(`steps\\.1\\.watch\\.1: watch must name some of ${LESSON_PLACES.join(', ')}`))
    const t = good()
    t.steps[3]!['latencyCycles'] = 70000
    expect(refused(t)).toMatch(/steps\.3\.latencyCycles: latencyCycles must be at most 65535/)
    expect(refused({ ...good(), teacher: 'x' })).toMatch(/teacher/)
    expect(refused({ ...good(), steps: [] })).toMatch(/at least one step/)
  })

  it('an id that is not the file name', () => {
    expect(refused(good(), 'other')).toMatch(/id 'coalescing' must be the file name 'other'/)
  })

  it('loadLessons reads a folder in name order and stops at a broken file, naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ps-lessons-'))
    dirs.push(dir)
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ ...good(), id: 'b' }))
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ ...good(), id: 'a', title: 'First' }))
    writeFileSync(join(dir, 'lesson.schema.json'), '{}')
    expect(loadLessons(dir).map((l) => l.id)).toEqual(['a', 'b'])
    writeFileSync(join(dir, 'c.json'), '{ "id": "c", ')
    expect(() => loadLessons(dir)).toThrow(/lesson c is not JSON/)
    expect(loadLessons(join(dir, 'missing'))).toEqual([])
  })
})
