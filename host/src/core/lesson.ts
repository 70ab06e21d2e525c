/**
 * Lessons: a guided sequence of runs, written as data (lessons/*.json, docs/lessons.md) so that a
 * teacher adds one without code. Each step asks a question, names the run that answers it (a
 * workload exactly as POST /api/run takes it, plus the completer latency to set first on the
 * twin), says where on the page the answer shows, and explains it. This schema is the one
 * validation: the server checks every file at load (host/src/server/lessons.ts) and
 * lessons/lesson.schema.json, for editors, is generated from it.
 */
import { z } from 'zod'
import { PsError } from './errors.js'
import { COMMANDS } from './generated.js'
import { validateAnyWorkload } from './workload-schema.js'
import type { AnyWorkload } from './workload.js'

/** Where on the page a step's answer shows (the cards and the run form's panels). */
export const LESSON_PLACES = ['diagram', 'prediction', 'histogram', 'rate', 'inflight', 'latency'] as const
export type LessonPlace = (typeof LESSON_PLACES)[number]

const latency = COMMANDS.SET_BAR_LATENCY.args[0]
const text = (what: string, max: number) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(1, `${what} must not be empty`)
    .max(max, `${what} must be at most ${max} characters`)

const LessonStepSchema = z
  .object({
    title: text('title', 120).describe('a few words, shown in the step list'),
    question: text('question', 400).describe('what the reader should predict before the run'),
    run: z
      .record(z.string(), z.unknown(), { error: 'run must be an object: a workload as POST /api/run takes it' })
      .superRefine((w, ctx) => {
        try {
          validateAnyWorkload(w, 'server')
        } catch (e) {
          ctx.addIssue({ code: 'custom', message: (e as Error).message })
        }
      })
      .describe(
        'the workload to run, as POST /api/run takes it (pattern, bytes, offset? … or pattern, graph, idBytes? …); no source: the page picks the twin or a GPU',
      ),
    latencyCycles: z
      .number({ error: 'latencyCycles must be a number' })
      .int('latencyCycles must be an integer')
      .min(latency.min, `latencyCycles must be at least ${latency.min}`)
      .max(latency.max, `latencyCycles must be at most ${latency.max}`)
      .optional()
      .describe(
        `the twin's completer latency in probe clocks (SET_BAR_LATENCY, ${latency.min}..${latency.max}) set before the run; on a GPU it does not apply`,
      ),
    watch: z
      .array(z.enum(LESSON_PLACES, { error: () => `watch must name some of ${LESSON_PLACES.join(', ')}` }))
      .min(1, 'watch must name at least one place')
      .describe('where on the page the answer shows'),
    answer: text('answer', 600).describe('the answer, shown after the run'),
    text: text('text', 1200).describe('the explanation, a short paragraph'),
  })
  .strict()

export const LessonSchema = z
  .object({
    $schema: z.string().optional().describe('the JSON schema, for editors: ./lesson.schema.json'),
    id: z
      .string({ error: 'id must be a string' })
      .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'id must be lowercase letters, digits and dashes (the file name without .json)')
      .describe('the file name without .json'),
    title: text('title', 120),
    minutes: z
      .number({ error: 'minutes must be a number' })
      .int('minutes must be an integer')
      .min(1)
      .max(240)
      .describe('how long it takes'),
    summary: text('summary', 600),
    steps: z.array(LessonStepSchema).min(1, 'a lesson needs at least one step').max(50),
  })
  .strict()

export type LessonStep = Omit<z.output<typeof LessonStepSchema>, 'run'> & { run: AnyWorkload }
export type Lesson = Omit<z.output<typeof LessonSchema>, 'steps' | '$schema'> & { steps: LessonStep[] }

/** What GET /api/lessons lists of each lesson. */
export interface LessonSummary {
  id: string
  title: string
  minutes: number
  summary: string
  steps: number
}

export const lessonSummary = (l: Lesson): LessonSummary => ({
  id: l.id,
  title: l.title,
  minutes: l.minutes,
  summary: l.summary,
  steps: l.steps.length,
})

/**
 * A lesson checked against the schema, each step's run filled in as the server would run it
 * (default offsets); PS_LESSON_INVALID with every problem, each with its path, in the message.
 * `name` (a file name) is named in the message and must match the id when given.
 */
export function validateLesson(value: unknown, name?: string): Lesson {
  const r = LessonSchema.safeParse(value)
  const where = name ? `lesson ${name}` : 'lesson'
  if (!r.success) {
    const msg = r.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ')
    throw new PsError('PS_LESSON_INVALID', `${where} is invalid: ${msg}`)
  }
  const { $schema: _schema, ...l } = r.data
  if (name !== undefined && name !== l.id)
    throw new PsError('PS_LESSON_INVALID', `${where} is invalid: id '${l.id}' must be the file name '${name}'`)
  return { ...l, steps: l.steps.map((s) => ({ ...s, run: validateAnyWorkload(s.run, 'server') })) }
}

/** The JSON schema a teacher's editor checks a lesson file against (lessons/lesson.schema.json). */
export const lessonJsonSchema = (): Record<string, unknown> => ({
  ...z.toJSONSchema(LessonSchema, { io: 'input', unrepresentable: 'any' }),
  title: 'pcie-scope lesson (docs/lessons.md)',
})
