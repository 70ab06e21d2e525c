/** The PCIe link the probe watches and the payload ceiling it allows for a completion mix. */

/** The PCIe link between the GPU and the FPGA, as the twin models it (a board: not yet reported). */
export interface PcieLinkInfo {
  /** e.g. "gen3x16", or "ideal" for no wire limit */
  name: string
  /** TLP bytes per second one direction carries after line coding and DLLP overhead; null when ideal */
  tlpBytesPerSecond: number | null
}

/**
 * Bytes a CplD costs on the wire besides its payload: the 3-DW completion header (12 B) and 8 B
 * of framing (sequence number, LCRC and start/end symbols or the Gen3+ STP token), the same for
 * Gen1 to Gen5 without ECRC (PCI Express Base Specification; docs/pcie.md restates it).
 */
export const CPL_OVERHEAD_BYTES = 20

/** Bytes an MRd with a 64-bit address costs on the wire: its 4-DW header and the same 8 B of framing (docs/pcie.md). */
export const MRD_WIRE_BYTES = 24

/**
 * Payload bytes per second the link can deliver for a given completion mix: each completion pays
 * CPL_OVERHEAD_BYTES on top of its payload. Null when the link or the mix is unknown.
 */
export const payloadCeiling = (link: PcieLinkInfo | null | undefined, payloadBytes: number, completions: number): number | null => {
  if (!link || link.tlpBytesPerSecond === null || payloadBytes <= 0) return null
  return (link.tlpBytesPerSecond * payloadBytes) / (payloadBytes + CPL_OVERHEAD_BYTES * completions)
}
