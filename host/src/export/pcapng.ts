/**
 * pcapng export of the raw link: one packet per `frame` record (the frame layer's bytes, COBS
 * removed), on the user link type DLT_USER0 (147), which wireshark/pcie_scope.lua dissects.
 * Timestamps are the host's (µs, pcapng's default resolution); each packet's direction is in
 * its epb_flags (inbound: device to host). Layout after the pcapng specification
 * (draft-ietf-opsawg-pcapng): Section Header, one Interface Description, Enhanced Packet Blocks,
 * all little-endian, every block padded to 4 bytes and closed by its length again.
 */
import type { OpenedRecording } from '../recording/catalog.js'
import type { AnyRecord } from '../recording/format.js'

export const LINKTYPE_USER0 = 147
/** the TLP trace's records (trace-pcapng.ts): the user link type DLT_USER1 */
export const LINKTYPE_USER1 = 148

const SHB = 0x0a0d0d0a
const IDB = 0x00000001
const EPB = 0x00000006
const BYTE_ORDER_MAGIC = 0x1a2b3c4d
const OPT_END = 0
const SHB_USERAPPL = 4
const IF_NAME = 2
const IF_TSRESOL = 9
const EPB_FLAGS = 2
const OPT_COMMENT = 1
/** epb_flags bits 0-1: 01 inbound, 10 outbound */
const DIRECTION = { rx: 1, tx: 2 } as const

const pad4 = (n: number): number => (n + 3) & ~3

/** One option: code, length, value padded to 4. */
const option = (code: number, value: Buffer): Buffer => {
  const b = Buffer.alloc(4 + pad4(value.length))
  b.writeUInt16LE(code, 0)
  b.writeUInt16LE(value.length, 2)
  value.copy(b, 4)
  return b
}
const endOfOptions = (): Buffer => option(OPT_END, Buffer.alloc(0))

/** A block: type, total length, body, total length again. */
const block = (type: number, body: Buffer): Buffer => {
  const len = 12 + body.length
  const b = Buffer.alloc(len)
  b.writeUInt32LE(type, 0)
  b.writeUInt32LE(len, 4)
  body.copy(b, 8)
  b.writeUInt32LE(len, len - 4)
  return b
}

export const sectionHeader = (app: string): Buffer => {
  const fixed = Buffer.alloc(16)
  fixed.writeUInt32LE(BYTE_ORDER_MAGIC, 0)
  fixed.writeUInt16LE(1, 4) // major
  fixed.writeUInt16LE(0, 6) // minor
  fixed.writeBigInt64LE(-1n, 8) // section length not given
  return block(SHB, Buffer.concat([fixed, option(SHB_USERAPPL, Buffer.from(app)), endOfOptions()]))
}

/** An Interface Description Block; `nanoseconds`: timestamps in ns (if_tsresol 9), else µs (the default). */
export const interfaceDescription = (name: string, linkType = LINKTYPE_USER0, nanoseconds = false): Buffer => {
  const fixed = Buffer.alloc(8)
  fixed.writeUInt16LE(linkType, 0)
  fixed.writeUInt32LE(0, 4) // no snap length limit
  const opts = [option(IF_NAME, Buffer.from(name))]
  if (nanoseconds) opts.push(option(IF_TSRESOL, Buffer.from([9])))
  return block(IDB, Buffer.concat([fixed, ...opts, endOfOptions()]))
}

/** An Enhanced Packet Block on interface 0: `ts` in the interface's units, the direction, an optional comment. */
export const enhancedPacketAt = (ts: bigint, dir: 'tx' | 'rx', data: Buffer, comment?: string): Buffer => {
  const fixed = Buffer.alloc(20)
  fixed.writeUInt32LE(0, 0) // interface 0
  fixed.writeUInt32LE(Number(ts >> 32n), 4)
  fixed.writeUInt32LE(Number(ts & 0xffffffffn), 8)
  fixed.writeUInt32LE(data.length, 12)
  fixed.writeUInt32LE(data.length, 16)
  const padded = Buffer.alloc(pad4(data.length))
  data.copy(padded)
  const flags = Buffer.alloc(4)
  flags.writeUInt32LE(DIRECTION[dir], 0)
  const opts = [...(comment !== undefined ? [option(OPT_COMMENT, Buffer.from(comment))] : []), option(EPB_FLAGS, flags)]
  return block(EPB, Buffer.concat([fixed, padded, ...opts, endOfOptions()]))
}

const enhancedPacket = (atMs: number, dir: 'tx' | 'rx', data: Buffer): Buffer =>
  enhancedPacketAt(BigInt(Math.round(atMs * 1000)), dir, data)

/** The recording's frame records as pcapng blocks; `counts.frames` says how many packets were written. */
export async function* exportPcapng(
  recording: OpenedRecording,
  records: AsyncIterable<AnyRecord>,
  counts: { frames: number } = { frames: 0 },
): AsyncGenerator<Buffer> {
  yield sectionHeader(`pcie-scope (recording ${recording.manifest.name})`)
  yield interfaceDescription(`${recording.manifest.source}:${recording.manifest.path}`)
  for await (const r of records) {
    if (r.t !== 'frame') continue
    counts.frames++
    yield enhancedPacket(r.at, r.dir, Buffer.from(r.data, 'base64'))
  }
}
