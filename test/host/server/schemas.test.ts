// host/src/server/schemas.ts: POST /api/trace's body (the trigger and filter grammar of the CLI,
// the tap) and its place in the OpenAPI document.
import { describe, expect, it } from 'vitest'
import { openApiDocument, TraceBody } from '../../../host/src/server/schemas.js'

const micro = { pattern: 'merged-aligned', bytes: 4096 }
/** the messages of the issues at `field` when `body` is refused */
const issuesAt = (body: unknown, field: string): string[] => {
  const r = TraceBody.safeParse(body)
  expect(r.success, JSON.stringify(body)).toBe(false)
  return r.error!.issues.filter((i) => i.path[0] === field).map((i) => i.message)
}

describe('TraceBody', () => {
  it('defaults: force, no filter, tap 0, nothing before the trigger', () => {
    expect(TraceBody.parse(micro)).toEqual({
      workload: { pattern: 'merged-aligned', bytes: 4096, offset: 0 },
      trigger: 'force',
      filter: undefined,
      tap: 0,
      pre: 0,
    })
  })

  it('takes a conjunction trigger, a filter and the host-side tap as the CLI does', () => {
    const b = TraceBody.parse({
      ...micro,
      trigger: 'type=cpld & tag=5',
      filter: 'type=mrd|cpld & addr=0x100000000:0x100000fff',
      tap: 1,
      pre: 9,
    })
    expect(b).toMatchObject({ trigger: 'type=cpld & tag=5', filter: 'type=mrd|cpld & addr=0x100000000:0x100000fff', tap: 1, pre: 9 })
  })

  it('refuses a bad trigger or filter with the grammar’s message at its field', () => {
    expect(issuesAt({ ...micro, trigger: 'tag=2000' }, 'trigger')).toEqual([
      "trigger term 'tag=2000': the tag must be 0..1023 (TRC_TRIG_TAG)",
    ])
    expect(issuesAt({ ...micro, trigger: 'force & tag=1' }, 'trigger')[0]).toMatch(/force fires at once/)
    expect(issuesAt({ ...micro, filter: 'tag=3' }, 'filter')[0]).toMatch(/^filter term 'tag=3': a filter takes type=/)
    expect(issuesAt({ ...micro, filter: '' }, 'filter')[0]).toMatch(/^filter: empty/)
  })

  it('refuses a tap outside the spec’s taps, a non-integer one and unknown keys', () => {
    expect(issuesAt({ ...micro, tap: 2 }, 'tap')).toHaveLength(1)
    expect(issuesAt({ ...micro, tap: -1 }, 'tap')).toHaveLength(1)
    expect(issuesAt({ ...micro, tap: 0.5 }, 'tap')).toHaveLength(1)
    expect(issuesAt({ ...micro, tap: '1' }, 'tap')).toHaveLength(1)
    expect(TraceBody.safeParse({ ...micro, taps: 1 }).success).toBe(false)
    expect(TraceBody.safeParse({ ...micro, trigger: 'x'.repeat(401) }).success).toBe(false)
  })
})

describe('the OpenAPI document of POST /api/trace', () => {
  it('describes trigger, filter and tap with the grammar', () => {
    const doc = openApiDocument('0.0.0') as { paths: Record<string, { post: Record<string, unknown> }> }
    const post = doc.paths['/api/trace']!.post as {
      summary: string
      requestBody: { content: { 'application/json': { schema: { properties: Record<string, Record<string, unknown>> } } } }
    }
    const props = post.requestBody.content['application/json'].schema.properties
    expect(props['trigger']!['description']).toMatch(/type=KIND.*addr=BASE:LIMIT.*rid=BB:DD\.F.*outstanding>N, timeout, unexpected/)
    expect(props['filter']!['description']).toMatch(/type=KIND.*addr=BASE:LIMIT/)
    expect(props['tap']).toMatchObject({ type: 'integer', minimum: 0, maximum: 1 })
    expect(props['tap']!['description']).toMatch(/0 gpuSide, 1 hostSide/)
    expect(post.summary).toMatch(/one tap's TLP trace .* the filter/)
  })
})
