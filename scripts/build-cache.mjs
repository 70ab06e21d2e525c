// A cache of built files by the content of what they are built from, in the user's cache folder
// (XDG_CACHE_HOME or ~/.cache, then pcie-scope/): a fresh clone of the same sources on the same
// machine takes the file an earlier clone built instead of building it again. ccache does this
// for objects; this does it for a build's end product whose compiles ccache cannot share (the
// twin's Verilated C++ names its Verilog files by absolute path). PS_NO_CCACHE=1 turns it off
// with ccache. Plain Node.
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, relative } from 'node:path'

const KEEP = 4 // entries kept per kind, the newest

const folder = (kind) => join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'pcie-scope', kind)
export const buildCacheEnabled = () => process.env.PS_NO_CCACHE !== '1'

/** A key over the files under `paths` (names relative to `root`, and contents) and `extra` strings. */
export function contentKey(root, paths, extra = []) {
  const h = createHash('sha256')
  for (const e of extra) h.update(`${e}\0`)
  const walk = (p) => {
    if (!existsSync(p)) return
    if (statSync(p).isDirectory()) {
      for (const e of readdirSync(p).sort()) walk(join(p, e))
      return
    }
    h.update(`${relative(root, p)}\0`)
    h.update(readFileSync(p))
    h.update('\0')
  }
  for (const p of paths) walk(p)
  return h.digest('hex').slice(0, 32)
}

/** Copies the cached `name` of `key` to `to`; false when there is none. */
export function restore(kind, key, name, to) {
  const from = join(folder(kind), key, name)
  if (!existsSync(from)) return false
  copyFileSync(from, `${to}.part`)
  renameSync(`${to}.part`, to)
  return true
}

/** Keeps a copy of `file` as `name` of `key`, dropping all but the newest entries of `kind`. */
export function store(kind, key, name, file) {
  const dir = join(folder(kind), key)
  mkdirSync(dir, { recursive: true })
  copyFileSync(file, join(dir, `${name}.${process.pid}.part`))
  renameSync(join(dir, `${name}.${process.pid}.part`), join(dir, name))
  const entries = readdirSync(folder(kind))
    .map((e) => ({ e, t: statSync(join(folder(kind), e)).mtimeMs }))
    .sort((a, b) => b.t - a.t)
  for (const { e } of entries.slice(KEEP)) rmSync(join(folder(kind), e), { recursive: true, force: true })
}
