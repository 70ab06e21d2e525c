import { describe, expect, it } from 'vitest'
import {
  decodeCommand,
  decodeInfo,
  decodeReply,
  decodeResponse,
  decodeSnapshot,
  encodeCommand,
  encodeReply,
  encodeResponse,
  encodeSnapshot,
  readField,
  writeField,
  zeroCounters,
} from '../../../host/src/protocol/messages.js'
import { COMMANDS, COUNTERS, SNAPSHOT_LAYOUT, STATUS, type CommandName } from '../../../host/src/core/generated.js'

describe('messages', () => {
  it('encodes every command per its layout and decodes it back', () => {
    for (const name of Object.keys(COMMANDS) as CommandName[]) {
      const def = COMMANDS[name]
      const args = Object.fromEntries(def.args.map((a, i) => [a.name, 0x10 + i]))
      const p = encodeCommand(name, args)
      expect(p.length).toBe(1 + def.argsBytes)
      expect(p[0]).toBe(def.id)
      const d = decodeCommand(p)
      expect(d).toMatchObject({ ok: true, cmd: def.id, name, args })
    }
  })
  it('writes PING nonce little-endian', () => {
    expect([...encodeCommand('PING', { nonce: 0x11223344 })]).toEqual([COMMANDS.PING.id, 0x44, 0x33, 0x22, 0x11])
    expect([...encodeCommand('START', { periodMs: 100 })]).toEqual([COMMANDS.START.id, 100, 0])
  })
  it('validates command arguments', () => {
    expect(() => encodeCommand('PING', {})).toThrowError(expect.objectContaining({ code: 'PS_REQUEST_INVALID' }))
    expect(() => encodeCommand('START', { periodMs: 70000 })).toThrowError(expect.objectContaining({ code: 'PS_REQUEST_INVALID' }))
    expect(() => encodeCommand('STOP', { x: 1 })).toThrowError(expect.objectContaining({ code: 'PS_REQUEST_INVALID' }))
    expect(decodeCommand(Buffer.from([COMMANDS.PING.id, 1]))).toMatchObject({ ok: false })
  })
  it('round-trips responses and INFO replies', () => {
    const info = {
      protocolVersion: 1,
      firmwareVersion: 0x0102,
      probeId: 0x50435343,
      regVersion: 1,
      clockHz: 250_000_000,
      counterCount: COUNTERS.length,
      streaming: 1,
      periodMs: 100,
      barLatencyCycles: 250,
    }
    const payload = encodeResponse(COMMANDS.INFO.id, STATUS.OK, 0xbeef, encodeReply('INFO', info))
    const r = decodeResponse(payload)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.value).toMatchObject({ cmd: COMMANDS.INFO.id, cmdName: 'INFO', status: 0, statusName: 'OK', requestSeq: 0xbeef })
    const i = decodeInfo(r.value.reply)
    expect(i).toEqual({ ok: true, value: { ...info, streaming: true } })
    expect(decodeInfo(Buffer.alloc(3))).toMatchObject({ ok: false, error: { code: 'PS_CMD_BAD_REPLY' } })
    expect(decodeResponse(Buffer.alloc(2))).toMatchObject({ ok: false })
    expect(decodeReply('PING', encodeReply('PING', { nonce: 7 }))).toEqual({ ok: true, value: { nonce: 7 } })
    expect(decodeResponse(encodeResponse(99, 77, 1)).ok && decodeResponse(encodeResponse(99, 77, 1))).toMatchObject({
      value: { cmdName: undefined, statusName: undefined },
    })
  })
  it('round-trips snapshots including large u64 counters', () => {
    const counters = zeroCounters()
    COUNTERS.forEach((c, i) => (counters[c.key] = i === 0 ? Number.MAX_SAFE_INTEGER : 0x1_0000_0000 * i + i))
    const snap = {
      index: 42,
      onDemand: true,
      enabled: false,
      counters,
      firmware: { rxFrames: 1, rxBadFrames: 2, rxOverflows: 3, unknownCommands: 4, txDropped: 5 },
    }
    const p = encodeSnapshot(snap)
    expect(p.length).toBe(SNAPSHOT_LAYOUT.bytes)
    expect(SNAPSHOT_LAYOUT.fields.counters.bytes).toBe(COUNTERS.length * 8)
    const d = decodeSnapshot(9, p, 1234)
    expect(d).toEqual({ ok: true, value: { ...snap, seq: 9, receivedAt: 1234 } })
    // counter i sits at counters.offset + 8*i
    const c2 = COUNTERS[2]!
    expect(readField(p, 'u64', SNAPSHOT_LAYOUT.fields.counters.offset + 8 * c2.index)).toBe(counters[c2.key])
    expect(decodeSnapshot(0, p.subarray(1))).toMatchObject({ ok: false, error: { code: 'PS_CMD_BAD_REPLY' } })
  })
  it('range-checks fields', () => {
    const b = Buffer.alloc(8)
    expect(() => writeField(b, 'u8', 0, 256)).toThrow()
    expect(() => writeField(b, 'u16', 0, -1)).toThrow()
    expect(() => writeField(b, 'u32', 0, 1.5)).toThrow()
    expect(() => writeField(b, 'x', 0, 1)).toThrow()
    writeField(b, 'u64', 0, 2 ** 40 + 3)
    expect(readField(b, 'u64', 0)).toBe(2 ** 40 + 3)
  })
})
