/**
 * The rule by which a device counts as hung, one for the server's supervisor and for `capture`:
 * a device quiet for `checkEveryMs` (no snapshot, no answer) is PINGed; one that says nothing, the
 * PING's answer included, for `hangTimeoutMs` since it last spoke is hung. The PING waits only what
 * is left of that time, so a hang is found `hangTimeoutMs` after the last word, not later.
 */
import { isPsError } from '../core/errors.js'
import { createLogger } from '../util/log.js'
import type { ProbeClient } from './client.js'

const log = createLogger('ps:device:hang-watch')

export interface HangWatchOptions {
  /** silent this long since it last spoke, the device is hung (default 5 s) */
  hangTimeoutMs?: number
  /** quiet time before a PING (default 1 s) */
  checkEveryMs?: number
}

export const HANG_DEFAULTS = { hangTimeoutMs: 5_000, checkEveryMs: 1_000 } as const

/** A probe client's PING as the watch asks for it: a fresh nonce, the time left as its timeout. */
export const pingOf =
  (client: Pick<ProbeClient, 'command'>): ((timeoutMs: number) => Promise<unknown>) =>
  (timeoutMs) =>
    client.command('PING', { nonce: (Math.random() * 0x1_0000_0000) >>> 0 }, { timeoutMs })

export class HangWatch {
  private lastProgress = Date.now()
  private pinging = false
  private stopped = false
  private readonly timer: NodeJS.Timeout
  private readonly opts: Required<HangWatchOptions>

  /**
   * @param ping asks the device for a sign of life, failing with PS_CMD_TIMEOUT after `timeoutMs`
   * @param onHang called once, with the verdict in words
   */
  constructor(
    private readonly ping: (timeoutMs: number) => Promise<unknown>,
    opts: HangWatchOptions,
    private readonly onHang: (message: string) => void,
  ) {
    this.opts = { ...HANG_DEFAULTS, ...opts }
    this.timer = setInterval(() => this.check(), Math.max(50, Math.floor(this.opts.checkEveryMs / 2)))
    this.timer.unref()
  }

  /** The device spoke (a snapshot, an answer): the quiet time starts again. */
  progress(): void {
    this.lastProgress = Date.now()
  }

  stop(): void {
    this.stopped = true
    clearInterval(this.timer)
  }

  private check(): void {
    const quietMs = Date.now() - this.lastProgress
    if (this.stopped || this.pinging || quietMs < this.opts.checkEveryMs) return
    this.pinging = true
    const t = this.opts.hangTimeoutMs
    this.ping(Math.max(1, t - quietMs))
      .then(() => this.progress())
      .catch((e: unknown) => {
        if (this.stopped) return
        if (isPsError(e, 'PS_CMD_TIMEOUT')) {
          this.stop()
          this.onHang(`the twin stopped answering: nothing from it, a PING's answer included, for ${t} ms`)
        } else log.debug(() => `watchdog PING: ${e instanceof Error ? e.message : String(e)}`)
      })
      .finally(() => {
        this.pinging = false
      })
  }
}
