/**
 * MRd request-size classes, from the spec's one table (spec/registers.json `sizeClasses`):
 * histogram keys, labels and the counter behind each class are derived here, never written out.
 */
import { SIZE_CLASSES, type CounterKey, type SizeKey } from './generated.js'

export { SIZE_CLASSES, type SizeKey }

/** A count per size class, keyed "32", "64", …, "other". */
export type BySize = Record<SizeKey, number>

export const SIZE_KEYS: readonly SizeKey[] = SIZE_CLASSES.map((c) => c.key)

/** The probe counter behind each class, in histogram order. */
export const SIZE_COUNTER_KEYS: readonly CounterKey[] = SIZE_CLASSES.map((c) => c.counter)

export const zeroBySize = (): BySize => Object.fromEntries(SIZE_KEYS.map((k) => [k, 0])) as BySize

/** The histogram held in a set of probe counters (or counter deltas). */
export const bySizeFromCounters = (c: Readonly<Record<CounterKey, number>>): BySize =>
  Object.fromEntries(SIZE_CLASSES.map((s) => [s.key, c[s.counter]])) as BySize

export const totalRequests = (b: Readonly<BySize>): number => SIZE_KEYS.reduce((sum, k) => sum + b[k], 0)

/** MRds as a model issued them or a probe counted them. */
export interface MrdCounts {
  count: number
  bySize: BySize
  bytes: number
}

/** Whether two MRd streams are the same in count, bytes and every size class. */
export const sameMrdCounts = (a: Readonly<MrdCounts>, b: Readonly<MrdCounts>): boolean =>
  a.count === b.count && a.bytes === b.bytes && SIZE_KEYS.every((k) => a.bySize[k] === b.bySize[k])

/** The size class of one request of `bytes` (byte-enable exact): its index in SIZE_CLASSES, the catch-all for any other size. */
export const sizeClassIndex = (bytes: number): number => {
  const exact = SIZE_CLASSES.findIndex((c) => c.bytes === bytes)
  return exact >= 0 ? exact : SIZE_CLASSES.findIndex((c) => c.bytes === null)
}
