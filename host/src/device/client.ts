/**
 * ProbeClient: speaks the pcie-scope UART protocol over one Duplex byte stream (a SerialPort,
 * or any Duplex in tests). Commands run one at a time (mutex) and are matched to their RESPONSE
 * by requestSeq under per-command timeouts. SNAPSHOT frames are emitted as 'snapshot' events.
 * Decode problems are counted and emitted as 'link-error', never fatal. Lost frames are counted
 * from sequence gaps, and from the snapshots' and intervals' own numbering where a lost run
 * wraps the 16-bit sequence number (sequence-wrap.ts). The stream closing emits 'disconnect' and rejects the pending command with PS_SERIAL_DISCONNECTED; attach() then
 * takes a replacement stream (a re-opened serial port) and emits 'reconnect'. Host link
 * statistics and the last snapshot survive a reconnect.
 *
 * Events: 'snapshot' (Snapshot), 'interval' (IntervalBatch), 'histogram' (LatencyHistogram),
 * 'tap-snapshot' (TapSnapshot) and 'tap-histogram' (TapHistogram): a further probe tap's (the
 * switch design's host side), 'trace' (TraceFrame: records of a trace being read), 'disconnect' (PsError), 'reconnect' (), 'link-error' (PsError).
 * Raw frames (for recorders of the link): watchRawFrames().
 */
import { EventEmitter } from 'node:events'
import type { Duplex } from 'node:stream'
import { PsError } from '../core/errors.js'
import { FrameDecoder } from '../protocol/decoder.js'
import { buildRawFrame, frameTypeName, rawFrameOnWire, type Frame } from '../protocol/frame.js'
import { COMMANDS, FRAME_TYPE, HISTOGRAM_KINDS, STATUS, STATUS_DOC, type CommandName, type TapKey } from '../core/generated.js'
import {
  decodeHistogram,
  decodeTapHistogram,
  decodeTapSnapshot,
  decodeInfo,
  decodeInterval,
  decodeLinkInfo,
  decodeReply,
  decodeResponse,
  decodeSnapshot,
  decodeTraceFrame,
  encodeCommand,
  type CommandArgs,
  type ResponseHeader,
  type TraceFrame,
} from '../protocol/messages.js'
import { decodeTraceRecord, traceArmArgs, TRACE_STATES, type Trace, type TraceArmOptions, type TraceStatus } from '../core/trace.js'
import { createLogger } from '../util/log.js'
import { Mutex } from '../util/mutex.js'
import { SequenceWrapWatch } from './sequence-wrap.js'
import type {
  HostLinkStats,
  IntervalBatch,
  LatencyHistogram,
  LatencyHistograms,
  LinkInfo,
  ProbeInfo,
  Snapshot,
  TapHistogram,
  TapSnapshot,
} from '../core/probe.js'

const log = createLogger('ps:device:client')

const DEFAULT_TIMEOUT_MS = 2000
/** Commands that can take longer than the default (SNAPSHOT reads every counter first). */
const DEFAULT_COMMAND_TIMEOUTS: Partial<Record<CommandName, number>> = { SNAPSHOT: 3000, LATENCY_HISTOGRAM: 3000 }

export interface ProbeClientOptions {
  /** default response timeout per command in ms (default 2000) */
  timeoutMs?: number
  /** per-command overrides */
  commandTimeouts?: Partial<Record<CommandName, number>>
  /** first host sequence number (default 0) */
  firstSeq?: number
}

/** A frame as the frame layer sees it (COBS removed): type u8, seq u16, payload, CRC u16. */
export interface RawFrame {
  dir: 'tx' | 'rx'
  /** host wall-clock ms */
  at: number
  bytes: Buffer
}

export interface ProbeClientEvents {
  snapshot: [Snapshot]
  interval: [IntervalBatch]
  histogram: [LatencyHistogram]
  'tap-snapshot': [TapSnapshot]
  'tap-histogram': [TapHistogram]
  trace: [TraceFrame]
  disconnect: [PsError]
  reconnect: []
  'link-error': [PsError]
}

