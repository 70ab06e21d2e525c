/**
 * TwinProcess: launches the twin executable (real RTL under Verilator + real firmware + the GPU
 * traffic model) and speaks its stdin/stdout JSON-lines protocol (docs/contracts.md §3).
 *
 *   stdout: {"event":"ready","pty":"/dev/pts/N","clockHz":…} first, then "done" / "error" lines
 *   stdin:  `run ID PATTERN BYTES OFFSET [ELEMENT_BYTES [L1 [CHUNK_BYTES]]]`, `run ID KERNEL GRAPH ID_BYTES SOURCE|- L1`
 *           (a BFS kernel), `cancel ID`, `inject KIND [COUNT [SEED]]`, `quit` (EOF = quit)
 *
 * Runs are sent one at a time and matched on their id. A run whose signal aborts (or whose
 * timeoutMs passes) is cancelled in the twin: `cancel ID`, then its done line (cancelled, the
 * reads issued so far all completed) settles it with the abort's reason, so the next run starts
 * on an idle twin. A twin that does not answer the cancel within cancelGraceMs is still busy:
 * the run settles anyway and 'cancel-unanswered' says so (the supervisor ends that twin).
 * The child exiting rejects pending runs with PS_TWIN_EXITED and emits 'exit'; whoever owns the
 * twin closes the serial port then (workaround 1 for serialport/bindings-cpp#162, done by openSession).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { accessSync, constants } from 'node:fs'
import { join, relative } from 'node:path'
import { createInterface } from 'node:readline'
import { PsError } from '../core/errors.js'
import { createLogger } from '../util/log.js'
import { parseTwinLine, type LineFault, type TwinDone, type TwinGraphDone, type TwinInjected, type TwinTopology } from './twin-lines.js'
import { Mutex } from '../util/mutex.js'
import { packageRoot } from '../util/package-root.js'
import {
  GRAPH_ID_BYTES_DEFAULT,
  L1_LOAD_DEFAULT,
  TWIN_HOST_FLAGS,
  TWIN_OPTION_VALUES,
  type GraphKernelName,
  type TwinHostOption,
} from '../core/generated.js'
import { elementBytesOf, l1Of, type ElementBytes, type GraphIdBytes, type L1LoadName, type PatternName } from '../core/workload.js'
import type { PcieLinkInfo } from '../core/link.js'
import type { TwinMode } from '../core/twin-mode.js'

const log = createLogger('ps:transport:twin')
const logStderr = createLogger('ps:transport:twin:stderr')

const TWIN_RELATIVE_PATH = join('build', 'twin', 'pcie-scope-twin')
/** How the twin starts the lines it writes itself on stderr (native/twin/main.cpp). */
const TWIN_MESSAGE_PREFIX = 'pcie-scope-twin: '

export const TWIN_BUILD_COMMAND = 'npm run build:twin'

export type { TwinDone } from './twin-lines.js'

/** What the ready line tells: the serial device, the probe clock and the modelled link. */
interface TwinReady {
  pty: string
  clockHz: number
  /** the modelled PCIe link (absent from twins that predate the link model) */
  link?: PcieLinkInfo
  /** the GPU model's outstanding-request budget */
  tags?: number
  /** the design: switch or BAR endpoint */
  mode?: TwinMode
  /** switch mode: the tree the host model enumerated */
  topology?: TwinTopology
}

/** TLP segments per beat of the twin's design, BAR top or switch top (--segments; the build's variants) */
export const TWIN_SEGMENTS = TWIN_OPTION_VALUES.segments
export type TwinSegments = (typeof TWIN_SEGMENTS)[number]
/** CPL_SPLIT written at start (--cpl-split): 0, or the boundary completions are split at */
export type TwinCplSplit = (typeof TWIN_OPTION_VALUES.cplSplit)[number]

