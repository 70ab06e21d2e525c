/**
 * Tiny namespaced logger with lazy messages, in the style of zigbee-herdsman's logger:
 * `log.debug(() => hex(buf))` formats nothing unless the namespace is enabled.
 *
 * Enable with PCIE_SCOPE_DEBUG=ns,ns2 (prefix match: `ps:protocol` enables `ps:protocol:decoder`),
 * `*` for everything, or a trailing `*` (`ps:device:*`). Output goes to stderr only, so `--json`
 * on stdout stays clean.
 */
export type LazyMessage = string | (() => string)

export interface Logger {
  readonly ns: string
  readonly enabled: boolean
  debug(msg: LazyMessage): void
  info(msg: LazyMessage): void
  warn(msg: LazyMessage): void
  error(msg: LazyMessage): void
}

let patterns: string[] | undefined
let sink: (line: string) => void = (line) => {
  process.stderr.write(line + '\n')
}

const readPatterns = (): string[] =>
  (process.env['PCIE_SCOPE_DEBUG'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)

/** True when `ns` is enabled by PCIE_SCOPE_DEBUG (read once, cached; see resetLogConfig). */
export const isEnabled = (ns: string): boolean => {
  patterns ??= readPatterns()
  return patterns.some((p) => {
    if (p === '*') return true
    const base = p.endsWith('*') ? p.slice(0, -1).replace(/:$/, '') : p
    return ns === base || ns.startsWith(base + ':')
  })
}

/** Re-read PCIE_SCOPE_DEBUG and optionally redirect output (tests). */
export const resetLogConfig = (opts?: { sink?: (line: string) => void }): void => {
  patterns = undefined
  if (opts?.sink) sink = opts.sink
}

const render = (m: LazyMessage): string => (typeof m === 'function' ? m() : m)

export const createLogger = (ns: string): Logger => {
  const emit = (level: string, m: LazyMessage, always: boolean) => {
    if (!always && !isEnabled(ns)) return
    let text: string
    try {
      text = render(m)
    } catch (e) {
      text = `<log message threw: ${String(e)}>`
    }
    sink(`${new Date().toISOString()} ${level} ${ns} ${text}`)
  }
  return {
    ns,
    get enabled() {
      return isEnabled(ns)
    },
    debug: (m) => emit('debug', m, false),
    info: (m) => emit('info', m, false),
    warn: (m) => emit('warn', m, false),
    // errors are bugs the user must see (e.g. a throwing event listener that was contained)
    error: (m) => emit('error', m, true),
  }
}

/** Hex dump helper for lazy debug messages. */
export const hex = (b: Uint8Array, max = 64): string => {
  const s = Buffer.from(b.buffer, b.byteOffset, Math.min(b.length, max)).toString('hex').replace(/(..)/g, '$1 ').trim()
  return b.length > max ? `${s} … (${b.length} B)` : s
}
