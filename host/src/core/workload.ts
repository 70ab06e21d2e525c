/**
 * Workloads: the access patterns of spec/workloads.json, their default offsets and limits, and
 * the runner interface every source of traffic implements (the twin's model, a CUDA kernel).
 */
import { LINE_BYTES, PATTERN_SPECS, PATTERNS, WORKLOAD_LIMITS, type PatternName } from './generated.js'
import type { BySize } from './size-classes.js'

export { LINE_BYTES, PATTERN_SPECS, PATTERNS, WORKLOAD_LIMITS, type PatternName }

export interface Workload {
  pattern: PatternName
  /** useful bytes the kernel reads */
  bytes: number
  /** byte offset of the data from a 128-B line (merged-misaligned defaults to 32) */
  offset: number
}

/** The offset a pattern runs at when none is given (spec `defaultOffset`). */
export const defaultOffset = (p: PatternName): number => PATTERN_SPECS.find((s) => s.name === p)?.defaultOffset ?? 0

/** What the workload side (twin traffic model, later the CUDA kernel) says it did. */
export interface WorkloadResult {
  workload: Workload
  /** MRds the GPU (model) issued, by size class */
  issued: { count: number; bySize: BySize; bytes: number }
  completions: number
  /** completions whose payload did not match the requested address */
  payloadErrors: number
  simCycles: number
  wallSeconds: number
}

/** Runs workloads on whatever plays the GPU: the twin's traffic model, later a real kernel. */
export interface WorkloadRunner {
  readonly kind: 'twin' | 'cuda'
  run(workload: Workload, signal?: AbortSignal): Promise<WorkloadResult>
}
