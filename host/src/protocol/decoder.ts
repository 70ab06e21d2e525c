/**
 * FrameDecoder: an object-mode Transform from wire bytes to parsed frames.
 *
 * - splits on 0x00 with indexOf, COBS-decodes, checks CRC and type;
 * - copies partial frames out of the incoming chunk (serialport pushes views of a pooled buffer);
 * - guards against a line that never sends a delimiter (maxFrameBytes; the rest of that frame is
 *   discarded up to the next delimiter and counted once as an overflow);
 * - counts everything in `stats` and reports each problem as a 'frame-error' event (a PsError);
 *   it never emits 'error' and never throws through the stream;
 * - emits 'raw-frame' with the COBS-decoded bytes of every frame that COBS-decodes (good, bad
 *   CRC, unknown type), before it is checked, for recorders of the raw link (only when listened to).
 */
import { Transform, type TransformCallback, type TransformOptions } from 'node:stream'
import { PsError } from '../core/errors.js'
import { createLogger, hex } from '../util/log.js'
import { cobsDecode } from './cobs.js'
import { parseFrame, type Frame } from './frame.js'
import { FRAMING } from '../core/generated.js'
import type { HostLinkStats } from '../core/probe.js'

const log = createLogger('ps:protocol:decoder')

/** sequence numbers are u16: a run of this many lost frames looks like none */
export const SEQ_SPACE = 0x1_0000

export interface FrameDecoderOptions extends Omit<TransformOptions, 'readableObjectMode' | 'writableObjectMode' | 'objectMode'> {
  /** largest encoded frame (delimiter excluded) accepted; default FRAMING.maxEncodedBytes - 1 */
  maxFrameBytes?: number
}

const emptyHostStats = (): HostLinkStats => ({
  frames: 0,
  badFrames: 0,
  crcErrors: 0,
  overflows: 0,
  seqGaps: 0,
  lostFrames: 0,
  unknownFrames: 0,
  bytes: 0,
})

export class FrameDecoder extends Transform {
  readonly maxFrameBytes: number
  private readonly counts: HostLinkStats = emptyHostStats()
  private pending: Buffer[] = []
  private pendingLen = 0
  private discarding = false
  private lastSeq: number | undefined

  constructor(opts: FrameDecoderOptions = {}) {
    const { maxFrameBytes, ...rest } = opts
    super({ ...rest, readableObjectMode: true, writableObjectMode: false })
    this.maxFrameBytes = maxFrameBytes ?? FRAMING.maxEncodedBytes - 1
    if (!Number.isInteger(this.maxFrameBytes) || this.maxFrameBytes < 1) {
      throw new TypeError(`maxFrameBytes must be a positive integer, got ${String(maxFrameBytes)}`)
    }
  }

  /** A copy of the counters. */
  get stats(): HostLinkStats {
    return { ...this.counts }
  }

  /** Frames lost so far (what `stats.lostFrames` says, without the copy). */
  get lostFrames(): number {
    return this.counts.lostFrames
  }

  /**
   * Count frames lost where the sequence number looked contiguous: it wrapped `wraps` times
   * (65 536 frames each), as the caller found from the frames' own numbering. One gap.
   */
  countWrappedLoss(wraps: number): void {
    if (!(wraps > 0)) return
    this.counts.seqGaps++
    this.counts.lostFrames += wraps * SEQ_SPACE
    log.debug(() => `sequence wrapped ${wraps} time(s) over lost frames`)
  }

  /** Forget the sequence history (after a reconnect the device may restart its numbering). */
  resetSequence(): void {
    this.lastSeq = undefined
  }

  /** A new connection: drop any partial frame and the sequence history; keep the counters. */
  reset(): void {
    this.clearPending()
    this.discarding = false
    this.lastSeq = undefined
  }

