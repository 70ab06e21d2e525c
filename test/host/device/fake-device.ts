/**
 * A small fake probe for unit tests of the device layer: it decodes host frames with the real
 * decoder and answers from the real message codecs. Connected to the client by an in-memory
 * Duplex pair; mocks exist only inside unit tests.
 */
import { Duplex } from 'node:stream'
import { FrameDecoder } from '../../../host/src/protocol/decoder.js'
import { type Frame } from '../../../host/src/protocol/frame.js'
import { COMMANDS, COUNTERS, FRAME_TYPE, HISTOGRAM_WORDS, STATUS, type CommandName } from '../../../host/src/core/generated.js'
import type { Counters } from '../../../host/src/core/probe.js'
import {
  decodeCommand,
  encodeFrame,
  encodeHistogram,
  encodeReply,
  encodeResponse,
  encodeSnapshot,
  zeroCounters,
} from '../protocol/device-codec.js'

class End extends Duplex {
  peer!: End
  override _read(): void {}
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    if (!this.peer.destroyed) this.peer.push(Buffer.from(chunk))
    cb()
  }
  override _final(cb: () => void): void {
    this.peer.push(null)
    cb()
  }
  override _destroy(err: Error | null, cb: (err: Error | null) => void): void {
    if (!this.peer.destroyed) this.peer.destroy()
    cb(err)
  }
}

export const duplexPair = (): [End, End] => {
  const a = new End()
  const b = new End()
  a.peer = b
  b.peer = a
  return [a, b]
}

export interface FakeDeviceOptions {
  /** commands that get no answer at all */
  silent?: CommandName[]
  /** commands answered with this status */
  reject?: Partial<Record<CommandName, number>>
  /** SNAPSHOT answered without the ON_DEMAND snapshot */
  skipOnDemand?: boolean
  /** LATENCY_HISTOGRAM answered without the first-completion histogram */
  skipFirstHistogram?: boolean
  /** PING answered with this nonce instead of the one sent */
  pingEcho?: number
}

export class FakeDevice {
  readonly received: { name: string | undefined; seq: number; args: Record<string, number> }[] = []
  readonly counters: Counters = zeroCounters()
  /** the latency histogram LATENCY_HISTOGRAM sends with its snapshot (64 clocks a bin) */
  histogramBins: number[] = Array<number>(HISTOGRAM_WORDS).fill(0)
  /** the first-completion histogram's bins (the other kind LATENCY_HISTOGRAM sends) */
  firstHistogramBins: number[] = Array<number>(HISTOGRAM_WORDS).fill(0)
  enabled = false
  private seq = 0
  private index = 0
  private readonly decoder = new FrameDecoder()

  constructor(
    readonly end: Duplex,
    readonly opts: FakeDeviceOptions = {},
  ) {
    end.on('data', (c: Buffer) => this.decoder.write(c))
    end.on('error', () => {})
    this.decoder.on('data', (f: Frame) => this.onFrame(f))
  }

  send(type: number, payload: Buffer, seq = this.seq++): void {
    this.seq = (seq + 1) & 0xffff
    this.end.write(encodeFrame(type, seq & 0xffff, payload))
  }

  /** Lose `frames` frames on the way (their sequence numbers used), `snapshots` of them SNAPSHOTs. */
  lose(frames: number, snapshots = 0): void {
    this.seq = (this.seq + frames) & 0xffff
    this.index += snapshots
  }

  sendRaw(bytes: Buffer): void {
    this.end.write(bytes)
  }

  sendSnapshot(onDemand: boolean): void {
    this.send(
      FRAME_TYPE.SNAPSHOT,
      encodeSnapshot({
        index: this.index++,
        onDemand,
        enabled: this.enabled,
        counters: this.counters,
        firmware: { rxFrames: this.received.length, rxBadFrames: 0, rxOverflows: 0, unknownCommands: 0, txDropped: 0 },
      }),
    )
  }

  private onFrame(f: Frame): void {
    if (f.type !== FRAME_TYPE.COMMAND) return
    const c = decodeCommand(f.payload)
    if (!c.ok) return
    this.received.push({ name: c.name, seq: f.seq, args: c.args })
    const name = c.name
    if (!name) return this.send(FRAME_TYPE.RESPONSE, encodeResponse(c.cmd, STATUS.UNKNOWN_COMMAND, f.seq))
    if (this.opts.silent?.includes(name)) return
    const status = this.opts.reject?.[name]
    if (status !== undefined) return this.send(FRAME_TYPE.RESPONSE, encodeResponse(c.cmd, status, f.seq))
    let reply: Buffer = Buffer.alloc(0)
    switch (name) {
      case 'PING':
        reply = encodeReply('PING', { nonce: this.opts.pingEcho ?? c.args['nonce']! })
        break
      case 'INFO':
        reply = encodeReply('INFO', {
          protocolVersion: 1,
          firmwareVersion: 3,
          probeId: 0x50435343,
          regVersion: 1,
          clockHz: 250_000_000,
          counterCount: COUNTERS.length,
          streaming: this.enabled ? 1 : 0,
          periodMs: 100,
          barLatencyCycles: 250,
        })
        break
      case 'START':
        this.enabled = true
        break
      case 'STOP':
        this.enabled = false
        break
      case 'CLEAR':
        for (const k of Object.keys(this.counters) as (keyof Counters)[]) if (k !== 'timestamp') this.counters[k] = 0
        break
      case 'SNAPSHOT':
        if (!this.opts.skipOnDemand) this.sendSnapshot(true)
        break
      case 'LATENCY_HISTOGRAM':
        this.sendSnapshot(true)
        // one frame per kind, as the firmware sends them: last, then first
        this.send(
          FRAME_TYPE.HISTOGRAM,
          encodeHistogram({ reason: 'on-demand', kind: 'last', snapshotIndex: this.index - 1, bins: this.histogramBins }),
        )
        if (!this.opts.skipFirstHistogram)
          this.send(
            FRAME_TYPE.HISTOGRAM,
            encodeHistogram({
              reason: 'on-demand',
              kind: 'first',
              snapshotIndex: this.index - 1,

              bins: this.firstHistogramBins,
            }),
          )
        break
      case 'LINK_INFO':
        reply = encodeReply('LINK_INFO', {
          linkGen: 4,
          linkWidth: 16,
          tagBits: 8,
          filterEnabled: 0,
          mps: 256,
          mrrs: 512,
          rcb: 0,
          sampleDepth: 256,
          clockHz: 250_000_000,
          buildId: 0,
          samplePeriodCycles: 0,
          filterBase: 0,
          filterLimit: 0,
        })
        break
    }
    this.send(FRAME_TYPE.RESPONSE, encodeResponse(COMMANDS[name].id, STATUS.OK, f.seq, reply))
  }
}
