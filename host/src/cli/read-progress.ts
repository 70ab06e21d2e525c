/**
 * Progress of a command that reads a whole recording (export, query, info): a bar of the segment
 * bytes read so far on a terminal's stderr, shown only once the command has taken longer than
 * `delayMs` (a quick export draws nothing), redrawn every `everyMs`. Disabled with --json and
 * when stderr is not a terminal, so piped output and logs carry no control characters.
 */
import { segmentBytes, type ReadStats } from '../recording/reader.js'
import { createProgressBar } from './progress-bar.js'

export interface ReadProgressOptions {
  write: (s: string) => void
  enabled: boolean
  delayMs?: number
  everyMs?: number
}

/** Start watching `stats` fill in; the returned function stops and erases the bar. */
export const watchReadProgress = async (dir: string, stats: ReadStats, what: string, o: ReadProgressOptions): Promise<() => void> => {
  if (!o.enabled) return () => undefined
  const total = Math.max(1, await segmentBytes(dir))
  const mb = (b: number) => (b / 1e6).toFixed(1)
  const bar = createProgressBar(o.write, true, total, (done, all) => `${mb(done)}/${mb(all)} MB`)
  const draw = () => bar.update(stats.bytes, what)
  let every: NodeJS.Timeout | undefined
  // drawn once the delay is over, then redrawn every everyMs
  const delay = setTimeout(() => {
    draw()
    every = setInterval(draw, o.everyMs ?? 100)
    every.unref()
  }, o.delayMs ?? 1000)
  delay.unref()
  return () => {
    clearTimeout(delay)
    clearInterval(every)
    bar.clear()
  }
}
