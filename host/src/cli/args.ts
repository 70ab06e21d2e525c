/** Argument parsers for the CLI (each throws commander's InvalidArgumentError with a clear reason). */
import { InvalidArgumentError, Option, type Command } from 'commander'
import { PsError } from '../core/errors.js'
import { COMMANDS, TWIN_OPTION_RANGES, TWIN_OPTION_VALUES } from '../core/generated.js'
import { TWIN_MODES } from '../core/twin-mode.js'
import type { TwinCplSplit } from '../transport/twin.js'

/** --mode: the twin's design; a fresh Option per command (commander keeps state in it) */
export const twinModeOption = (): Option =>
  new Option(
    '--mode <design>',
    "twin only: switch (default: the switch RTL between the GPU model and a host model, both sides tapped) or endpoint (the FPGA as the GPU's BAR endpoint, the BAR responder answering)",
  ).choices(TWIN_MODES)

const SUFFIX: Record<string, number> = { '': 1, k: 1024, kib: 1024, m: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gib: 1024 ** 3 }

/** A non-negative integer, with optional binary suffix K/KiB, M/MiB, G/GiB (1M = 1048576). */
export const parseSize = (value: string): number => {
  const m = /^\s*(\d+)\s*([a-zA-Z]*)\s*$/.exec(value)
  const mult = m ? SUFFIX[m[2]!.toLowerCase()] : undefined
  if (!m || mult === undefined)
    throw new InvalidArgumentError('expected a whole number of bytes, optionally with K, M or G (binary: 1M = 1048576)')
  const n = Number(m[1]) * mult
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('number too large')
  return n
}

/** A non-negative decimal integer. */
export const parseIntArg = (value: string): number => {
  if (!/^\s*\d+\s*$/.test(value)) throw new InvalidArgumentError('expected a non-negative whole number')
  const n = Number(value)
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('number too large')
  return n
}

/**
 * A whole number in min..max, refused with its bounds (and unit) otherwise: every numeric option
 * has one, so no value can reach a timer past Node's 2^31-1 ms or turn a watchdog into a loop.
 */
export const parseIntIn =
  (min: number, max: number, unit = ''): ((value: string) => number) =>
  (value) => {
    const n = parseIntArg(value)
    if (n < min || n > max) throw new InvalidArgumentError(`expected ${min}..${max}${unit ? ` ${unit}` : ''}`)
    return n
  }

/** One of a few whole numbers (commander's choices() gives way to an argParser, so this checks both). */
export const parseOneOf =
  <T extends number>(values: readonly T[]): ((value: string) => T) =>
  (value) => {
    const n = Number(value.trim())
    if (!/^\s*\d+\s*$/.test(value) || !values.includes(n as T)) throw new InvalidArgumentError(`expected one of ${values.join(', ')}`)
    return n as T
  }

/** HOST:PORT (IPv6 as [::1]:PORT); a bare PORT means 127.0.0.1:PORT. */
export const parseHostPort = (value: string): { host: string; port: number } => {
  const m = /^(?:(?:\[([0-9a-fA-F:.]+)\]|([^:\s[\]]+)):)?(\d+)$/.exec(value.trim())
  if (!m) throw new InvalidArgumentError('expected HOST:PORT, e.g. 127.0.0.1:8737')
  const port = Number(m[3])
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('port must be 0..65535')
  return { host: m[1] ?? m[2] ?? '127.0.0.1', port }
}

/** A modelled PCIe link: genGxL (G 1..5, L 1/2/4/8/16), or "ideal"; the twin checks the same set. */
export const parseLink = (value: string): string => {
  const v = value.trim().toLowerCase()
  if (v === 'ideal') return v
  const m = /^gen([1-5])x(1|2|4|8|16)$/.exec(v)
  if (!m) throw new InvalidArgumentError('expected genGxL with G 1..5 and L 1, 2, 4, 8 or 16 (e.g. gen3x16), or ideal')
  return v
}

