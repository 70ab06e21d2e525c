/**
 * Benchmark suites: named lists of workloads. `micro` runs every spec pattern at its default
 * offset, once per lane width the traffic model predicts (4 B until the model has lane widths).
 */
import { PsError } from '../core/errors.js'
import { defaultOffset, PATTERNS, type PatternName } from '../core/workload.js'

/** micro: the spec patterns (this module); graph: the spec's graph kernels on one graph (cli/bench-graph.ts) */
export const SUITES = ['micro', 'graph'] as const
export type SuiteName = (typeof SUITES)[number]

/** One entry of a suite: its name in tables ("strided e4") and the workload fields. */
export interface SuiteKernel {
  name: string
  pattern: PatternName
  bytes: number
  offset: number
  /** only when the suite varies it (more than one lane width) */
  elementBytes?: number
}

/** The kernels of `suite` for `bytes` useful bytes each; widths that `bytes` is no multiple of are left out. */
export const suiteKernels = (suite: SuiteName, bytes: number, elementBytes: readonly number[]): SuiteKernel[] => {
  if (suite !== 'micro') throw new PsError('PS_USAGE', `suite ${String(suite)} has no byte-range kernels: micro is the one that has`)
  const widths = elementBytes.length > 0 ? elementBytes : [4]
  const varied = widths.length > 1
  return PATTERNS.flatMap((pattern) =>
    widths
      .filter((e) => bytes % e === 0 && defaultOffset(pattern) % e === 0)
      .map((e) => ({
        name: `${pattern} e${e}`,
        pattern,
        bytes,
        offset: defaultOffset(pattern),
        ...(varied ? { elementBytes: e } : {}),
      })),
  )
}
