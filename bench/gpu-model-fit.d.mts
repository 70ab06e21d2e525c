/** Types of bench/gpu-model-fit.mjs for the tests. */
export declare const COUNT_LIMIT: number
export declare const GRAPH_WARP_LIMIT: number
export declare const GBPS_LIMIT: number
export declare function streamSeconds(
  reads: number,
  wireBytes: number,
  h: { wireEfficiency: number; readsPerUs: number; combineExponent: number },
  linkBytesPerSecond: number,
): number
export declare function linkBytesPerSecond(link: string): number
export interface NcuRun {
  run: Record<string, unknown> & { pattern: string; launches?: number }
  mrd: number
  readBytes: number
  ns: number
}
export declare function ncuRuns(text: string): NcuRun[]
export declare function microName(run: Record<string, unknown>): string
export interface TimedRun {
  run: Record<string, unknown> & { pattern: string; graph?: string; kernelGbps?: number; edgeGbps?: number }
  name: string
}
export declare function timedRuns(text: string): TimedRun[]
export interface GraphModel {
  pattern: string
  launchReads: { reads: number; cplWireBytes: number; steps: number }[]
}
export declare function perThread(m: { pattern: string }): boolean
export declare function graphSeconds(
  m: GraphModel,
  h: { wireEfficiency: number; readsPerUs: number; combineExponent: number; stepNs: number; threadStepNs: number; launchUs: number },
  linkBytesPerSecond: number,
): number
