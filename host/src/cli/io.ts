/** What a command reaches outside itself through: its output, signals, and the device and addon it opens (tests pass fakes). */
import { PsError } from '../core/errors.js'
import { openSession, type DeviceSession, type OpenSessionOptions } from '../device/session.js'
import { loadAddon, type NativeAddon } from '../native/addon.js'

export interface CliIo {
  stdout: (s: string) => void
  stderr: (s: string) => void
  /** stdout for bulk output (exports): resolves once the stream can take more; default: stdout */
  writeOut?: (s: string) => Promise<void>
  /** resolves when the user asks a long-running command (serve) to stop */
  untilSignal?: () => Promise<string>
  /** Calls `handler` on each Ctrl-C (SIGINT) until the returned function is called. */
  onInterrupt?: (handler: () => void) => () => void
  /** stderr is a terminal: progress bars are drawn (default: false) */
  stderrIsTTY?: boolean
  /** how long a command runs before its progress bar appears (default 1000 ms; tests pass 0) */
  progressDelayMs?: number
}

/** What the commands reach outside the process through; tests pass fakes. */
export interface CliDeps {
  loadAddon: () => NativeAddon
  openSession: (o: OpenSessionOptions) => Promise<DeviceSession>
}

export const defaultDeps: CliDeps = { loadAddon: () => loadAddon(), openSession }

/** Sets the exit code of the command line. */
export type SetCode = (code: number) => void

export const EXIT_OK = 0
export const EXIT_FAILURE = 1
export const EXIT_USAGE = 2
/** a run the user interrupted with Ctrl-C (128 + SIGINT, as a shell reports it) */
export const EXIT_INTERRUPTED = 130

export const defaultIo = (): CliIo => ({
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  stderrIsTTY: process.stderr.isTTY,
  writeOut: (s) =>
    new Promise((resolve, reject) => {
      if (process.stdout.write(s)) return resolve()
      const settle = (err?: Error) => {
        process.stdout.off('drain', settle)
        process.stdout.off('error', settle)
        if (err) reject(new PsError('PS_RECORDING_IO', `stdout: ${err.message}`, { cause: err }))
        else resolve()
      }
      process.stdout.on('drain', settle)
      process.stdout.on('error', settle)
    }),
  onInterrupt: (handler) => {
    process.on('SIGINT', handler)
    return () => process.off('SIGINT', handler)
  },
  untilSignal: () =>
    new Promise((resolve) => {
      const on = (sig: string) => {
        process.off('SIGINT', on)
        process.off('SIGTERM', on)
        resolve(sig)
      }
      process.once('SIGINT', on)
      process.once('SIGTERM', on)
    }),
})
