/**
 * One BFS kernel on the twin, counted by the probe: the twin's graph run on a cleared probe
 * (runOnCleanProbe, as measureRun does it), a SNAPSHOT after its done line, STOP. The probe's MRd
 * counts next to what the twin's traffic model says it issued.
 */
import { PsError } from '../core/errors.js'
import { runOnCleanProbe } from './run.js'
import { bySizeFromCounters, totalRequests, type BySize } from '../core/size-classes.js'
import type { DeviceSession } from '../device/session.js'
import type { TwinGraphRunRequest } from '../transport/twin.js'
import type { TwinGraphDone } from '../transport/twin-lines.js'

export interface GraphProbeRun {
  /** the twin's done line: the graph, the source, launches and the MRds its model issued */
  done: TwinGraphDone
  /** what the probe counted over the run */
  probe: { count: number; bySize: BySize; bytes: number; cycles: number }
}

export const runGraphOnProbe = async (
  session: Pick<DeviceSession, 'client' | 'twin' | 'source' | 'path'>,
  req: TwinGraphRunRequest,
  opts: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<GraphProbeRun> => {
  const twin = session.twin
  if (!twin) throw new PsError('PS_WORKLOAD_UNSUPPORTED', `graph kernels run on the twin only, not on ${session.source} ${session.path}`)
  const { client } = session
  const done = await runOnCleanProbe(client, () => twin.runGraph(req, opts))
  const snap = await client.snapshot()
  await client.stop()
  const bySize = bySizeFromCounters(snap.counters)
  return { done, probe: { count: totalRequests(bySize), bySize, bytes: snap.counters.mrdBytes, cycles: snap.counters.cycles } }
}
