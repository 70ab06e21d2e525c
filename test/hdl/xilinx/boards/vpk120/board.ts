// What the VPK120 tests read from the board's files (the parsers are the VCU118 tests').
export { constrainedPorts, modulePorts, placedPorts, read } from '../vcu118/board.js'

export const BOARD = 'hdl/xilinx/boards/vpk120'
export const TOP = 'vpk120_switch_top'
export const TOP_FILE = `${BOARD}/rtl/${TOP}.v`
