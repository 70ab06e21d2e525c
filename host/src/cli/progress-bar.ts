/**
 * A one-line progress bar on a terminal's stderr, redrawn in place with a carriage return.
 * Disabled (every call a no-op) when stderr is not a terminal or the output is JSON, so piped
 * output and logs carry no control characters.
 */
export interface ProgressBar {
  update(done: number, label: string): void
  /** erases the line, so the table that follows starts clean */
  clear(): void
}

const WIDTH = 24

/** `done/total` after the bar: whole counts unless the caller formats them (bytes as MB, say) */
const wholeCounts = (done: number, total: number): string => `${Math.floor(done)}/${total}`

export const createProgressBar = (
  write: (s: string) => void,
  enabled: boolean,
  total: number,
  counts: (done: number, total: number) => string = wholeCounts,
): ProgressBar => {
  if (!enabled) return { update: () => undefined, clear: () => undefined }
  let drawn = false
  return {
    update(done, label) {
      const frac = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0
      const full = Math.round(frac * WIDTH)
      write(`\r\x1b[2K[${'#'.repeat(full)}${'-'.repeat(WIDTH - full)}] ${counts(done, total)} ${label}`)
      drawn = true
    },
    clear() {
      if (drawn) write('\r\x1b[2K')
      drawn = false
    },
  }
}
