import type { WarpTable } from '../web/pattern-diagram.js'

/** web/generated/warp-table.ts */
export const warpTablePath: string
/** The table as pcie-scope-model --warp-table prints it (builds the CPU-only model first). */
export function modelWarpTable(): WarpTable
/** The generated module's text for a table. */
export function warpTableSource(t: WarpTable): string
