/**
 * The lessons the server offers (docs/lessons.md): every lessons/*.json checked against the
 * lesson schema (core/lesson.ts) when the server starts, so a broken file stops it with
 * PS_LESSON_INVALID naming the file and the problem, and served read-only:
 *   GET /api/lessons      {lessons: LessonSummary[]} in file-name order
 *   GET /api/lessons/:id  {lesson: Lesson}; 404 PS_LESSON_NOT_FOUND
 * A step's run goes through the ordinary POST /api/run (and its latency through POST /api/latency).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import express from 'express'
import { PsError } from '../core/errors.js'
import { lessonSummary, validateLesson, type Lesson } from '../core/lesson.js'
import { packageRoot } from '../util/package-root.js'

/** The lessons shipped with pcie-scope. */
export const defaultLessonsDir = (): string => join(packageRoot(), 'lessons')

/** Every `*.json` of `dir` but the schema, validated, in file-name order; a missing folder has none. */
export function loadLessons(dir: string): Lesson[] {
  let names: string[]
  try {
    names = readdirSync(dir)
      .filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json'))
      .sort()
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw e
  }
  return names.map((f) => {
    const name = f.slice(0, -'.json'.length)
    let value: unknown
    try {
      value = JSON.parse(readFileSync(join(dir, f), 'utf8'))
    } catch (e) {
      throw new PsError('PS_LESSON_INVALID', `lesson ${name} is not JSON: ${(e as Error).message}`, { cause: e })
    }
    return validateLesson(value, name)
  })
}

export function lessonsRouter(lessons: readonly Lesson[]): express.Router {
  const r = express.Router()
  r.get('/lessons', (_req, res) => {
    res.json({ lessons: lessons.map(lessonSummary) })
  })
  r.get('/lessons/:id', (req, res) => {
    const lesson = lessons.find((l) => l.id === req.params.id)
    if (!lesson) throw new PsError('PS_LESSON_NOT_FOUND', `no lesson named '${req.params.id}'`)
    res.json({ lesson })
  })
  return r
}
