/**
 * A counter's value as a reader should see it. Some counters have no value until something was
 * counted: a latency minimum is held at all ones while its count is 0 (spec/registers.json
 * `noValueWhenZero`), which as a number would read 18446744073709552000. Exports and tables show
 * no value there instead.
 */
import { type COUNTERS } from './generated.js'
import type { Counters } from './probe.js'

export type CounterMeta = (typeof COUNTERS)[number]

/** The counter's value, or null where the spec says it has none. */
export const counterValue = (c: Counters, counter: CounterMeta): number | null =>
  'noValueWhenZero' in counter && c[counter.noValueWhenZero] === 0 ? null : c[counter.key]