/** A further tap's frames that came with an ON_DEMAND snapshot: its counters and histograms. */
export interface TapReply {
  snapshot: TapSnapshot | undefined
  histograms: Partial<LatencyHistograms>
}

/** A command's response, with the ON_DEMAND snapshot and histograms that came before it. */
export interface CommandReply {
  header: ResponseHeader
  onDemand: Snapshot | undefined
  histograms: Partial<LatencyHistograms>
  /** the same of the further taps (the switch design's host side), by tap */
  taps: Partial<Record<TapKey, TapReply>>
}

/** A further tap's view read with an ON_DEMAND snapshot: every counter, every histogram kind. */
export interface TapView {
  snapshot: TapSnapshot
  histograms: LatencyHistograms
}

interface Pending {
  name: CommandName
  cmdId: number
  seq: number
  timer: NodeJS.Timeout
  onDemand: Snapshot | undefined
  histograms: Partial<LatencyHistograms>
  taps: Partial<Record<TapKey, TapReply>>
  resolve: (r: CommandReply) => void
  reject: (e: PsError) => void
}

type ClosablePort = Duplex & { isOpen?: boolean; close?: (cb?: (err?: Error | null) => void) => void; path?: string }

export class ProbeClient extends EventEmitter<ProbeClientEvents> {
  private port: ClosablePort
  private readonly decoder = new FrameDecoder()
  /** lost runs the sequence number wraps over, found from the snapshots' and intervals' own numbering */
  private readonly wrapWatch = new SequenceWrapWatch()
  private readonly mutex = new Mutex()
  private readonly timeoutMs: number
  private readonly timeouts: Partial<Record<CommandName, number>>
  private seq: number
  private pending: Pending | undefined
  private last: Snapshot | undefined
  private closed = false
  private disconnectError: PsError | undefined
  private lastInfo: ProbeInfo | undefined
  private detach: () => void

  constructor(port: Duplex, opts: ProbeClientOptions = {}) {
    super()
    this.port = port as ClosablePort
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
    // an explicit timeoutMs applies to every command; commandTimeouts override per command
    this.timeouts = { ...(opts.timeoutMs === undefined ? DEFAULT_COMMAND_TIMEOUTS : {}), ...opts.commandTimeouts }
    this.seq = (opts.firstSeq ?? 0) & 0xffff
    this.decoder.on('data', (f: Frame) => this.onFrame(f))
    this.decoder.on('frame-error', (e: PsError) => this.linkError(e))
    this.detach = this.wire(port)
  }

  /**
   * Continue on a new stream after 'disconnect' (the same device, re-opened). The decoder drops
   * any partial frame and the sequence history of the old stream.
   */
  attach(port: Duplex): void {
    if (this.closed) throw new PsError('PS_DEVICE_CLOSED', 'attach: the probe client is closed')
    if (!this.disconnectError) throw new PsError('PS_USAGE', 'attach: the current stream is still connected')
    this.detach()
    this.decoder.reset()
    this.wrapWatch.reset()
    this.port = port as ClosablePort
    this.disconnectError = undefined
    this.detach = this.wire(port)
    if (!this.disconnectError) this.emit('reconnect')
  }

  /** Listen to a stream; returns the function that stops listening. */
  private wire(port: Duplex): () => void {
    const onData = (chunk: Buffer) => this.decoder.write(chunk)
    const onClose = (err?: unknown) => this.onPortGone(err)
    const onEnd = () => this.onPortGone(new Error('stream ended'))
    const onError = (err: Error) => {
      log.debug(() => `port error: ${err.message}`)
      this.linkError(new PsError('PS_SERIAL_DISCONNECTED', `serial port error: ${err.message}`, { cause: err }))
    }
    port.on('data', onData)
    port.on('close', onClose)
    port.on('end', onEnd)
    port.on('error', onError)
    const detach = () => {
      port.off('data', onData)
      port.off('close', onClose)
      port.off('end', onEnd)
      // keep an error listener on the port: a late error must never crash the process
      port.off('error', onError)
      port.on('error', (err: Error) => log.debug(() => `port error after close: ${err.message}`))
    }
    if (port.destroyed) this.onPortGone(new Error('stream already destroyed'))
    return detach
  }

