// Types of logic-depth.mjs, for the tests that import it.
export interface DepthCell {
  type: string
  net: string
}
export interface BlockDepth {
  block: string
  level: number
  carry: number
  muxf: number
}
export interface Depth {
  level: number
  carry: number
  muxf: number
  cells: DepthCell[]
  byBlock: BlockDepth[]
}
export function logicDepth(netlist: unknown): Depth
export function topModule(netlist: unknown): unknown
export const LUTRAM_READS: Record<string, { ins: string[]; outs: string[]; reads: Array<[string[], string]> }>
export const MAX_LUT_LEVELS: number
