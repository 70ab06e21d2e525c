/**
 * spec/twin.json: the twin's command line, read, checked and resolved against spec/workloads.json
 * (an option's values or range may name a workload fact: `"values": "elementBytes"`), then written
 * as the C++ option table and usage text the twin's parser walks
 * (native/twin/generated/twin_options.h) and as TWIN_OPTIONS for the host (core/generated.ts).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SpecError, type WorkloadSpec } from './model.js'

export type TwinValue = 'none' | 'uint' | 'text'
const TWIN_DESIGNS = ['switch', 'endpoint'] as const

/** One option as spec/twin.json writes it. */
export interface RawTwinOption {
  name: string
  flag: string
  alias?: string
  value: TwinValue
  valueName?: string
  min?: number
  max?: number
  /** uint: the only values allowed, or a workload fact: "elementBytes", "idBytes" */
  values?: number[] | 'elementBytes' | 'idBytes'
  /** uint: the range of a workload limit: "offset", "chunkBytes" */
  range?: 'offset' | 'chunkBytes'
  /** text: the only words allowed, or a workload fact: "l1" */
  choices?: string[] | 'l1'
  default?: number | string
  /** the twin designs (--mode) it applies to */
  modes: string[]
  /** only with --run (a micro pattern or a graph kernel: "run") or with a graph kernel ("graph") */
  with?: 'run' | 'graph'
  /** the host's TwinOptions member that passes it (host/src/transport/twin.ts) */
  host?: string
  /** the message for a bad value; {name} placeholders as in help */
  error?: string
  help: string
}

export interface RawTwinSpec {
  doc: string
  program: string
  synopsis: string[]
  about: string
  options: RawTwinOption[]
  stdin: string
}

/** One option resolved: placeholders expanded, workload facts in place. */
export interface TwinOption {
  name: string
  flag: string
  alias: string | null
  value: TwinValue
  valueName: string | null
  min: number | null
  max: number | null
  values: number[] | null
  choices: string[] | null
  default: number | string | null
  modes: string[]
  with: 'run' | 'graph' | null
  host: string | null
  error: string
  help: string
}

export interface TwinModel {
  raw: RawTwinSpec
  options: TwinOption[]
  usage: string
}

export const readTwinSpec = (root: string): RawTwinSpec => JSON.parse(readFileSync(join(root, 'spec', 'twin.json'), 'utf8')) as RawTwinSpec

/** The workload facts a help text or message may name as {name}. */
function facts(w: WorkloadSpec): Record<string, string> {
  const { bytes, offset, chunkBytes } = w.limits
  return {
    patterns: w.patterns.map((p) => p.name).join(', '),
    graphKernels: w.graphs.kernels.map((k) => k.name).join(', '),
    l1Loads: w.l1.values.map((v) => v.name).join(', '),
    l1Default: w.l1.default,
    bytesRule: `a multiple of ${bytes.multipleOf} in ${bytes.min}..${bytes.max}`,
    offsetRule: `a multiple of ${offset.multipleOf} in ${offset.min}..${offset.max}`,
    chunkBytesRule: `a multiple of ${chunkBytes.multipleOf} in ${chunkBytes.min}..${chunkBytes.max}`,
    chunkBytesDefault: String(chunkBytes.default),
    elementBytesRule: `one of ${w.elementBytes.values.join(', ')}`,
    elementBytesDefault: String(w.elementBytes.default),
    idBytesDefault: String(w.graphs.idBytes.default),
    defaultOffsets: w.patterns.map((p) => `${p.name} ${p.defaultOffset}`).join(', '),
    gpus: w.gpus.values.map((v) => v.name).join(', '),
  }
}

function expand(text: string, f: Record<string, string>, where: string, P: string[]): string {
  return text.replace(/\{(\w+)\}/g, (all, key: string) => {
    const v = f[key]
    if (v === undefined) P.push(`twin.json ${where}: unknown placeholder ${all}`)
    return v ?? all
  })
}

const FLAG = /^--[a-z][a-z0-9-]*$/
const U64_MAX = 18446744073709551615n