  /** PING then INFO: the first exchange with a probe. */
  async hello(): Promise<ProbeInfo> {
    await this.ping()
    return this.info()
  }

  /** PING: the nonce the device echoed (it must be the one sent) and the round trip in ms. */
  async ping(nonce: number = (Math.random() * 0x1_0000_0000) >>> 0): Promise<{ nonce: number; rttMs: number }> {
    const t0 = performance.now()
    const { header } = await this.command('PING', { nonce })
    const r = decodeReply('PING', header.reply)
    if (!r.ok) throw r.error
    const echoed = r.value['nonce']
    if (echoed !== nonce >>> 0) {
      throw new PsError('PS_CMD_BAD_REPLY', `PING echoed nonce ${String(echoed)}, sent ${nonce >>> 0}`)
    }
    return { nonce: echoed, rttMs: performance.now() - t0 }
  }

  async info(): Promise<ProbeInfo> {
    const { header } = await this.command('INFO')
    const r = decodeInfo(header.reply)
    if (!r.ok) throw r.error
    this.lastInfo = r.value
    return r.value
  }

  /** Enable the counters and stream a snapshot every periodMs (0 = the firmware default). */
  async start(periodMs = 0): Promise<void> {
    await this.command('START', { periodMs })
  }

  async stop(): Promise<void> {
    await this.command('STOP')
  }

  async clear(): Promise<void> {
    await this.command('CLEAR')
  }

  /** Interval sampler period in probe clocks (0 = off); INTERVAL frames follow as 'interval' events. */
  async setSamplePeriod(periodCycles: number): Promise<void> {
    await this.command('SET_SAMPLE_PERIOD', { periodCycles })
  }

  /** Count only memory reads with addresses in [base, limit]; (0, 0) turns the filter off. */
  async setFilter(base: number, limit: number): Promise<void> {
    await this.command('SET_FILTER', { base, limit })
  }

  /** BAR responder latency in probe clocks (0..65535). */
  async setBarLatency(cycles: number): Promise<void> {
    await this.command('SET_BAR_LATENCY', { cycles })
  }

  /** The probe's info registers: link, MPS, MRRS, RCB, tag bits, clock, build id; sampler and filter settings. */
  async linkInfo(): Promise<LinkInfo> {
    const { header } = await this.command('LINK_INFO')
    const r = decodeLinkInfo(header.reply)
    if (!r.ok) throw r.error
    return r.value
  }

  /** Ask for an ON_DEMAND snapshot; resolves with it once the SNAPSHOT response arrives. */
  async snapshot(): Promise<Snapshot> {
    const { onDemand } = await this.command('SNAPSHOT')
    if (!onDemand) throw new PsError('PS_CMD_BAD_REPLY', 'the SNAPSHOT response arrived without an ON_DEMAND snapshot before it')
    return onDemand
  }

