/** zod schemas of the REST bodies and the OpenAPI description assembled from them. */
import { z } from 'zod'
import { ALL_EXPORT_FORMATS } from '../export/formats.js'
import { DEFAULT_PARQUET_TABLE, TABLE_NAMES } from '../recording/tables.js'
import { COMMANDS, TAPS } from '../core/generated.js'
import { checkAlignment, graphWithDefaults, graphWorkloadFields, WorkloadFields, withDefaults } from '../core/workload-schema.js'
import { GRAPH_KERNELS, isGraphWorkload, PATTERNS } from '../core/workload.js'
import { RUN_SOURCES } from '../core/wire.js'
import { FILTER_SYNTAX, parseFilter, parseTrigger, TRIGGER_SYNTAX } from '../core/trace-trigger.js'
import { RECORDING_NAME_PATTERN } from '../recording/names.js'

// the firmware's accepted range, from spec/protocol.json
const PERIOD = COMMANDS.START.args[0]

export const StartBody = z
  .object({
    periodMs: z
      .number()
      .int()
      .min(PERIOD.min)
      .max(PERIOD.max)
      .optional()
      .describe(`snapshot period in ms, ${PERIOD.min}..${PERIOD.max}; default ${PERIOD.default}`),
  })
  .strict()

export const EmptyBody = z.object({}).strict()
/** POST /api/demo: switch the demo loop on or off */
export const DemoBody = z.object({ enabled: z.boolean() }).strict()

const barLatency = COMMANDS.SET_BAR_LATENCY.args[0]
/** POST /api/latency: the completer's latency in probe clocks (SET_BAR_LATENCY; the twin's host model or BAR responder). */
export const LatencyBody = z
  .object({
    cycles: z
      .number({ error: 'cycles must be a number' })
      .int('cycles must be an integer')
      .min(barLatency.min, `cycles must be at least ${barLatency.min}`)
      .max(barLatency.max, `cycles must be at most ${barLatency.max}`),
  })
  .strict()

/** POST /api/recording: start a new recording of the live stream, or close the current one. */
export const RecordingBody = z
  .object({
    action: z
      .enum(['start', 'stop'], { error: () => "action must be 'start' or 'stop'" })
      .describe('start: record into a new recording (already recording: nothing changes); stop: close the current one'),
  })
  .strict()

/** the most runs one comparison or report takes */
export const COMPARE_MAX_RUNS = 8

/** POST /api/compare: two or more runs by their GET /api/runs key, the first the baseline. */
export const CompareBody = z
  .object({
    runs: z
      .array(z.string().min(1).max(300), { error: () => 'runs must be an array of run keys from GET /api/runs' })
      .min(2, { error: 'a comparison needs two runs or more' })
      .max(COMPARE_MAX_RUNS, { error: `a comparison takes at most ${COMPARE_MAX_RUNS} runs` })
      .describe('run keys from GET /api/runs (server:ID, RECORDING#ID), the first the baseline'),
    format: z
      .enum(['json', 'html'], { error: () => "format must be 'json' or 'html'" })
      .optional()
      .describe('json (default): the comparison; html: the self-contained report, as a download'),
  })
  .strict()

const sourceField = z
  .enum(RUN_SOURCES, { error: () => `source must be one of ${RUN_SOURCES.join(', ')}` })
  .optional()
  .describe(
    "where the workload runs: 'twin' (the twin's traffic model) or 'gpu' (a CUDA kernel on the server's GPU); GET /api/status `sources` says which are available",
  )

/**
 * POST /api/run: a micro pattern or a graph kernel, told apart by `pattern`. The workload limits
 * every runner shares (spec/workloads.json, through core/workload-schema.ts), the pattern's
 * default offset when none is given, unknown keys refused; a graph is generated, never a file,
 * at most spec `graphs.scale.serverMax`. `source` picks the twin or this host's GPU (default: the
 * session's own runner, else the GPU).
 */
const MicroRunFields = WorkloadFields.extend({ source: sourceField }).strict()
const GraphRunFields = graphWorkloadFields('server').extend({ source: sourceField }).strict()
const ALL_PATTERNS = [...PATTERNS, ...GRAPH_KERNELS]
const RunBodyFields = z.discriminatedUnion('pattern', [MicroRunFields, GraphRunFields], {
  error: (iss) => (iss.code === 'invalid_union' ? `pattern must be one of ${ALL_PATTERNS.join(', ')}` : undefined),
})
export const RunBody = RunBodyFields.transform(({ source, ...w }) => ({
  workload: 'graph' in w ? graphWithDefaults(w) : withDefaults(w),
  source,
})).superRefine((v, ctx) => {
  if (!isGraphWorkload(v.workload)) checkAlignment(v.workload, ctx)
})

/** a grammar's refusal as the field's issue (the grammar is core/trace-trigger.ts, the CLI's own) */
const grammarIssue = (ctx: z.RefinementCtx, field: string, parse: () => unknown): void => {
  try {
    parse()
  } catch (e) {
    ctx.addIssue({ code: 'custom', path: [field], message: e instanceof Error ? e.message : String(e) })
  }
}

