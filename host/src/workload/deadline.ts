/**
 * The deadline of a run, one rule for the server's runs and for `capture`: a run past it is
 * stuck, not slow, and is aborted.
 */
import { graphEdgeBytesBound, isGraphWorkload, type AnyWorkload } from '../core/workload.js'

/**
 * How long a run may take: `slackMs` plus its bytes at `floorBytesPerSecond`, a rate the twin
 * beats by far even on a loaded machine (it runs ≈100–250 MB/s; 16 MiB/s leaves room for a busy
 * two-core host), so a run past it is stuck, not slow.
 */
export interface RunLimits {
  floorBytesPerSecond: number
  slackMs: number
  /** manual runs that may wait behind the one in flight; more are refused (503, Retry-After) */
  maxQueued: number
}

export const DEFAULT_RUN_LIMITS: RunLimits = { floorBytesPerSecond: 16 * 1024 * 1024, slackMs: 10_000, maxQueued: 8 }

export const runDeadlineMs = (bytes: number, limits: Pick<RunLimits, 'floorBytesPerSecond' | 'slackMs'>): number =>
  Math.ceil(limits.slackMs + (bytes / limits.floorBytesPerSecond) * 1000)

/**
 * The bytes a run's deadline is counted on: a micro pattern's useful bytes; a graph kernel's edge
 * list (its bound from the scale: the server takes generated graphs only), read once per id by
 * BFS, times GRAPH_READ_SLACK for the sectors a thread-per-vertex kernel reads beside its ids.
 */
export const deadlineBytes = (w: AnyWorkload): number => (isGraphWorkload(w) ? GRAPH_READ_SLACK * (graphEdgeBytesBound(w) ?? 0) : w.bytes)
const GRAPH_READ_SLACK = 4
