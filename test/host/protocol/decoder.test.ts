import { describe, expect, it } from 'vitest'
import { FrameDecoder, SEQ_SPACE } from '../../../host/src/protocol/decoder.js'
import { type Frame } from '../../../host/src/protocol/frame.js'
import { FRAME_TYPE, FRAMING } from '../../../host/src/core/generated.js'
import type { PsError } from '../../../host/src/core/errors.js'
import { encodeFrame } from './device-codec.js'

const collect = (d: FrameDecoder) => {
  const frames: Frame[] = []
  const errors: PsError[] = []
  d.on('data', (f: Frame) => frames.push(f))
  d.on('frame-error', (e: PsError) => errors.push(e))
  return { frames, errors }
}

const frameBytes = (seq: number, n = 10) =>
  encodeFrame(FRAME_TYPE.RESPONSE, seq, Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + seq) & 0xff)))

describe('FrameDecoder', () => {
  it('decodes back-to-back frames in one chunk', () => {
    const d = new FrameDecoder()
    const { frames } = collect(d)
    d.write(Buffer.concat([frameBytes(0), frameBytes(1), frameBytes(2)]))
    expect(frames.map((f) => f.seq)).toEqual([0, 1, 2])
    expect(d.stats).toMatchObject({ frames: 3, badFrames: 0, seqGaps: 0 })
  })

  it('reassembles frames torn across chunks at every split point', () => {
    const wire = Buffer.concat([frameBytes(10, 40), frameBytes(11, 3)])
    for (let cut = 1; cut < wire.length; cut++) {
      const d = new FrameDecoder()
      const { frames } = collect(d)
      d.write(wire.subarray(0, cut))
      d.write(wire.subarray(cut))
      expect(frames.map((f) => f.seq)).toEqual([10, 11])
    }
    // byte by byte
    const d = new FrameDecoder()
    const { frames } = collect(d)
    for (const b of wire) d.write(Buffer.from([b]))
    expect(frames).toHaveLength(2)
    expect(d.stats.bytes).toBe(wire.length)
  })

  it('copies partial frames out of a reused (pooled) buffer', () => {
    const wire = frameBytes(3, 20)
    const pool = Buffer.alloc(64)
    const d = new FrameDecoder()
    const { frames } = collect(d)
    wire.copy(pool, 0, 0, 10)
    d.write(pool.subarray(0, 10))
    pool.fill(0xee) // serialport reuses its pool for the next read
    wire.copy(pool, 0, 10)
    d.write(pool.subarray(0, wire.length - 10))
    expect(frames).toHaveLength(1)
    expect(frames[0]!.payload.equals(Buffer.from(Array.from({ length: 20 }, (_, i) => (i * 37 + 3) & 0xff)))).toBe(true)
  })

  it('skips garbage, counts it and resynchronises at the next delimiter', () => {
    const d = new FrameDecoder()
    const { frames, errors } = collect(d)
    d.write(Buffer.concat([Buffer.from([0x13, 0x37, 0x42, 0x00]), frameBytes(0), Buffer.from([0x00, 0x00]), frameBytes(1)]))
    expect(frames.map((f) => f.seq)).toEqual([0, 1])
    expect(d.stats.badFrames).toBe(1)
    expect(errors).toHaveLength(1)
  })

  it('counts CRC errors and keeps going', () => {
    const bad = frameBytes(1)
    bad[4]! ^= 0x01 // still no zero byte, but the CRC no longer matches
    if (bad.subarray(0, -1).includes(0)) bad[4]! ^= 0x03
    const d = new FrameDecoder()
    const { frames, errors } = collect(d)
    d.write(Buffer.concat([frameBytes(0), bad, frameBytes(2)]))
    expect(frames.map((f) => f.seq)).toEqual([0, 2])
    expect(d.stats).toMatchObject({ frames: 2, badFrames: 1, crcErrors: 1 })
    expect(errors[0]!.code).toMatch(/PS_FRAME_(CRC|COBS)/)
  })

  it('guards against a missing delimiter (overflow) and recovers', () => {
    const d = new FrameDecoder()
    const { frames, errors } = collect(d)
    const noise = Buffer.alloc(FRAMING.maxEncodedBytes * 3, 0x55)
    d.write(noise.subarray(0, 100))
    d.write(noise.subarray(100, 400))
    d.write(noise.subarray(400))
    d.write(Buffer.concat([Buffer.from([0x00]), frameBytes(0)]))
    expect(frames.map((f) => f.seq)).toEqual([0])
    expect(d.stats.overflows).toBe(1)
    expect(errors.map((e) => e.code)).toEqual(['PS_FRAME_OVERFLOW'])
    // an oversized block arriving in a single chunk is counted too
    d.write(Buffer.concat([Buffer.alloc(FRAMING.maxEncodedBytes + 10, 0x22), Buffer.from([0]), frameBytes(1)]))
    expect(d.stats.overflows).toBe(2)
    expect(frames.map((f) => f.seq)).toEqual([0, 1])
  })

  it('counts sequence gaps, including wrap-around correctly', () => {
    const d = new FrameDecoder()
    collect(d)
    d.write(Buffer.concat([frameBytes(0xfffe), frameBytes(0xffff), frameBytes(0), frameBytes(1)]))
    expect(d.stats.seqGaps).toBe(0)
    d.write(Buffer.concat([frameBytes(5), frameBytes(6)]))
    expect(d.stats.seqGaps).toBe(1)
    expect(d.stats.lostFrames).toBe(3) // 2, 3 and 4 never arrived
    d.resetSequence()
    d.write(frameBytes(100))
    expect(d.stats.seqGaps).toBe(1)
  })

  it('counts a wrapped loss its caller found as one gap of 65 536 frames a wrap', () => {
    const d = new FrameDecoder()
    collect(d)
    d.write(Buffer.concat([frameBytes(1), frameBytes(2)]))
    d.countWrappedLoss(0)
    expect(d.stats).toMatchObject({ seqGaps: 0, lostFrames: 0 })
    d.countWrappedLoss(2)
    expect(d.stats).toMatchObject({ seqGaps: 1, lostFrames: 2 * SEQ_SPACE })
    expect(d.lostFrames).toBe(2 * SEQ_SPACE)
    expect(SEQ_SPACE).toBe(65_536)
  })

  it('counts lost frames, not gap events: three frames in four lost is 3 × N lost, N gaps', () => {
    const d = new FrameDecoder()
    collect(d)
    const seqs = Array.from({ length: 10_000 }, (_, i) => (i * 4) & 0xffff)
    d.write(Buffer.concat(seqs.map((s) => frameBytes(s))))
    expect(d.stats.seqGaps).toBe(9_999)
    expect(d.stats.lostFrames).toBe(29_997)
    // a repeated frame or a step back is a gap but loses nothing
    d.write(Buffer.concat([frameBytes(seqs.at(-1)!), frameBytes(seqs.at(-1)! - 100)]))
    expect(d.stats.seqGaps).toBe(10_001)
    expect(d.stats.lostFrames).toBe(29_997)
  })

  it('counts unknown frame types without passing them on', () => {
    const d = new FrameDecoder()
    const { frames } = collect(d)
    d.write(Buffer.concat([encodeFrame(0x42, 0, Buffer.from([1])), frameBytes(1)]))
    expect(frames).toHaveLength(1)
    expect(d.stats).toMatchObject({ unknownFrames: 1, frames: 1, seqGaps: 0, badFrames: 0 })
  })

  it('never emits error, even without frame-error listeners', async () => {
    const d = new FrameDecoder()
    const frames: Frame[] = []
    d.on('data', (f: Frame) => frames.push(f))
    let errored = false
    d.on('error', () => (errored = true))
    d.write(Buffer.from([1, 2, 3, 0, 9, 9, 0, 0xff, 0]))
    d.write('text\u0000')
    d.end(frameBytes(0))
    await new Promise((r) => d.on('finish', r))
    expect(errored).toBe(false)
    expect(frames).toHaveLength(1)
    expect(d.stats.badFrames).toBe(4)
  })

  it('rejects a bad maxFrameBytes', () => {
    expect(() => new FrameDecoder({ maxFrameBytes: 0 })).toThrow(TypeError)
  })
})
