/** The page's warp table as the tests read it (the page fetches the same file). */
import { readFileSync } from 'node:fs'
import { warpTablePath } from '../../scripts/gen-warp-table.mjs'
import type { WarpTable } from '../../web/pattern-diagram.js'

export const WARP_TABLE = JSON.parse(readFileSync(warpTablePath, 'utf8')) as WarpTable
