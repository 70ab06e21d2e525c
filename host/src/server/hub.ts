/**
 * WebSocket fan-out (docs/host-notes.md): snapshots (and the further taps' snapshots with them)
 * are batched to at most one message per BATCH_MS per client; a client whose send buffer holds more than maxBufferedBytes skips that
 * batch (counted), since a live view wants fresh data; a client that holds more than
 * dropBufferedBytes, or stays behind for stuckMs (it stopped reading), is terminated and counted,
 * so it cannot grow the server's memory; a ping every HEARTBEAT_MS terminates clients that did not
 * answer the previous one. Control messages (hello, status, run) are small and always sent.
 */
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, WebSocket } from 'ws'
import type { HostLinkStats, Snapshot, TapSnapshot } from '../core/probe.js'
import { WS_BATCH_MS, type ServerMessage } from '../core/wire.js'

const BATCH_MS = WS_BATCH_MS
const HEARTBEAT_MS = 15_000
const MAX_BUFFERED_BYTES = 1024 * 1024
/** a client this far behind is not slow but gone: dropped */
const DROP_BUFFERED_BYTES = 4 * 1024 * 1024
/** a client behind (over maxBufferedBytes) this long without catching up stopped reading: dropped */
const STUCK_MS = 10_000
const WS_MAX_PAYLOAD = 64 * 1024
/** a batch never holds more than this many snapshots, nor tap snapshots (older ones are dropped from it) */
const MAX_BATCH = 200

/** The part of a ws WebSocket the hub uses (tests pass fakes). */
export interface HubSocket {
  readonly readyState: number
  readonly bufferedAmount: number
  send(data: string): void
  ping(): void
  terminate(): void
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any[] is what lets EventEmitter/ws overloads match structurally
  on(event: 'pong' | 'close' | 'error' | 'message', listener: (...args: any[]) => void): unknown
}

interface ClientState {
  alive: boolean
  drops: number
  /** since when its buffer has been over maxBufferedBytes, or undefined */
  behindSince: number | undefined
}

export interface HubOptions {
  /** messages a new client receives first, in order */
  greeting(): ServerMessage[]
  hostStats(): HostLinkStats | null
  batchMs?: number
  maxBufferedBytes?: number
  dropBufferedBytes?: number
  stuckMs?: number
  heartbeatMs?: number
}

export class WsHub {
  readonly wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD, perMessageDeflate: false })
  private readonly clients = new Map<HubSocket, ClientState>()
  private pending: Snapshot[] = []
  private pendingTaps: TapSnapshot[] = []
  private flushTimer: NodeJS.Timeout | undefined
  private lastFlush = 0
  private readonly heartbeat: NodeJS.Timeout
  private readonly batchMs: number
  private readonly maxBuffered: number
  private readonly dropBuffered: number
  private readonly stuckMs: number
  /** batches skipped for slow clients, over the server's life */
  drops = 0
  /** clients terminated because they stopped reading, over the server's life */
  clientsDropped = 0

  constructor(private readonly opts: HubOptions) {
    this.batchMs = opts.batchMs ?? BATCH_MS
    this.maxBuffered = opts.maxBufferedBytes ?? MAX_BUFFERED_BYTES
    this.dropBuffered = opts.dropBufferedBytes ?? DROP_BUFFERED_BYTES
    this.stuckMs = opts.stuckMs ?? STUCK_MS
    this.heartbeat = setInterval(() => this.beat(), opts.heartbeatMs ?? HEARTBEAT_MS)
    this.heartbeat.unref()
  }

  get size(): number {
    return this.clients.size
  }

  /** Completes an upgrade the caller has already authenticated. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.attach(ws))
  }

  attach(ws: HubSocket): void {
    const state: ClientState = { alive: true, drops: 0, behindSince: undefined }
    this.clients.set(ws, state)
    ws.on('pong', () => (state.alive = true))
    ws.on('close', () => this.clients.delete(ws))
    ws.on('error', () => this.clients.delete(ws))
    // The protocol is server → browser only; inbound messages are ignored (maxPayload bounds them).
    ws.on('message', () => {})
    for (const m of this.opts.greeting()) this.sendTo(ws, m)
  }

  /** Control message to every client. */
  broadcast(msg: ServerMessage): void {
    if (this.clients.size === 0) return
    const text = JSON.stringify(msg)
    for (const ws of this.clients.keys()) if (ws.readyState === WebSocket.OPEN && !this.dropIfStuck(ws)) ws.send(text)
  }

  /**
   * A client far behind, or behind for too long, stopped reading: terminate it (counted) rather
   * than buffer for it.
   */
  private dropIfStuck(ws: HubSocket): boolean {
    const state = this.clients.get(ws)
    if (!state) return false
    const now = Date.now()
    if (ws.bufferedAmount <= this.maxBuffered) state.behindSince = undefined
    else state.behindSince ??= now
    const stuck = state.behindSince !== undefined && now - state.behindSince >= this.stuckMs
    if (ws.bufferedAmount <= this.dropBuffered && !stuck) return false
    ws.terminate()
    this.clients.delete(ws)
    this.clientsDropped++
    return true
  }

  queueSnapshot(s: Snapshot): void {
    if (this.clients.size === 0) return
    this.pending.push(s)
    if (this.pending.length > MAX_BATCH) this.pending.splice(0, this.pending.length - MAX_BATCH)
    this.schedule()
  }

  /** A further tap's snapshot: it rides in the same batch as the snapshots, after them. */
  queueTapSnapshot(s: TapSnapshot): void {
    if (this.clients.size === 0) return
    this.pendingTaps.push(s)
    if (this.pendingTaps.length > MAX_BATCH) this.pendingTaps.splice(0, this.pendingTaps.length - MAX_BATCH)
    this.schedule()
  }

  private schedule(): void {
    if (this.flushTimer) return
    const wait = Math.max(0, this.lastFlush + this.batchMs - Date.now())
    this.flushTimer = setTimeout(() => this.flush(), wait)
  }

  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer)
    this.flushTimer = undefined
    this.lastFlush = Date.now()
    if (this.pending.length === 0 && this.pendingTaps.length === 0) return
    const msg: ServerMessage = {
      type: 'snapshot',
      snapshots: this.pending,
      // only where a further tap streams (the switch design): the BAR design's messages stay as they were
      ...(this.pendingTaps.length > 0 ? { tapSnapshots: this.pendingTaps } : {}),
      hostStats: this.opts.hostStats(),
      wsDrops: this.drops,
    }
    this.pending = []
    this.pendingTaps = []
    const text = JSON.stringify(msg)
    for (const [ws, state] of this.clients) {
      if (ws.readyState !== WebSocket.OPEN || this.dropIfStuck(ws)) continue
      if (ws.bufferedAmount > this.maxBuffered) {
        state.drops++
        this.drops++
        continue
      }
      ws.send(text)
    }
  }

  private sendTo(ws: HubSocket, msg: ServerMessage): void {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg))
  }

  private beat(): void {
    for (const [ws, state] of this.clients) {
      if (!state.alive) {
        ws.terminate()
        this.clients.delete(ws)
        continue
      }
      state.alive = false
      ws.ping()
    }
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat)
    if (this.flushTimer) clearTimeout(this.flushTimer)
    for (const ws of this.clients.keys()) ws.terminate()
    this.clients.clear()
    await new Promise<void>((resolve) => this.wss.close(() => resolve()))
  }
}