export function buildTwinModel(raw: RawTwinSpec, w: WorkloadSpec): TwinModel {
  const P: string[] = []
  const f = facts(w)
  const seen = new Set<string>()
  const options = raw.options.map((o): TwinOption => {
    const at = o.flag ?? o.name
    for (const key of [o.name, o.flag, ...(o.alias ? [o.alias] : [])]) {
      if (seen.has(key)) P.push(`twin.json ${at}: ${key} given twice`)
      seen.add(key)
    }
    if (!FLAG.test(o.flag)) P.push(`twin.json ${at}: flag must look like --word`)
    if (!['none', 'uint', 'text'].includes(o.value)) P.push(`twin.json ${at}: value must be none, uint or text`)
    if (o.value !== 'none' && !o.valueName) P.push(`twin.json ${at}: a value needs a valueName`)
    if (!o.modes?.length || o.modes.some((m) => !(TWIN_DESIGNS as readonly string[]).includes(m)))
      P.push(`twin.json ${at}: modes must be some of ${TWIN_DESIGNS.join(', ')}`)
    const values =
      o.values === 'elementBytes' ? w.elementBytes.values : o.values === 'idBytes' ? w.graphs.idBytes.values : (o.values ?? null)
    const choices = o.choices === 'l1' ? w.l1.values.map((v) => v.name) : (o.choices ?? null)
    let min = o.min ?? null
    let max = o.max ?? null
    if (o.range === 'offset') [min, max] = [w.limits.offset.min, w.limits.offset.max]
    if (o.range === 'chunkBytes') [min, max] = [w.limits.chunkBytes.min, w.limits.chunkBytes.max]
    if (o.value !== 'uint' && (values || min !== null || max !== null)) P.push(`twin.json ${at}: values and ranges are for uint options`)
    if (o.value !== 'text' && choices) P.push(`twin.json ${at}: choices are for text options`)
    if (values && (min !== null || max !== null)) P.push(`twin.json ${at}: give values or a range, not both`)
    if (values && values.length > 8) P.push(`twin.json ${at}: at most 8 values`)
    if (choices && choices.length > 8) P.push(`twin.json ${at}: at most 8 choices`)
    if (min !== null && max !== null && min > max) P.push(`twin.json ${at}: min above max`)
    if (o.value === 'uint' && typeof o.default === 'number') {
      const d = o.default
      if (values ? !values.includes(d) : (min !== null && d < min) || (max !== null && d > max))
        P.push(`twin.json ${at}: default ${d} is not allowed`)
    }
    if (choices && o.default !== undefined && !choices.includes(String(o.default)))
      P.push(`twin.json ${at}: default ${o.default} is not a choice`)
    // a range without its own message: "--tags must be 1..256"
    const rangeError = o.value === 'uint' && !values && min !== null && max !== null ? `${o.flag} must be ${min}..${max}` : ''
    if (((o.value === 'uint' && values) || o.value === 'text') && !o.error)
      P.push(`twin.json ${at}: a checked value needs an error message`)
    return {
      name: o.name,
      flag: o.flag,
      alias: o.alias ?? null,
      value: o.value,
      valueName: o.valueName ?? null,
      min,
      max,
      values,
      choices,
      default: o.default ?? null,
      modes: o.modes,
      with: o.with ?? null,
      host: o.host ?? null,
      error: o.error ? expand(o.error, f, at, P) : rangeError,
      help: expand(o.help, f, at, P),
    }
  })
  const usage = twinUsage(raw, options, expand(raw.stdin, f, 'stdin', P), expand(raw.about, f, 'about', P))
  if (P.length) throw new SpecError(P)
  return { raw, options, usage }
}

const WIDTH = 89
const HELP_COLUMN = 22

/** Words of `text` in lines of at most `width` characters, each paragraph (\n) on a new line. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  for (const paragraph of text.split('\n')) {
    let line = ''
    for (const word of paragraph.split(' ')) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line)
        line = word
      } else line = line ? `${line} ${word}` : word
    }
    lines.push(line)
  }
  return lines
}

/** The twin's --help text: the synopsis, the options with their help, the stdin commands. */
function twinUsage(raw: RawTwinSpec, options: TwinOption[], stdin: string, about: string): string {
  const head = `usage: ${raw.program} `
  const L = raw.synopsis.map((s, i) => (i ? ' '.repeat(head.length) : head) + s)
  L.push('', ...wrap(about, WIDTH), '')
  for (const o of options) {
    const left = `  ${o.flag}${o.valueName ? ` ${o.valueName}` : ''}${o.alias ? `, ${o.alias}` : ''}`
    const help = wrap(o.help, WIDTH - HELP_COLUMN)
    const first = left.length < HELP_COLUMN ? [left.padEnd(HELP_COLUMN) + (help.shift() ?? '')] : [left]
    L.push(...first, ...help.map((h) => ' '.repeat(HELP_COLUMN) + h))
  }
  L.push('', ...wrap(stdin, WIDTH))
  return L.join('\n') + '\n'
}

const cString = (s: string): string => JSON.stringify(s)
const enumName = (o: TwinOption): string => `kTwinOpt${o.name[0]!.toUpperCase()}${o.name.slice(1)}`
const u64 = (n: number | null, fallback: string): string => (n === null ? fallback : BigInt(n) > U64_MAX ? fallback : `${n}ull`)