export interface TwinOptions {
  /** path of the executable (default: PCIE_SCOPE_TWIN, else <package root>/build/twin/pcie-scope-twin) */
  binaryPath?: string
  /** BAR_LATENCY written at start (twin default 250) */
  latencyCycles?: number
  /** BAR_LATENCY in nanoseconds at the probe clock, instead of latencyCycles */
  latencyNs?: number
  /** completion latency per read: "fixed" or "uniform:LO:HI" (ns; sets BAR_LATENCY and BAR_JITTER, instead of latencyNs/latencyCycles) */
  latencyDist?: string
  /** CPL_SPLIT written at start: 64 or 128 splits each read's CplDs at that boundary; 0 (default) does not */
  cplSplit?: TwinCplSplit
  /** GPU outstanding-request budget (twin default 256) */
  tags?: number
  /** PCIe link between GPU and FPGA: "gen3x16" (twin default), "gen4x8", …, or "ideal" */
  link?: string
  /** the design: "switch" (twin default: the switch top and a host model) or "endpoint" (the BAR top) */
  mode?: TwinMode
  /** either mode: TLP segments per 512-bit beat, up to that many TLPs per clock (twin default 1) */
  segments?: TwinSegments
  extraArgs?: string[]
  /** time allowed for the ready line (default 20 s) */
  readyTimeoutMs?: number
  /** time between quit and SIGKILL in close() (default 3 s) */
  closeGraceMs?: number
  /** time a cancelled run has to stop (its done line) before the twin counts as stuck (default 2 s) */
  cancelGraceMs?: number
}

/** A BFS kernel on a graph (the twin's `run ID KERNEL GRAPH ID_BYTES SOURCE|- L1` line). */
export interface TwinGraphRunRequest {
  kernel: GraphKernelName
  /** kron:S[:SEED], urand:S[:SEED] or file:PATH (no spaces: it is one stdin word) */
  graph: string
  idBytes?: GraphIdBytes
  source?: number
  l1?: L1LoadName
}

export interface TwinRunRequest {
  pattern: PatternName
  bytes: number
  offset: number
  /** lane load width; sent (with l1) only when either is given, so older twins keep working */
  elementBytes?: ElementBytes
  l1?: L1LoadName
  /** merged-chunked's chunk; sent (with the two before it) only when given */
  chunkBytes?: number
}

interface TwinEvents {
  exit: [code: number | null, signal: NodeJS.Signals | null]
  /** a cancelled run did not stop within cancelGraceMs: the twin is still busy with it */
  'cancel-unanswered': [message: string]
}

/** Path of the twin executable, or PS_TWIN_NOT_BUILT naming the build command. */
export const locateTwin = (binaryPath?: string): string => {
  const root = packageRoot()
  const p = binaryPath ?? (process.env['PCIE_SCOPE_TWIN'] || join(root, TWIN_RELATIVE_PATH))
  try {
    accessSync(p, constants.X_OK)
  } catch {
    const shown = relative(root, p).startsWith('..') ? p : relative(root, p)
    throw new PsError(
      'PS_TWIN_NOT_BUILT',
      `the twin is not built: ${shown} is missing or not executable; build it with \`${TWIN_BUILD_COMMAND}\``,
    )
  }
  return p
}

/** The twin's command line for these options: each given one as its flag and value (spec/twin.json). */
export const twinArgs = (opts: TwinOptions): string[] =>
  (Object.keys(TWIN_HOST_FLAGS) as TwinHostOption[]).flatMap((name) => {
    const v = opts[name]
    return v === undefined ? [] : [TWIN_HOST_FLAGS[name], String(v)]
  })

interface PendingRun {
  id: number
  resolve: (d: TwinDone | TwinGraphDone) => void
  reject: (e: Error) => void
  cleanup: () => void
  /** stops watching the signal and the timeout, and starts the cancel's own deadline */
  startCancel: (why: Error) => void
  /** why the run is being cancelled; set once `cancel ID` went out */
  cancelling?: Error
}

interface PendingInject {
  resolve: (l: TwinInjected) => void
  reject: (e: Error) => void
}

