/**
 * Where a command's probe and workload are: the twin, a board on a serial port, or (bench) a GPU
 * alone; and which options make sense where. Every option that applies to some of these only is a
 * row of OPTION_SCOPES, checked by checkOptionScopes: one table, one message format.
 */
import { Option } from 'commander'
import { PsError } from '../core/errors.js'
import { TWIN_SEGMENTS, type TwinSegments } from '../transport/twin.js'
import { parseOneOf } from './args.js'

/** twin: the twin's probe (and its traffic model); board: a board's probe on --port; gpu: bench's kernels on this machine's GPU */
export type Source = 'twin' | 'board' | 'gpu'

/** How the message names each source: "--link only applies to the twin". */
const WHERE: Record<Source, string> = { twin: 'to the twin', board: 'with --port PATH', gpu: 'with --gpu' }

/** Option value key (as commander names it) → its flag and the sources it applies to, in the order they are checked. */
export const OPTION_SCOPES = {
  baud: { flag: '--baud', sources: ['board'] },
  latencyCycles: { flag: '--latency-cycles', sources: ['twin'] },
  link: { flag: '--link', sources: ['twin'] },
  mode: { flag: '--mode', sources: ['twin'] },
  cplSplit: { flag: '--cpl-split', sources: ['twin'] },
  segments: { flag: '--segments', sources: ['twin'] },
  tags: { flag: '--tags', sources: ['twin'] },
  latencyNs: { flag: '--latency-ns', sources: ['twin'] },
  latencyDist: { flag: '--latency-dist', sources: ['twin'] },
  repeats: { flag: '--repeats', sources: ['gpu'] },
} as const satisfies Record<string, { flag: string; sources: readonly Source[] }>

/** The first option given (not undefined in `o`) whose scope leaves out `source` is a usage error. */
export const checkOptionScopes = (source: Source, o: object): void => {
  const given = o as Record<string, unknown>
  for (const [key, scope] of Object.entries(OPTION_SCOPES)) {
    const sources: readonly Source[] = scope.sources
    if (given[key] !== undefined && !sources.includes(source)) {
      throw new PsError('PS_USAGE', `${scope.flag} only applies ${sources.map((s) => WHERE[s]).join(' or ')}`)
    }
  }
}

export interface SourceOpts {
  twin?: boolean
  gpu?: boolean
  port?: string
  baud?: number
}

/** The probe of `capture` and `serve`: the twin (the default) or a board on --port; the scoped options checked against it. */
export const pickSource = (o: SourceOpts): { twin: true } | { port: string; baudRate?: number } => {
  if (o.twin && o.port) throw new PsError('PS_USAGE', 'use either --twin or --port PATH, not both')
  if (o.gpu && !o.port) throw new PsError('PS_USAGE', '--gpu runs the kernel while a board counts: it needs --port PATH')
  checkOptionScopes(o.port ? 'board' : 'twin', o)
  if (o.port) return { port: o.port, ...(o.baud !== undefined ? { baudRate: o.baud } : {}) }
  return { twin: true }
}

/** --segments: the twin's design (BAR top or switch top) with that many TLP segments per beat; a fresh Option per command */
export const segmentsOption = (): Option =>
  new Option(
    '--segments <n>',
    'twin only, either mode: TLP segments per 512-bit beat of the design (the BAR top or the switch and its host model), up to that many MRds and completions per clock (default 1)',
  )
    .choices(TWIN_SEGMENTS.map(String))
    .argParser(parseOneOf<TwinSegments>(TWIN_SEGMENTS))
