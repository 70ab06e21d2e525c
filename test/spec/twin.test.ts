// spec/twin.json: the twin's options resolved against the workloads spec, the checks that refuse
// a bad entry, the usage text, and the host's argument builder walking the same table.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  ELEMENT_BYTES,
  GRAPH_ID_BYTES,
  L1_LOADS,
  PATTERNS,
  TWIN_HOST_FLAGS,
  TWIN_ONLY_FLAGS,
  TWIN_OPTIONS,
  TWIN_OPTION_RANGES,
  TWIN_OPTION_VALUES,
  WORKLOAD_LIMITS,
} from '../../host/src/core/generated.js'
import { twinArgs } from '../../host/src/transport/twin.js'
import { readRawSpec, SpecError } from '../../spec/lib/model.js'
import { buildTwinModel, readTwinSpec, type RawTwinOption, type RawTwinSpec } from '../../spec/lib/twin.js'

const root = join(import.meta.dirname, '../..')
const workloads = readRawSpec(root).workloads
const raw = readTwinSpec(root)
const model = buildTwinModel(raw, workloads)

/** spec/twin.json with one option changed (by flag), built. */
function withOption(flag: string, change: Partial<RawTwinOption>): () => unknown {
  const spec: RawTwinSpec = { ...raw, options: raw.options.map((o) => (o.flag === flag ? { ...o, ...change } : o)) }
  return () => buildTwinModel(spec, workloads)
}

describe('spec/twin.json', () => {
  it('takes the workload facts from spec/workloads.json', () => {
    expect(TWIN_OPTION_VALUES.elementBytes).toEqual(ELEMENT_BYTES)
    expect(TWIN_OPTION_VALUES.idBytes).toEqual(GRAPH_ID_BYTES)
    expect(TWIN_OPTION_RANGES.offset).toEqual({ min: WORKLOAD_LIMITS.offset.min, max: WORKLOAD_LIMITS.offset.max })
    expect(TWIN_OPTIONS.find((o) => o.name === 'l1')?.choices).toEqual(L1_LOADS)
    expect(TWIN_OPTIONS.find((o) => o.name === 'run')?.error).toMatch(new RegExp(`^--run needs a pattern: ${PATTERNS.join(', ')}, bfs-`))
  })

  it('words a range without its own message as the twin does', () => {
    expect(TWIN_OPTIONS.find((o) => o.name === 'tags')?.error).toBe('--tags must be 1..256')
    expect(TWIN_OPTIONS.find((o) => o.name === 'latencyCycles')?.error).toBe('--latency-cycles must be 0..65535')
  })

  it('refuses a duplicate flag, an unknown placeholder, a default outside the values, values beside a range', () => {
    expect(withOption('--tags', { flag: '--mode' })).toThrow(SpecError)
    expect(withOption('--tags', { flag: '--mode' })).toThrow(/--mode given twice/)
    expect(withOption('--tags', { help: 'see {nothing}' })).toThrow(/unknown placeholder \{nothing\}/)
    expect(withOption('--segments', { default: 3 })).toThrow(/default 3 is not allowed/)
    expect(withOption('--tags', { values: [1, 2] })).toThrow(/values or a range, not both/)
    expect(withOption('--mode', { error: undefined })).toThrow(/needs an error message/)
    expect(withOption('--mode', { modes: ['bridge'] })).toThrow(/modes must be some of switch, endpoint/)
  })

  it('writes a usage text that names every option and lists the patterns on one line', () => {
    for (const o of TWIN_OPTIONS) expect(model.usage).toContain(`  ${o.flag}`)
    expect(/PATTERN: ([a-z, -]+)\n/.exec(model.usage)?.[1]?.split(', ')).toEqual([...PATTERNS])
    expect(model.usage.split('\n').every((l) => l.length <= 90)).toBe(true)
    const header = readFileSync(join(root, 'native/twin/generated/twin_options.h'), 'utf8')
    for (const o of TWIN_OPTIONS) expect(header).toContain(`"${o.flag}"`)
  })

  it('gives the host its flags: the twin-only ones, passed by the twin launcher in spec order', () => {
    expect(Object.values(TWIN_HOST_FLAGS)).toEqual([...TWIN_ONLY_FLAGS])
    expect(TWIN_ONLY_FLAGS).toEqual([
      '--latency-cycles',
      '--latency-ns',
      '--latency-dist',
      '--cpl-split',
      '--tags',
      '--link',
      '--mode',
      '--segments',
    ])
    expect(twinArgs({})).toEqual([])
    expect(
      twinArgs({
        segments: 4,
        mode: 'endpoint',
        tags: 8,
        cplSplit: 64,
        link: 'gen4x8',
        latencyDist: 'uniform:1:2',
        latencyNs: 5,
        latencyCycles: 9,
      }),
    ).toEqual([
      '--latency-cycles',
      '9',
      '--latency-ns',
      '5',
      '--latency-dist',
      'uniform:1:2',
      '--cpl-split',
      '64',
      '--tags',
      '8',
      '--link',
      'gen4x8',
      '--mode',
      'endpoint',
      '--segments',
      '4',
    ])
  })
})
