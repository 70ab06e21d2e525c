/**
 * pcapng export of a TLP trace (docs/trace.md): one packet per trace record, its six TRC_REC_*
 * words little-endian (24 bytes: header DW0..DW3 as the registers hold them, the tap clock's low
 * word, the info word), exactly as a TRACE frame carries a record, on the user link type
 * DLT_USER1 (148), which the `pcie_scope_tlp` protocol of wireshark/pcie_scope.lua dissects.
 * Timestamps are the record's tap clock in ns of probe time since the probe's reset (if_tsresol
 * 9); requests are outbound (the requester's view), completions inbound (epb_flags); the trigger
 * record carries the comment "trigger". Same blocks as pcapng.ts: Section Header, one Interface
 * Description (named after the tap), Enhanced Packet Blocks.
 */
import type { Trace } from '../core/trace.js'
import { enhancedPacketAt, interfaceDescription, LINKTYPE_USER1, sectionHeader } from './pcapng.js'

/** The packet of one record: its words, u32 little-endian each. */
export const traceRecordBytes = (words: readonly number[]): Buffer => {
  const b = Buffer.alloc(words.length * 4)
  words.forEach((w, i) => b.writeUInt32LE(w >>> 0, i * 4))
  return b
}

/** A record's tap clock in ns, exact (BigInt arithmetic). */
export const clockNs = (clock: number, clockHz: number): bigint => (BigInt(clock) * 1_000_000_000n) / BigInt(Math.round(clockHz))

/** The whole trace as one pcapng file. */
export const tracePcapng = (
  trace: Pick<Trace, 'tap' | 'records' | 'words' | 'triggerIndex'>,
  clockHz: number,
  app = 'pcie-scope trace',
): Buffer => {
  const blocks = [sectionHeader(app), interfaceDescription(`tap ${trace.tap}`, LINKTYPE_USER1, true)]
  trace.records.forEach((r, i) => {
    const dir = r.stream === 'request' ? 'tx' : 'rx'
    blocks.push(
      enhancedPacketAt(clockNs(r.clock, clockHz), dir, traceRecordBytes(trace.words[i]!), i === trace.triggerIndex ? 'trigger' : undefined),
    )
  })
  return Buffer.concat(blocks)
}