const STDERR_TAIL = 20

export class TwinProcess extends EventEmitter<TwinEvents> {
  readonly pty: string
  readonly link: PcieLinkInfo | undefined
  readonly tags: number | undefined
  /** the design the twin runs, from its ready line (absent from twins that predate switch mode) */
  readonly mode: TwinMode | undefined
  readonly topology: TwinTopology | undefined
  private readonly child: ChildProcessWithoutNullStreams
  private readonly closeGraceMs: number
  private readonly cancelGraceMs: number
  private readonly pending = new Map<number, PendingRun>()
  /** `inject` lines sent and not yet answered, in order (the twin answers each at once) */
  private readonly injects: PendingInject[] = []
  private readonly stderrTail: string[]
  private nextId = 1
  /** stdout lines that broke the protocol (each fails the run in flight) */
  invalidLines = 0
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  private readonly runLock = new Mutex()

  private constructor(
    child: ChildProcessWithoutNullStreams,
    ready: TwinReady,
    lines: AsyncIterator<string>,
    stderrTail: string[],
    exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
    closeGraceMs: number,
    cancelGraceMs: number,
  ) {
    super()
    this.cancelGraceMs = cancelGraceMs
    this.child = child
    this.pty = ready.pty
    this.link = ready.link
    this.tags = ready.tags
    this.mode = ready.mode
    this.topology = ready.topology
    this.stderrTail = stderrTail
    this.exited = exited
    this.closeGraceMs = closeGraceMs
    // 'close' (not 'exit'): stdout is drained first, so a done line printed just before exiting still counts
    void this.pump(lines)
      .then(() => exited)
      .then(({ code, signal }) => this.onExit(code, signal))
  }

