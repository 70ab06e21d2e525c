// TRACE frames (host/src/protocol/messages.ts) and TRACE_ARM's arguments (host/src/core/trace.ts).
import { describe, expect, it } from 'vitest'
import { decodeTraceFrame, encodeCommand } from '../../../host/src/protocol/messages.js'
import { traceArmArgs, traceKindBits } from '../../../host/src/core/trace.js'
import {
  COMMANDS,
  TRACE_LAYOUT,
  TRACE_MAX_RECORDS,
  TRACE_RECORD_BYTES,
  TRACE_TRIGGER_BITS,
  TRACE_WORDS,
} from '../../../host/src/core/generated.js'

const F = TRACE_LAYOUT.fields

/** A TRACE payload as the firmware builds it: record i of the trace reads as words i * 0x10 + w. */
const payload = (firstIndex: number, count: number, total: number, triggerIndex = 0, lost = 0): Buffer => {
  const p = Buffer.alloc(TRACE_LAYOUT.bytes + count * TRACE_RECORD_BYTES)
  p.writeUInt8(2, F.tap.offset)
  p.writeUInt8(count, F.count.offset)
  p.writeUInt32LE(firstIndex, F.firstIndex.offset)
  p.writeUInt32LE(total, F.total.offset)
  p.writeUInt32LE(triggerIndex, F.triggerIndex.offset)
  p.writeUInt32LE(lost, F.lost.offset)
  for (let r = 0; r < count; r++)
    for (let w = 0; w < TRACE_WORDS.length; w++)
      p.writeUInt32LE((firstIndex + r) * 0x10 + w, TRACE_LAYOUT.bytes + r * TRACE_RECORD_BYTES + 4 * w)
  return p
}

describe('TRACE frames', () => {
  it('decode a full frame: header fields and each record as its TRC_REC_* words', () => {
    const d = decodeTraceFrame(9, payload(58, TRACE_MAX_RECORDS, 4096, 100, 7), 3)
    expect(d.ok).toBe(true)
    if (!d.ok) return
    expect(d.value).toMatchObject({ seq: 9, tap: 2, firstIndex: 58, total: 4096, triggerIndex: 100, lost: 7, receivedAt: 3 })
    expect(d.value.words).toHaveLength(TRACE_MAX_RECORDS)
    expect(d.value.words[1]).toEqual(TRACE_WORDS.map((_, w) => 59 * 0x10 + w))
    expect(TRACE_RECORD_BYTES).toBe(4 * TRACE_WORDS.length)
  })

  it('an empty trace is one frame of no records', () => {
    expect(decodeTraceFrame(1, payload(0, 0, 0))).toMatchObject({ ok: true, value: { total: 0, words: [] } })
  })

  it('refuse bad lengths, counts past a frame and records past the trace with PS_CMD_BAD_REPLY', () => {
    const p = payload(0, 3, 10)
    for (const bad of [p.subarray(0, p.length - 1), p.subarray(0, 4), payload(8, 3, 10)]) {
      const d = decodeTraceFrame(1, bad)
      expect(d.ok).toBe(false)
      if (!d.ok) expect(d.error.code).toBe('PS_CMD_BAD_REPLY')
    }
    const lying = Buffer.from(p)
    lying[F.count.offset] = TRACE_MAX_RECORDS + 1
    expect(decodeTraceFrame(1, lying).ok).toBe(false)
  })
})

describe('TRACE_ARM arguments', () => {
  it('set every argument the command takes: nothing but FORCE triggers, every kind recorded, no window by default', () => {
    const a = traceArmArgs({})
    expect(Object.keys(a).sort()).toEqual(COMMANDS.TRACE_ARM.args.map((x) => x.name).sort())
    expect(a).toMatchObject({ tap: 0, pre: 0, trigEnable: 0, filterTypes: 0x1f, filterEnable: 0 })
    expect(() => encodeCommand('TRACE_ARM', a)).not.toThrow()
  })

  it('turn conditions and kinds into their register bits', () => {
    const a = traceArmArgs({
      pre: 100,
      trigger: { conditions: ['LATENCY', 'TYPE'], types: ['CPLD'], latencyClocks: 500 },
      filter: { types: ['MRD', 'CPLD'], base: 0x1000, limit: 0x1fff },
    })
    expect(a.trigEnable).toBe((1 << TRACE_TRIGGER_BITS.LATENCY) | (1 << TRACE_TRIGGER_BITS.TYPE))
    expect(a.trigTypes).toBe(traceKindBits(['CPLD']))
    expect(a).toMatchObject({ pre: 100, trigLatency: 500, filterTypes: 0b101, filterEnable: 1, filterBase: 0x1000, filterLimit: 0x1fff })
  })
})