  /**
   * An ON_DEMAND snapshot and the latency histograms read with it (LATENCY_HISTOGRAM), one of
   * every kind: all frames arrive before the response, each histogram naming the snapshot's index.
   */
  async latencyHistograms(): Promise<{ snapshot: Snapshot; histograms: LatencyHistograms; taps: Partial<Record<TapKey, TapView>> }> {
    const { onDemand, histograms, taps: tapReplies } = await this.command('LATENCY_HISTOGRAM')
    if (!onDemand) throw new PsError('PS_CMD_BAD_REPLY', 'the LATENCY_HISTOGRAM response arrived without its ON_DEMAND snapshot before it')
    const all: Partial<LatencyHistograms> = {}
    for (const { key } of HISTOGRAM_KINDS) {
      const h = histograms[key]
      if (!h)
        throw new PsError('PS_CMD_BAD_REPLY', `the LATENCY_HISTOGRAM response arrived without its ${key}-completion histogram before it`)
      if (h.snapshotIndex !== onDemand.index)
        throw new PsError(
          'PS_CMD_BAD_REPLY',
          `the ${key}-completion histogram names snapshot ${h.snapshotIndex}, but the snapshot before it is ${onDemand.index}`,
        )
      all[key] = h
    }
    // further taps: complete ones of the same snapshot only (a design with one tap sends none)
    const taps: Partial<Record<TapKey, TapView>> = {}
    for (const [tap, r] of Object.entries(tapReplies) as [TapKey, TapReply][]) {
      if (r.snapshot?.snapshotIndex !== onDemand.index) continue
      if (!HISTOGRAM_KINDS.every(({ key }) => r.histograms[key]?.snapshotIndex === onDemand.index))
        throw new PsError('PS_CMD_BAD_REPLY', `the LATENCY_HISTOGRAM response arrived without every ${tap} histogram of its snapshot`)
      taps[tap] = { snapshot: r.snapshot, histograms: r.histograms as LatencyHistograms }
    }
    return { snapshot: onDemand, histograms: all as LatencyHistograms, taps }
  }

  /**
   * TRACE_ARM: stop the tap's trace, write the pre-trigger split, trigger and filter, then arm it.
   * Resolves with the ring's depth; values the registers cannot hold are PS_CMD_REJECTED.
   */
  async traceArm(o: TraceArmOptions = {}): Promise<{ depth: number }> {
    const { header } = await this.command('TRACE_ARM', traceArmArgs(o))
    const r = decodeReply('TRACE_ARM', header.reply)
    if (!r.ok) throw r.error
    return { depth: r.value['depth']! }
  }

  /** TRACE_FORCE: trigger an armed trace now. */
  async traceForce(tap = 0): Promise<void> {
    await this.command('TRACE_FORCE', { tap })
  }

  /** TRACE_STOP: stop recording; what the ring holds stays readable. */
  async traceStop(tap = 0): Promise<void> {
    await this.command('TRACE_STOP', { tap })
  }

  async traceStatus(tap = 0): Promise<TraceStatus> {
    const { header } = await this.command('TRACE_STATUS', { tap })
    const r = decodeReply('TRACE_STATUS', header.reply)
    if (!r.ok) throw r.error
    const v = r.value
    return {
      tap,
      state: TRACE_STATES[v['state']! & 3]!,
      triggered: (v['flags']! & 1) !== 0,
      full: (v['flags']! & 2) !== 0,
      draining: v['draining'] === 1,
      depth: v['depth']!,
      count: v['count']!,
      triggerIndex: v['triggerIndex']!,
      lost: v['lost']!,
      sent: v['sent']!,
      triggerClock: v['triggerClock']!,
    }
  }