  /** Spawn the twin and wait for its ready line. */
  static async launch(opts: TwinOptions = {}): Promise<TwinProcess> {
    const bin = locateTwin(opts.binaryPath)
    const args: string[] = []
    args.push(...twinArgs(opts))
    args.push(...(opts.extraArgs ?? []))
    log.debug(() => `spawn ${bin} ${args.join(' ')}`)
    // A process group of its own: a terminal's Ctrl-C reaches the host, which cancels the run and
    // closes the twin, instead of killing the twin under it. The twin ends when its stdin closes,
    // so it does not outlive a host that dies.
    const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true })
    const stderrTail: string[] = []
    let ownMessage: string | undefined // the twin's first line of its own (a usage text follows it)
    createInterface({ input: child.stderr }).on('line', (l) => {
      if (ownMessage === undefined && l.startsWith(TWIN_MESSAGE_PREFIX)) ownMessage = l.slice(TWIN_MESSAGE_PREFIX.length)
      stderrTail.push(l)
      if (stderrTail.length > STDERR_TAIL) stderrTail.shift()
      logStderr.debug(l)
    })
    child.stdin.on('error', (e) => log.debug(() => `stdin: ${e.message}`))
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
      child.once('close', (code, signal) => res({ code, signal })),
    )
    const rl = createInterface({ input: child.stdout })
    const lines = rl[Symbol.asyncIterator]()
    const timeoutMs = opts.readyTimeoutMs ?? 20_000
    let timer: NodeJS.Timeout | undefined
    const tail = () => (stderrTail.length ? `; twin stderr: ${stderrTail.slice(-5).join(' | ')}` : '')
    // exit status 2 is the twin refusing its options: its own message, not the usage after it
    const refused = (code: number | null) => {
      const own = code === 2 ? ownMessage : undefined
      return own === undefined ? undefined : new PsError('PS_USAGE', `the twin refused its options: ${own}`)
    }
    try {
      const ready = await Promise.race([
        readReady(lines).catch(async (e: unknown) => {
          // stdout closed early: report how the twin ended, with its last stderr lines
          const ended = await Promise.race([exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), 1000))])
          if (ended) {
            const usage = refused(ended.code)
            if (usage) throw usage
            throw new PsError(
              'PS_TWIN_START',
              `the twin exited before it was ready (code ${ended.code}, signal ${ended.signal})${tail()}`,
              { cause: e },
            )
          }
          throw e
        }),
        new Promise<never>((_, reject) => {
          child.once('error', (e) => reject(new PsError('PS_TWIN_START', `cannot start the twin ${bin}: ${e.message}`, { cause: e })))
          void exited.then(({ code, signal }) =>
            reject(
              refused(code) ??
                new PsError('PS_TWIN_START', `the twin exited before it was ready (code ${code}, signal ${signal})${tail()}`),
            ),
          )
          timer = setTimeout(
            () => reject(new PsError('PS_TWIN_START', `the twin printed no ready line within ${timeoutMs} ms${tail()}`)),
            timeoutMs,
          )
        }),
      ])
      log.debug(() => `ready: ${JSON.stringify(ready)}`)
      return new TwinProcess(child, ready, lines, stderrTail, exited, opts.closeGraceMs ?? 3000, opts.cancelGraceMs ?? 2000)
    } catch (e) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      throw e
    } finally {
      clearTimeout(timer)
    }
  }

  get isRunning(): boolean {
    return this.exitInfo === undefined
  }

  /** the process id (signals in tests and diagnostics) */
  get pid(): number | undefined {
    return this.child.pid
  }

  /** How the twin ended (exit code or signal), once it has; undefined while it runs. */
  get exitStatus(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.exitInfo
  }

  /** The last lines the twin wrote on stderr (at most STDERR_TAIL kept): what a crash said. */
  stderrLines(n = STDERR_TAIL): string[] {
    return this.stderrTail.slice(-n)
  }

  /** Resolves once the process has exited (whoever ended it). */
  whenExited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return this.exited
  }

  /** Run one workload in the traffic model; resolves with its done line. Runs are serialised. */
  run(req: TwinRunRequest, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<TwinDone> {
    const chunk = req.chunkBytes !== undefined ? ` ${req.chunkBytes}` : ''
    const extra = req.elementBytes !== undefined || req.l1 !== undefined || chunk ? ` ${elementBytesOf(req)} ${l1Of(req)}${chunk}` : ''
    return this.runLock.run(() =>
      this.runNow((id) => `run ${id} ${req.pattern} ${req.bytes} ${req.offset}${extra}`, opts).then((d) => {
        if ('graph' in d) throw new PsError('PS_TWIN_PROTOCOL', `the twin answered run ${d.id} with a graph kernel's done line`)
        return d
      }),
    )
  }

  /** Run one BFS kernel on a graph through the twin; resolves with its done line. Runs are serialised. */
  runGraph(req: TwinGraphRunRequest, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<TwinGraphDone> {
    if (/\s/.test(req.graph))
      return Promise.reject(new PsError('PS_WORKLOAD_INVALID', `a graph spec has no spaces: ${JSON.stringify(req.graph)}`))
    const tail = `${req.idBytes ?? GRAPH_ID_BYTES_DEFAULT} ${req.source ?? '-'} ${req.l1 ?? L1_LOAD_DEFAULT}`
    return this.runLock.run(() =>
      this.runNow((id) => `run ${id} ${req.kernel} ${req.graph} ${tail}`, opts).then((d) => {
        if (!('graph' in d)) throw new PsError('PS_TWIN_PROTOCOL', `the twin answered graph run ${d.id} with a micro pattern's done line`)
        return d
      }),
    )
  }

  private runNow(command: (id: number) => string, opts: { signal?: AbortSignal; timeoutMs?: number }): Promise<TwinDone | TwinGraphDone> {
    if (this.exitInfo) return Promise.reject(this.exitedError())
    if (opts.signal?.aborted) return Promise.reject(abortError(opts.signal))
    const id = this.nextId++
    return new Promise<TwinDone | TwinGraphDone>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined
      let cancelTimer: NodeJS.Timeout | undefined
      const onAbort = () => this.cancel(id, abortError(opts.signal!))
      const stopWatching = () => {
        clearTimeout(timer)
        opts.signal?.removeEventListener('abort', onAbort)
      }
      const cleanup = () => {
        this.pending.delete(id)
        stopWatching()
        clearTimeout(cancelTimer)
      }
      const startCancel = (why: Error) => {
        stopWatching()
        cancelTimer = setTimeout(() => {
          // still busy: settle the run anyway, and let the twin's owner decide (restart it)
          cleanup()
          reject(why)
          this.emit('cancel-unanswered', `run ${id} did not stop within ${this.cancelGraceMs} ms of its cancel`)
        }, this.cancelGraceMs)
      }
      this.pending.set(id, { id, resolve, reject, cleanup, startCancel })
      opts.signal?.addEventListener('abort', onAbort, { once: true })
      if (opts.timeoutMs !== undefined) {
        timer = setTimeout(
          () => this.cancel(id, new PsError('PS_WORKLOAD_TIMEOUT', `the twin did not finish run ${id} within ${opts.timeoutMs} ms`)),
          opts.timeoutMs,
        )
      }
      this.send(command(id))
    })
  }

  /** `cancel ID`: the twin issues no more reads, drains those outstanding and answers the done line. */
  private cancel(id: number, why: Error): void {
    const p = this.pending.get(id)
    if (!p || p.cancelling) return
    p.cancelling = why
    p.startCancel(why)
    this.send(`cancel ${id}`)
  }

  /**
   * Arms a fault on the twin's serial line, put between the firmware's next frames: `garbage`
   * (count random non-zero bytes and a delimiter), `truncate` (the next count frames cut in
   * half), `crc` (the next count frames' CRC inverted), `skip-seq` (later frames' sequence
   * numbers advanced by count). Resolves once the twin armed it.
   */
  inject(kind: LineFault, count = 1, seed = 0): Promise<TwinInjected> {
    if (this.exitInfo) return Promise.reject(this.exitedError())
    return new Promise<TwinInjected>((resolve, reject) => {
      this.injects.push({ resolve, reject })
      this.send(`inject ${kind} ${count} ${seed}`)
    })
  }

  private send(line: string): void {
    log.debug(() => `stdin: ${line}`)
    this.child.stdin.write(`${line}\n`)
  }

  /** Ask the twin to quit (quit + EOF), SIGKILL after the grace period; resolves once it exited. */
  async close(): Promise<void> {
    if (this.exitInfo) return
    try {
      if (this.child.stdin.writable) this.child.stdin.end('quit\n')
    } catch {
      /* the pipe may already be gone */
    }
    let timer: NodeJS.Timeout | undefined
    const killed = new Promise<void>((res) => {
      timer = setTimeout(() => {
        log.debug(() => `no exit within ${this.closeGraceMs} ms: SIGKILL`)
        this.child.kill('SIGKILL')
        res()
      }, this.closeGraceMs)
    })
    await Promise.race([this.exited, killed])
    clearTimeout(timer)
    const { code, signal } = await this.exited
    this.onExit(code, signal)
  }

  /** SIGKILL now (tests, emergencies). */
  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (!this.exitInfo) this.child.kill(signal)
  }

  private async pump(lines: AsyncIterator<string>): Promise<void> {
    try {
      for (;;) {
        const r = await lines.next()
        if (r.done) break
        this.onLine(r.value)
      }
    } catch (e) {
      log.debug(() => `stdout: ${String(e)}`)
    }
  }

  private onLine(raw: string): void {
    const parsed = parseTwinLine(raw)
    if (parsed.kind !== 'blank') log.debug(() => `stdout: ${raw.trim()}`)
    // runs are serialised: a line without a usable id belongs to the one in flight
    const inFlight = (): PendingRun | undefined => this.pending.values().next().value
    switch (parsed.kind) {
      case 'blank':
      case 'ready':
        return
      case 'done':
      case 'graph-done': {
        const p = this.pending.get(parsed.line.id)
        if (!p) return log.debug(() => `done line for unknown run ${parsed.line.id}`)
        p.cleanup()
        if (p.cancelling) {
          log.debug(() => `run ${p.id} stopped: ${parsed.line.mrd.count} reads, ${parsed.line.completions} completions`)
          p.reject(p.cancelling)
        } else p.resolve(parsed.line)
        return
      }
      case 'injected':
        this.injects.shift()?.resolve(parsed.line)
        return
      case 'error': {
        const { id, message, command } = parsed.line
        if (command === 'inject') {
          this.injects.shift()?.reject(new PsError('PS_USAGE', `the twin refused the fault: ${message}`))
          return
        }
        // a cancel's error names its run: cancelled before it started, or already finished
        if (command === 'cancel' && (id === undefined || !this.pending.get(id)?.cancelling)) return log.debug(() => `twin: ${message}`)
        const p = id !== undefined ? this.pending.get(id) : inFlight()
        if (p) {
          p.cleanup()
          p.reject(p.cancelling ?? new PsError('PS_WORKLOAD_INVALID', `the twin rejected the workload: ${message}`))
        } else log.debug(() => `twin error outside a run: ${message}`)
        return
      }
      case 'invalid': {
        this.invalidLines++
        const p = inFlight()
        const e = new PsError(
          'PS_TWIN_PROTOCOL',
          `the twin printed a line that breaks its protocol (${parsed.reason}): ${parsed.text.slice(0, 200)}`,
        )
        if (p) {
          p.cleanup()
          p.reject(e)
        } else log.debug(() => e.message)
      }
    }
  }

  private exitedError(): PsError {
    const e = this.exitInfo
    const tail = this.stderrTail.length ? `; twin stderr: ${this.stderrTail.slice(-5).join(' | ')}` : ''
    return new PsError('PS_TWIN_EXITED', `the twin exited (code ${e?.code ?? null}, signal ${e?.signal ?? null})${tail}`)
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exitInfo) return
    this.exitInfo = { code, signal }
    log.debug(() => `exit code ${code} signal ${signal}`)
    const err = this.exitedError()
    for (const p of [...this.pending.values()]) {
      p.cleanup()
      p.reject(err)
    }
    for (const i of this.injects.splice(0)) i.reject(err)
    this.emit('exit', code, signal)
  }
}