  override _transform(chunk: Buffer | Uint8Array | string, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      const buf =
        typeof chunk === 'string'
          ? Buffer.from(chunk, 'latin1')
          : Buffer.isBuffer(chunk)
            ? chunk
            : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length)
      this.counts.bytes += buf.length
      let start = 0
      let z: number
      while ((z = buf.indexOf(FRAMING.delimiter, start)) !== -1) {
        const piece = buf.subarray(start, z)
        start = z + 1
        if (this.discarding) {
          this.discarding = false
          this.clearPending()
          continue
        }
        if (this.pendingLen + piece.length > this.maxFrameBytes) {
          this.clearPending()
          this.overflow(this.pendingLen + piece.length)
          continue
        }
        const enc = this.pendingLen > 0 ? Buffer.concat([...this.pending, piece]) : piece
        this.clearPending()
        if (enc.length === 0) continue // back-to-back delimiters: idle fill, not an error
        this.handle(enc)
      }
      if (start < buf.length && !this.discarding) {
        const rest = buf.subarray(start)
        if (this.pendingLen + rest.length > this.maxFrameBytes) {
          this.clearPending()
          this.discarding = true
          this.overflow(undefined)
        } else {
          this.pending.push(Buffer.from(rest)) // copy: the chunk may be a pooled buffer
          this.pendingLen += rest.length
        }
      }
    } catch (e) {
      // nothing above should throw; if it does, count it and keep the stream alive
      this.counts.badFrames++
      this.report(new PsError('PS_FRAME_COBS', `decoder failure: ${String(e)}`, { cause: e }))
    }
    done()
  }

  override _flush(done: TransformCallback): void {
    // a partial frame at end of stream is dropped silently: the next session starts fresh
    this.clearPending()
    this.discarding = false
    done()
  }

  private clearPending(): void {
    this.pending = []
    this.pendingLen = 0
  }

  private overflow(len: number | undefined): void {
    this.counts.overflows++
    this.report(
      new PsError(
        'PS_FRAME_OVERFLOW',
        `frame of ${len === undefined ? 'more than ' + this.maxFrameBytes : len} B without a delimiter exceeds ${this.maxFrameBytes} B; dropped`,
      ),
    )
  }

  private handle(enc: Buffer): void {
    const dec = cobsDecode(enc)
    if (!dec.ok) {
      this.counts.badFrames++
      this.report(new PsError('PS_FRAME_COBS', `bad COBS block (${dec.error}) of ${enc.length} B`))
      log.debug(() => `bad COBS ${dec.error}: ${hex(enc)}`)
      return
    }
    // a copy for the listener: parseFrame keeps views of dec.data as payloads
    if (this.listenerCount('raw-frame') > 0) this.emit('raw-frame', Buffer.from(dec.data))
    const r = parseFrame(dec.data, true) // cobsDecode's output is a fresh buffer: no second copy
    if (!r.ok) {
      if (r.code === 'PS_FRAME_UNKNOWN_TYPE' && r.frame) {
        this.counts.unknownFrames++
        this.trackSeq(r.frame.seq)
      } else {
        this.counts.badFrames++
        if (r.code === 'PS_FRAME_CRC') this.counts.crcErrors++
        if (r.code === 'PS_FRAME_OVERFLOW') this.counts.overflows++
      }
      this.report(new PsError(r.code, r.message))
      log.debug(() => `${r.code}: ${hex(dec.data)}`)
      return
    }
    this.counts.frames++
    this.trackSeq(r.frame.seq)
    this.push(r.frame satisfies Frame)
  }

  private trackSeq(seq: number): void {
    if (this.lastSeq !== undefined) {
      const expected = (this.lastSeq + 1) & 0xffff
      if (seq !== expected) {
        this.counts.seqGaps++
        // a jump forward of less than half the 16-bit space lost that many frames; a larger one
        // is a repeat or a step back (a restarted device), which lost none that we can tell
        const ahead = (seq - expected) & 0xffff
        if (ahead < 0x8000) this.counts.lostFrames += ahead
        log.debug(() => `sequence gap: expected ${expected}, got ${seq}`)
      }
    }
    this.lastSeq = seq
  }

  private report(err: PsError): void {
    if (this.listenerCount('frame-error') > 0) this.emit('frame-error', err)
  }
}