  /**
   * TRACE_READ, then every TRACE frame of the drain that follows its reply, in order, until the
   * last record. A trace still recording is PS_TRACE_NOT_READY; a frame lost on the way, or no
   * progress for `stallMs` (default 5 s), is PS_TRACE_INCOMPLETE. Snapshots keep flowing meanwhile.
   */
  async readTrace(tap = 0, opts: { stallMs?: number; onProgress?: (sent: number, total: number) => void } = {}): Promise<Trace> {
    const frames: TraceFrame[] = []
    let wake: (() => void) | undefined
    const onTrace = (f: TraceFrame) => {
      // frames before TRACE_READ's reply belong to an earlier drain
      if (f.tap !== tap || this.pending?.name === 'TRACE_READ') return
      frames.push(f)
      wake?.()
    }
    this.on('trace', onTrace)
    try {
      const { header } = await this.command('TRACE_READ', { tap })
      const r = decodeReply('TRACE_READ', header.reply)
      if (!r.ok) throw r.error
      const total = r.value['count']!
      const flags = r.value['flags']!
      const words: number[][] = []
      const stallMs = opts.stallMs ?? 5000
      let done = false
      while (!done) {
        const f = frames.shift()
        if (!f) {
          if (this.disconnectError) throw new PsError('PS_SERIAL_DISCONNECTED', `reading the trace: ${this.disconnectError.message}`)
          const arrived = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), stallMs)
            wake = () => {
              clearTimeout(timer)
              resolve(true)
            }
          })
          wake = undefined
          if (!arrived)
            throw new PsError(
              'PS_TRACE_INCOMPLETE',
              `the trace stalled at ${words.length} of ${total} records: no TRACE frame for ${stallMs} ms`,
            )
          continue
        }
        if (f.total !== total || f.firstIndex !== words.length)
          throw new PsError(
            'PS_TRACE_INCOMPLETE',
            `TRACE frame of records ${f.firstIndex}.. of ${f.total} after ${words.length} of ${total}: a frame was lost`,
          )
        words.push(...f.words)
        opts.onProgress?.(words.length, total)
        done = words.length >= total
      }
      const triggered = (flags & 1) !== 0
      const triggerIndex = r.value['triggerIndex']!
      return {
        tap,
        records: words.map((w) => decodeTraceRecord(w)),
        words,
        triggered,
        triggerIndex: triggered ? triggerIndex : undefined,
        full: (flags & 2) !== 0,
        lost: r.value['lost']!,
      }
    } finally {
      this.off('trace', onTrace)
    }
  }

  /** What the host decoder counted on the received bytes. */
  hostStats(): HostLinkStats {
    return this.decoder.stats
  }

  lastSnapshot(): Snapshot | undefined {
    return this.last
  }

  /** INFO from the last successful info()/hello(). */
  lastProbeInfo(): ProbeInfo | undefined {
    return this.lastInfo
  }

  get isClosed(): boolean {
    return this.closed
  }

  get isDisconnected(): boolean {
    return this.disconnectError !== undefined
  }

  /** Send a command and wait for its OK response (raw header + reply bytes). */
  command(name: CommandName, args: CommandArgs = {}, opts: { timeoutMs?: number } = {}): Promise<CommandReply> {
    return this.mutex.run(() => this.commandNow(name, args, opts.timeoutMs))
  }

  /** Reject pending work with PS_DEVICE_CLOSED, stop listening and close the port. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.failPending(new PsError('PS_DEVICE_CLOSED', 'the probe client was closed'))
    this.detach()
    this.decoder.end()
    await closeDuplex(this.port)
  }

  private commandNow(name: CommandName, args: CommandArgs, timeoutOverride: number | undefined): Promise<CommandReply> {
    if (this.closed) return Promise.reject(new PsError('PS_DEVICE_CLOSED', `${name}: the probe client is closed`))
    if (this.disconnectError) return Promise.reject(new PsError('PS_SERIAL_DISCONNECTED', `${name}: ${this.disconnectError.message}`))
    let payload: Buffer
    try {
      payload = encodeCommand(name, args)
    } catch (e) {
      return Promise.reject(e)
    }
    const seq = this.seq
    this.seq = (this.seq + 1) & 0xffff
    const timeoutMs = timeoutOverride ?? this.timeouts[name] ?? this.timeoutMs
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pending?.seq !== seq) return
        this.pending = undefined
        reject(new PsError('PS_CMD_TIMEOUT', `${name} (seq ${seq}) got no response within ${timeoutMs} ms`))
      }, timeoutMs)
      this.pending = { name, cmdId: COMMANDS[name].id, seq, timer, onDemand: undefined, histograms: {}, taps: {}, resolve, reject }
      log.debug(() => `-> ${name} seq ${seq} ${JSON.stringify(args)}`)
      const raw = buildRawFrame(FRAME_TYPE.COMMAND, seq, payload)
      this.emitRaw('tx', raw)
      this.port.write(rawFrameOnWire(raw), (err) => {
        if (err && this.pending?.seq === seq) {
          this.settle()?.reject(new PsError('PS_SERIAL_DISCONNECTED', `${name}: write failed: ${err.message}`, { cause: err }))
        }
      })
    })
  }

  private settle(): Pending | undefined {
    const p = this.pending
    if (p) clearTimeout(p.timer)
    this.pending = undefined
    return p
  }

  private failPending(err: PsError): void {
    this.settle()?.reject(err)
  }

  private readonly rawWatchers = new Set<(f: RawFrame) => void>()
  private readonly onDecodedRaw = (bytes: Buffer): void => this.emitRaw('rx', bytes)

  /**
   * Call `watcher` with every frame sent and every frame received that COBS-decodes (bad CRC and
   * unknown types included), until the returned function is called. The decoder copies frames
   * for this only while someone watches.
   */
  watchRawFrames(watcher: (f: RawFrame) => void): () => void {
    if (this.rawWatchers.size === 0) this.decoder.on('raw-frame', this.onDecodedRaw)
    this.rawWatchers.add(watcher)
    return () => {
      if (this.rawWatchers.delete(watcher) && this.rawWatchers.size === 0) this.decoder.off('raw-frame', this.onDecodedRaw)
    }
  }

  private emitRaw(dir: RawFrame['dir'], bytes: Buffer): void {
    if (this.rawWatchers.size === 0) return
    const f = { dir, at: Date.now(), bytes }
    for (const w of this.rawWatchers) {
      try {
        w(f)
      } catch (e) {
        log.error(() => `raw-frame watcher failed: ${e instanceof Error ? e.message : String(e)}`)
      }
    }
  }

  private onFrame(f: Frame): void {
    try {
      if (f.type === FRAME_TYPE.RESPONSE) this.onResponse(f)
      else if (f.type === FRAME_TYPE.SNAPSHOT) this.onSnapshot(f)
      else if (f.type === FRAME_TYPE.INTERVAL) this.onInterval(f)
      else if (f.type === FRAME_TYPE.HISTOGRAM) this.onHistogram(f)
      else if (f.type === FRAME_TYPE.TAP_SNAPSHOT) this.onTapSnapshot(f)
      else if (f.type === FRAME_TYPE.TAP_HISTOGRAM) this.onTapHistogram(f)
      else if (f.type === FRAME_TYPE.TRACE) this.onTrace(f)
      else
        this.linkError(
          new PsError('PS_FRAME_UNKNOWN_TYPE', `unexpected ${frameTypeName(f.type) ?? 'frame'} (0x${f.type.toString(16)}) from the device`),
        )
    } catch (e) {
      // a throwing 'snapshot' listener must not corrupt the decoder's state
      log.error(() => `listener failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
    }
  }

  private onResponse(f: Frame): void {
    const r = decodeResponse(f.payload)
    if (!r.ok) return this.linkError(r.error)
    const h = r.value
    const p = this.pending
    log.debug(() => `<- RESPONSE ${h.cmdName ?? h.cmd} status ${h.statusName ?? h.status} requestSeq ${h.requestSeq}`)
    if (!p || h.requestSeq !== p.seq) {
      return this.linkError(
        new PsError('PS_CMD_BAD_REPLY', `unmatched response to ${h.cmdName ?? `command ${h.cmd}`} (requestSeq ${h.requestSeq})`),
      )
    }
    this.settle()
    if (h.cmd !== p.cmdId) {
      return p.reject(new PsError('PS_CMD_BAD_REPLY', `${p.name} (seq ${p.seq}) was answered as command ${h.cmdName ?? h.cmd}`))
    }
    if (h.status !== STATUS.OK) {
      const doc = STATUS_DOC[h.status]
      return p.reject(
        new PsError(
          h.status === STATUS.NOT_READY && p.name === 'TRACE_READ' ? 'PS_TRACE_NOT_READY' : 'PS_CMD_REJECTED',
          `${p.name} rejected by the device: ${h.statusName ?? `status ${h.status}`}${doc ? ` (${doc})` : ''}`,
        ),
      )
    }
    p.resolve({ header: h, onDemand: p.onDemand, histograms: p.histograms, taps: p.taps })
  }

  private onSnapshot(f: Frame): void {
    const r = decodeSnapshot(f.seq, f.payload)
    if (!r.ok) {
      this.wrapWatch.reset() // it arrived, yet its index is unknown: no loss to infer across it
      return this.linkError(r.error)
    }
    const s = r.value
    this.decoder.countWrappedLoss(this.wrapWatch.snapshot(s, this.decoder.lostFrames))
    this.last = s
    if (s.onDemand && (this.pending?.name === 'SNAPSHOT' || this.pending?.name === 'LATENCY_HISTOGRAM')) this.pending.onDemand = s
    this.emit('snapshot', s)
  }

  private onHistogram(f: Frame): void {
    const r = decodeHistogram(f.seq, f.payload)
    if (!r.ok) return this.linkError(r.error)
    if (r.value.reason === 'on-demand' && this.pending?.name === 'LATENCY_HISTOGRAM') this.pending.histograms[r.value.kind] = r.value
    this.emit('histogram', r.value)
  }

  /** The pending on-demand command's record of tap `tap`'s frames, if one is waiting for them. */
  private pendingTap(tap: TapKey): TapReply | undefined {
    const p = this.pending
    if (p?.name !== 'SNAPSHOT' && p?.name !== 'LATENCY_HISTOGRAM') return undefined
    return (p.taps[tap] ??= { snapshot: undefined, histograms: {} })
  }

  private onTapSnapshot(f: Frame): void {
    const r = decodeTapSnapshot(f.seq, f.payload)
    if (!r.ok) return this.linkError(r.error)
    const s = r.value
    // its SNAPSHOT came just before: an on-demand one names the same index
    const t = this.pending?.onDemand?.index === s.snapshotIndex ? this.pendingTap(s.tap) : undefined
    if (t) t.snapshot = s
    this.emit('tap-snapshot', s)
  }

  private onTapHistogram(f: Frame): void {
    const r = decodeTapHistogram(f.seq, f.payload)
    if (!r.ok) return this.linkError(r.error)
    const t = r.value.reason === 'on-demand' && this.pending?.name === 'LATENCY_HISTOGRAM' ? this.pendingTap(r.value.tap) : undefined
    if (t) t.histograms[r.value.kind] = r.value
    this.emit('tap-histogram', r.value)
  }

  private onTrace(f: Frame): void {
    const r = decodeTraceFrame(f.seq, f.payload)
    if (!r.ok) return this.linkError(r.error)
    this.emit('trace', r.value)
  }

  private onInterval(f: Frame): void {
    const r = decodeInterval(f.seq, f.payload)
    if (!r.ok) {
      this.wrapWatch.reset()
      return this.linkError(r.error)
    }
    this.decoder.countWrappedLoss(this.wrapWatch.interval(r.value, this.decoder.lostFrames))
    this.emit('interval', r.value)
  }

  private linkError(e: PsError): void {
    log.debug(() => `link error ${e.code}: ${e.message}`)
    this.emit('link-error', e)
  }

  private onPortGone(err: unknown): void {
    if (this.closed || this.disconnectError) return
    const gone = this.port
    const why = err instanceof Error ? err.message : 'port closed'
    const path = typeof this.port.path === 'string' ? `${this.port.path} ` : ''
    const e = new PsError('PS_SERIAL_DISCONNECTED', `serial port ${path}disconnected: ${why}`, { cause: err })
    this.disconnectError = e
    this.failPending(e)
    void closeDuplex(gone) // release the fd (and the port lock) so the path can be re-opened
    this.emit('disconnect', e)
  }
}

/** Close a SerialPort (via close()) or destroy any other Duplex; resolves once closed. */
const closeDuplex = async (port: ClosablePort): Promise<void> => {
  if (typeof port.close === 'function' && typeof port.isOpen === 'boolean') {
    if (!port.isOpen) return
    await new Promise<void>((resolve) => {
      port.close!((err) => {
        if (err) log.debug(() => `close: ${err.message}`)
        resolve()
      })
    })
    return
  }
  if (port.destroyed) return
  await new Promise<void>((resolve) => {
    port.once('close', () => resolve())
    port.destroy()
  })
}