const readReady = async (lines: AsyncIterator<string>): Promise<TwinReady> => {
  for (;;) {
    const r = await lines.next()
    if (r.done) throw new PsError('PS_TWIN_START', 'the twin closed stdout before its ready line')
    const parsed = parseTwinLine(r.value)
    switch (parsed.kind) {
      case 'ready': {
        const { pty, clockHz, link, tags, mode, topology } = parsed.line
        return {
          pty,
          clockHz,
          ...(link ? { link: { name: link.name, tlpBytesPerSecond: link.tlpBytesPerSecond } } : {}),
          ...(tags !== undefined ? { tags } : {}),
          ...(mode !== undefined ? { mode } : {}),
          ...(topology !== undefined ? { topology } : {}),
        }
      }
      case 'error':
        throw new PsError('PS_TWIN_START', `the twin failed to start: ${parsed.line.message}`)
      case 'invalid':
        // a ready line that breaks the schema is fatal; other noise before it is only logged
        if (parsed.reason.startsWith('malformed ready'))
          throw new PsError('PS_TWIN_START', `${parsed.reason}: ${parsed.text.slice(0, 200)}`)
        log.debug(() => `ignoring line before ready (${parsed.reason}): ${parsed.text}`)
        break
      default:
        break
    }
  }
}

const abortError = (signal: AbortSignal): Error => {
  const r: unknown = signal.reason
  return r instanceof Error ? r : Object.assign(new Error('aborted'), { name: 'AbortError' })
}
