// Whether a build's outputs are newer than its inputs, by modification time: the builds of
// `npm start` and `npm test` skip a step whose outputs are fresh. A folder counts with its own
// time too, so a file removed or renamed in it makes the outputs stale. Plain Node.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** The newest modification time (ms) under `paths` (files and folders, walked whole); 0 if none. */
export function newest(paths) {
  let t = 0
  const walk = (p) => {
    let s
    try {
      s = statSync(p)
    } catch {
      return
    }
    t = Math.max(t, s.mtimeMs)
    if (s.isDirectory()) for (const e of readdirSync(p)) walk(join(p, e))
  }
  for (const p of paths) walk(p)
  return t
}

/** The oldest modification time (ms) of `files`; 0 when one is missing. */
export function oldest(files) {
  let t = Infinity
  for (const f of files) {
    try {
      t = Math.min(t, statSync(f).mtimeMs)
    } catch {
      return 0
    }
  }
  return files.length ? t : 0
}

/** Every output exists and is newer than every input. */
export const isFresh = (outputs, inputs) => oldest(outputs) > newest(inputs)
