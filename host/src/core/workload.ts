/**
 * Workloads: the access patterns of spec/workloads.json, their default offsets and limits, and
 * the runner interface every source of traffic implements (the twin's model, a CUDA kernel).
 */
import {
  ELEMENT_BYTES,
  ELEMENT_BYTES_DEFAULT,
  L1_LOAD_DEFAULT,
  L1_LOADS,
  L1_SPECS,
  LINE_BYTES,
  PATTERN_SPECS,
  PATTERNS,
  WORKLOAD_LIMITS,
  type ElementBytes,
  type L1LoadName,
  type PatternName,
} from './generated.js'
import type { BySize } from './size-classes.js'

export {
  ELEMENT_BYTES,
  ELEMENT_BYTES_DEFAULT,
  L1_LOAD_DEFAULT,
  L1_LOADS,
  L1_SPECS,
  LINE_BYTES,
  PATTERN_SPECS,
  PATTERNS,
  WORKLOAD_LIMITS,
  type ElementBytes,
  type L1LoadName,
  type PatternName,
}

export interface Workload {
  pattern: PatternName
  /** useful bytes the kernel reads */
  bytes: number
  /** byte offset of the data from a 128-B line (merged-misaligned defaults to 32) */
  offset: number
  /** bytes per lane load, 4, 8 or 16 (absent: ELEMENT_BYTES_DEFAULT, 4); bytes and offset are multiples of it */
  elementBytes?: ElementBytes
  /** `ideal`: default loads cached in L1; `bypass`: ld.global.cg loads (absent: L1_LOAD_DEFAULT) */
  l1?: L1LoadName
}

/** The lane width a workload runs at (absent = the spec default). */
export const elementBytesOf = (w: Pick<Workload, 'elementBytes'>): ElementBytes => w.elementBytes ?? ELEMENT_BYTES_DEFAULT

/** The L1 use a workload runs with (absent = the spec default). */
export const l1Of = (w: Pick<Workload, 'l1'>): L1LoadName => w.l1 ?? L1_LOAD_DEFAULT

/** One key per distinct workload (an absent field and its default are the same workload). */
export const workloadKey = (w: Workload): string => `${w.pattern}/${w.bytes}/${w.offset}/${elementBytesOf(w)}/${l1Of(w)}`

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
