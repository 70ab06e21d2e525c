// Writes lessons/lesson.schema.json, the JSON schema of a lesson file for editors, from the one
// lesson schema (host/src/core/lesson.ts). test/host/core/lesson.test.ts fails while it is stale.
// Usage: npm run gen:lessons
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { lessonJsonSchema } from '../host/src/core/lesson.js'
import { packageRoot } from '../host/src/util/package-root.js'

export const lessonSchemaPath = join(packageRoot(), 'lessons', 'lesson.schema.json')
export const lessonSchemaText = (): string => `${JSON.stringify(lessonJsonSchema(), null, 2)}\n`

if (process.argv[1]?.endsWith('gen-lesson-schema.ts')) writeFileSync(lessonSchemaPath, lessonSchemaText())