/** --cpl-split: the completion split boundary the twin's responder uses (0: none, or an RCB). */
export const parseCplSplit = (value: string): TwinCplSplit => {
  if (!TWIN_OPTION_VALUES.cplSplit.some((v) => String(v) === value.trim()))
    throw new InvalidArgumentError(
      `expected ${TWIN_OPTION_VALUES.cplSplit.slice(0, -1).join(', ')} or ${TWIN_OPTION_VALUES.cplSplit.at(-1)} (0: one CplD per read)`,
    )
  return Number(value) as TwinCplSplit
}

/** Serial line rates a UART can be asked for. */
export const BAUD_RANGE = { min: 300, max: 4_000_000 } as const

/** START's snapshot period (spec/protocol.json); 0 asks for the firmware's default. */
export const START_PERIOD = { min: COMMANDS.START.args[0].min, max: COMMANDS.START.args[0].max } as const
export const parsePeriodMs = (value: string): number => {
  const n = parseIntArg(value)
  if (n !== 0 && (n < START_PERIOD.min || n > START_PERIOD.max))
    throw new InvalidArgumentError(`expected 0 (the firmware's default) or ${START_PERIOD.min}..${START_PERIOD.max} ms`)
  return n
}

/** The probe clock of the designs as built (the RTL's CLK_HZ default; the twin's too). */
const DESIGN_CLOCK_HZ = 250e6

/**
 * The interval sampler's period in µs: what SET_SAMPLE_PERIOD's cycle range spans at the designs'
 * clock. A board with another clock may refuse a value within it: `sampleCycles` checks against
 * the probe's own CLK_HZ once it is known.
 */
export const SAMPLE_US_RANGE = {
  min: 1,
  max: Math.floor((COMMANDS.SET_SAMPLE_PERIOD.args[0].max * 1e6) / DESIGN_CLOCK_HZ),
} as const

/** A twin option's whole-number range, as spec/twin.json gives it. */
export const parseTwinRange = (name: keyof typeof TWIN_OPTION_RANGES): ((value: string) => number) =>
  parseIntIn(TWIN_OPTION_RANGES[name].min, TWIN_OPTION_RANGES[name].max)

/**
 * --latency-dist: the twin's completion latency per read, `fixed` (BAR_LATENCY alone) or
 * `uniform:LO:HI` in ns (the responder draws LO..HI per read). Returned in the twin's own syntax.
 */
export const parseLatencyDist = (value: string): string => {
  const v = value.trim()
  if (v === 'fixed') return v
  const m = /^uniform:(\d+):(\d+)$/.exec(v)
  const lo = m ? Number(m[1]) : NaN
  const hi = m ? Number(m[2]) : NaN
  if (!m || !(lo >= 1 && lo <= hi && hi <= 1_000_000_000))
    throw new InvalidArgumentError('expected fixed or uniform:LO:HI in ns with 1 <= LO <= HI <= 1000000000, e.g. uniform:800:1600')
  return `uniform:${lo}:${hi}`
}

/** --filter BASE:LIMIT, byte addresses (decimal or 0x hex), LIMIT inclusive and not below BASE. */
export const parseFilter = (value: string): { base: number; limit: number } => {
  const m = /^\s*(0x[0-9a-fA-F]+|\d+)\s*:\s*(0x[0-9a-fA-F]+|\d+)\s*$/.exec(value)
  if (!m) throw new InvalidArgumentError('expected BASE:LIMIT, byte addresses in decimal or 0x hex, e.g. 0x100000000:0x10007ffff')
  const base = Number(m[1])
  const limit = Number(m[2])
  if (!Number.isSafeInteger(base) || !Number.isSafeInteger(limit)) throw new InvalidArgumentError('address too large (at most 2^53 - 1)')
  if (limit < base) throw new InvalidArgumentError('LIMIT is below BASE')
  return { base, limit }
}

/**
 * A preAction hook for options a command cannot run without. Commander checks its own mandatory
 * options before it refuses unknown ones, so a misspelt `--patern` was reported as a missing
 * `--pattern`; checked here, after parsing, the unknown option is named first.
 */
export const requireOptions =
  (...names: string[]): ((command: Command, action: Command) => void) =>
  (_command, action) => {
    for (const name of names) {
      if (action.getOptionValue(name) !== undefined) continue
      const flags = action.options.find((o) => o.attributeName() === name)?.flags ?? `--${name}`
      throw new PsError('PS_USAGE', `required option '${flags}' not specified`)
    }
  }