/** native/twin/generated/twin_options.h: the option table the twin's parser walks, defaults, usage. */
export function emitTwinCpp(m: TwinModel): string {
  const L: string[] = [
    `// Generated by spec/generate.ts from spec/twin.json and spec/workloads.json. Do not edit: run \`npm run gen\`.`,
    '#ifndef PCIE_SCOPE_TWIN_GENERATED_TWIN_OPTIONS_H',
    '#define PCIE_SCOPE_TWIN_GENERATED_TWIN_OPTIONS_H',
    '',
    '#include <stddef.h>',
    '#include <stdint.h>',
    '',
    '#include "options.h" // native/common',
    '',
    'namespace ps {',
    '',
    "// The twin's options, in spec order (the id of each table row).",
    'enum TwinOption : int {',
    ...m.options.map((o) => `    ${enumName(o)},`),
    '};',
    `constexpr size_t kTwinOptionCount = ${m.options.length};`,
    '',
    '// What the parser checks of each (native/common/options.h); the twin applies them in cli.cpp.',
    'inline const cli::OptionDef kTwinOptions[kTwinOptionCount] = {',
  ]
  for (const o of m.options) {
    const kind = o.value === 'none' ? 'cli::Value::None' : o.value === 'uint' ? 'cli::Value::Uint' : 'cli::Value::Text'
    const values = o.values ?? []
    const choices = o.choices ?? []
    const isUint = o.value === 'uint'
    L.push(
      `    {${enumName(o)}, ${cString(o.flag)}, ${o.alias ? cString(o.alias) : 'nullptr'}, ${kind}, ${isUint ? u64(o.min, '0') : '0'}, ${isUint ? u64(o.max, 'UINT64_MAX') : '0'},`,
      `     {${values.join(', ')}}, ${values.length}, {${choices.map(cString).join(', ')}}, ${choices.length},`,
      `     ${cString(o.error)}},`,
    )
  }
  L.push('};', '')
  L.push('// Defaults the twin starts from.')
  for (const o of m.options) {
    if (typeof o.default === 'number') L.push(`constexpr uint32_t ${enumName(o).replace('kTwinOpt', 'kTwinDefault')} = ${o.default};`)
    else if (typeof o.default === 'string')
      L.push(`constexpr const char *${enumName(o).replace('kTwinOpt', 'kTwinDefault')} = ${cString(o.default)};`)
  }
  L.push('', '// --help', `constexpr const char *kTwinUsage =`)
  const lines = m.usage.split('\n').slice(0, -1)
  lines.forEach((line, i) => L.push(`    ${cString(line + '\n')}${i === lines.length - 1 ? ';' : ''}`))
  L.push('', '} // namespace ps', '', '#endif', '')
  return L.join('\n')
}

/** TWIN_OPTIONS and what a command line needs of them, for host/src/core/generated.ts. */
export function emitTwinTs(m: TwinModel): string {
  const J = (v: unknown): string => JSON.stringify(v, null, 2)
  const rows = m.options.map((o) => ({
    name: o.name,
    flag: o.flag,
    value: o.value,
    ...(o.min !== null ? { min: o.min } : {}),
    ...(o.max !== null ? { max: o.max } : {}),
    ...(o.values ? { values: o.values } : {}),
    ...(o.choices ? { choices: o.choices } : {}),
    ...(o.default !== null ? { default: o.default } : {}),
    modes: o.modes,
    ...(o.with ? { with: o.with } : {}),
    ...(o.host ? { host: o.host } : {}),
    ...(o.error ? { error: o.error } : {}),
    help: o.help,
  }))
  const host = m.options.filter((o) => o.host)
  const L: string[] = [
    '',
    "// spec/twin.json: the twin's command line (native/twin/generated/twin_options.h is its C++ view).",
    `export const TWIN_OPTIONS = ${J(rows)} as const`,
    'export type TwinOptionName = (typeof TWIN_OPTIONS)[number]["name"]',
    "/** The options the host passes to the twin: TwinOptions member -> the twin's flag (host/src/transport/twin.ts). */",
    `export const TWIN_HOST_FLAGS = ${J(Object.fromEntries(host.map((o) => [o.host, o.flag])))} as const`,
    'export type TwinHostOption = keyof typeof TWIN_HOST_FLAGS',
    "/** Each option's allowed values, range, words and default, by name: what a command line or a REST schema checks. */",
    `export const TWIN_OPTION_VALUES = ${J(Object.fromEntries(m.options.filter((o) => o.values).map((o) => [o.name, o.values])))} as const`,
    `export const TWIN_OPTION_RANGES = ${J(Object.fromEntries(m.options.filter((o) => o.min !== null || o.max !== null).map((o) => [o.name, { min: o.min, max: o.max }])))} as const`,
    `export const TWIN_OPTION_CHOICES = ${J(Object.fromEntries(m.options.filter((o) => o.choices).map((o) => [o.name, o.choices])))} as const`,
    `export const TWIN_OPTION_DEFAULTS = ${J(Object.fromEntries(m.options.filter((o) => o.default !== null).map((o) => [o.name, o.default])))} as const`,
    '/** The flags a capture, serve or bench command takes only for the twin (the same flag on both). */',
    `export const TWIN_ONLY_FLAGS = ${J(host.map((o) => o.flag))} as const`,
    '',
  ]
  return L.join('\n')
}
