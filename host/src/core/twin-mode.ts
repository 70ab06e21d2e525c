/**
 * The twin's design (`pcie-scope-twin --mode`): `switch`, the default, puts the switch RTL
 * between the GPU model (below its downstream port) and a host root-complex model (above its
 * upstream port), with a probe tap on each side; `endpoint` makes the FPGA the GPU's BAR
 * endpoint, answered by the BAR responder in the RTL. `--segments` widens either.
 */
export const TWIN_MODES = ['switch', 'endpoint'] as const
export type TwinMode = (typeof TWIN_MODES)[number]