/**
 * POST /api/trace: a micro pattern (as POST /api/run takes it) run on the twin with one tap's TLP
 * trace armed around it. `trigger` and `filter` are the CLI's grammar (`pcie-scope trace --trigger`,
 * `--filter`: core/trace-trigger.ts), `tap` its `--tap`.
 */
const TraceBodyFields = WorkloadFields.extend({
  trigger: z
    .string()
    .max(400)
    .optional()
    .describe(`what fires the trace, as \`pcie-scope trace --trigger\`: ${TRIGGER_SYNTAX} (default force)`),
  filter: z
    .string()
    .max(400)
    .optional()
    .describe(`what is recorded, as \`pcie-scope trace --filter\`: ${FILTER_SYNTAX} (default everything)`),
  tap: z
    .int()
    .min(0)
    .max(TAPS.length - 1)
    .optional()
    .describe(
      `which tap's trace: ${TAPS.map((t, i) => `${i} ${t.key}`).join(', ')} (the switch design's host side; the BAR design has tap 0 only: another is 400 PS_REQUEST_INVALID); default 0`,
    ),
  pre: z
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional()
    .describe('records kept before the trigger record (at most the ring depth - 8; default 0)'),
}).strict()
export const TraceBody = TraceBodyFields.transform(({ trigger, filter, tap, pre, ...w }) => ({
  workload: withDefaults(w),
  trigger: trigger ?? 'force',
  filter,
  tap: tap ?? 0,
  pre: pre ?? 0,
})).superRefine((v, ctx) => {
  checkAlignment(v.workload, ctx)
  // the syntax; the clock's own limits are checked once the probe's clock is known
  grammarIssue(ctx, 'trigger', () => parseTrigger(v.trigger, 250_000_000))
  if (v.filter !== undefined) grammarIssue(ctx, 'filter', () => parseFilter(v.filter!))
})

const ErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
})

const json = (schema: z.ZodType) => ({
  'application/json': { schema: z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input' }) },
})

const ok = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'object' } } } })
const errors = {
  '400': {
    description: 'invalid body: not JSON, corrupt gzip/deflate, not an object, refused by the schema (PS_REQUEST_INVALID)',
    content: json(ErrorBody),
  },
  '401': { description: 'missing or wrong bearer token', content: json(ErrorBody) },
  '413': { description: 'body over 64 kB, also once inflated (PS_REQUEST_INVALID)', content: json(ErrorBody) },
  '415': { description: 'body not application/json, or an unknown encoding or charset (PS_REQUEST_INVALID)', content: json(ErrorBody) },
  '503': {
    description: 'device disconnected or its twin restarting (PS_TWIN_EXITED, PS_TWIN_HUNG, PS_SERIAL_DISCONNECTED)',
    content: json(ErrorBody),
  },
}

/** GET /api/openapi.json */
export function openApiDocument(version: string): Record<string, unknown> {
  const post = (summary: string, body: z.ZodType | undefined, extra: Record<string, unknown> = {}) => ({
    post: {
      summary,
      ...(body ? { requestBody: { required: false, content: json(body) } } : {}),
      responses: { '200': ok(summary), ...errors, ...extra },
    },
  })
  return {
    openapi: '3.0.3',
    info: { title: 'pcie-scope control server', version },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths: {
      '/api/health': { get: { summary: 'liveness (no auth)', security: [], responses: { '200': ok('{ok:true}') } } },
      '/api/status': { get: { summary: 'device, link and server state', responses: { '200': ok('status') } } },
      '/api/patterns': { get: { summary: 'access patterns the runner accepts', responses: { '200': ok('patterns') } } },
      '/api/start': post('enable counters and stream snapshots', StartBody),
      '/api/stop': post('disable counters and stop streaming', EmptyBody),
      '/api/clear': post('zero the running counters', EmptyBody),
      '/api/snapshot': post('take one on-demand snapshot', EmptyBody),
      '/api/run': post('run one workload and report the probe counter deltas', RunBodyFields, {
        '409': { description: 'the source asked for is not available (PS_WORKLOAD_UNSUPPORTED)', content: json(ErrorBody) },
        '502': { description: 'the GPU run failed (PS_GPU_FAILED, PS_GPU_CHECKSUM)', content: json(ErrorBody) },
        '503': {
          description:
            'device down (PS_TWIN_EXITED, PS_TWIN_HUNG), queue full (PS_RUN_QUEUE_FULL, with Retry-After), or cut off by shutdown (PS_SERVER_CLOSING)',
          content: json(ErrorBody),
        },
        '504': { description: 'the run passed its deadline and was aborted (PS_WORKLOAD_TIMEOUT)', content: json(ErrorBody) },
      }),
      '/api/trace': post(
        "arm one tap's TLP trace (the trigger, the filter, the records before it), run one micro pattern on the twin, read the trace and pair every read with its completions: the report `pcie-scope trace --json` prints, the tracker's figures the same tap's",
        TraceBodyFields,
        {
          '409': {
            description:
              'no twin to run on, or a device without the trace (PS_WORKLOAD_UNSUPPORTED); the trace still recording (PS_TRACE_NOT_READY)',
            content: json(ErrorBody),
          },
          '502': {
            description: 'the device refused the settings (PS_CMD_REJECTED) or a TRACE frame went missing (PS_TRACE_INCOMPLETE)',
            content: json(ErrorBody),
          },
          '503': { description: 'device down, queue full (PS_RUN_QUEUE_FULL) or shutdown (PS_SERVER_CLOSING)', content: json(ErrorBody) },
        },
      ),
      '/api/latency': post("set the completer's latency in probe clocks (SET_BAR_LATENCY); INFO's barLatencyCycles follows", LatencyBody, {
        '409': { description: 'the device cannot set it (PS_WORKLOAD_UNSUPPORTED)', content: json(ErrorBody) },
      }),
      '/api/lessons': {
        get: { summary: 'the lessons (docs/lessons.md)', responses: { '200': ok('{lessons: [{id, title, minutes, summary, steps}]}') } },
      },
      '/api/lessons/{id}': {
        get: {
          summary: 'one lesson: its steps, each a question, a run, where the answer shows, the answer and a text',
          responses: { '200': ok('{lesson}'), '404': { description: 'no such lesson (PS_LESSON_NOT_FOUND)', content: json(ErrorBody) } },
        },
      },
      '/api/demo': post('switch the demo loop on or off; off lets the run in flight finish and starts no more', DemoBody, {
        '409': { description: 'no workload runner to loop (a board: PS_WORKLOAD_UNSUPPORTED)', content: json(ErrorBody) },
      }),
      '/api/recording': {
        get: { summary: 'the recording the server records into now', responses: { '200': ok('{recording: name | null}') } },
        ...post('record the live stream on demand: start a new recording, or stop the current one', RecordingBody, {
          '409': { description: 'the server keeps no recordings (PS_RECORDING_UNAVAILABLE)', content: json(ErrorBody) },
        }),
      },
      '/api/recordings': {
        get: { summary: 'the recordings in the recordings folder', responses: { '200': ok('{root, recording, recordings, skipped}') } },
      },
      '/api/recordings/{name}': {
        get: {
          summary: 'one recording: manifest, status, records by type',
          parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string', pattern: RECORDING_NAME_PATTERN } }],
          responses: {
            '200': ok('recording description'),
            '400': { description: 'invalid recording name (PS_RECORDING_NAME_INVALID)', content: json(ErrorBody) },
            '401': errors['401'],
            '404': { description: 'no such recording (PS_RECORDING_NOT_FOUND)', content: json(ErrorBody) },
          },
        },
      },
      '/api/recordings/{name}/export': {
        get: {
          summary: 'one recording exported (as `pcie-scope export` writes it), as a download',
          parameters: [
            { name: 'name', in: 'path', required: true, schema: { type: 'string', pattern: RECORDING_NAME_PATTERN } },
            { name: 'format', in: 'query', required: true, schema: { type: 'string', enum: [...ALL_EXPORT_FORMATS] } },
            {
              name: 'table',
              in: 'query',
              required: false,
              schema: { type: 'string', enum: [...TABLE_NAMES], default: DEFAULT_PARQUET_TABLE },
            },
          ],
          responses: {
            '200': {
              description:
                'text/csv, application/x-ndjson, application/json (Perfetto trace events), text/x-vcd, application/vnd.apache.parquet (one table) or application/x-pcapng (the raw frames)',
            },
            '409': { description: 'pcapng of a recording made without its frames (PS_RECORDING_NO_FRAMES)', content: json(ErrorBody) },
            '400': { description: 'invalid name (PS_RECORDING_NAME_INVALID) or format (PS_REQUEST_INVALID)', content: json(ErrorBody) },
            '401': errors['401'],
            '404': { description: 'no such recording (PS_RECORDING_NOT_FOUND)', content: json(ErrorBody) },
          },
        },
      },
      '/api/runs': {
        get: {
          summary: "the run history, newest first: this server's runs and those of the recordings folder, each with its bench summary",
          responses: { '200': ok('{runs: RunEntry[], skipped}') },
        },
      },
      '/api/compare': post('runs side by side: each metric, its change against the first run, and why', CompareBody, {
        '404': { description: 'a run key that is not in GET /api/runs (PS_RUN_NOT_FOUND)', content: json(ErrorBody) },
      }),
      '/api/openapi.json': { get: { summary: 'this document', responses: { '200': ok('OpenAPI 3.0') } } },
    },
    'x-websocket': {
      path: '/ws?token=TOKEN',
      messages: ['hello', 'status', 'snapshot', 'run-start', 'run', 'run-error', 'twin-failure', 'twin-restarted'],
    },
  }
}
