#!/usr/bin/env node
/**
 * Check that the C and C++ sources follow the repository's .clang-format.
 *
 *   node scripts/check-format.mjs              every file under FORMATTED_ROOTS
 *   node scripts/check-format.mjs FILE...      just these files (any path, e.g. a temporary file)
 *   node scripts/check-format.mjs --fix        rewrite the files in place instead (npm run format)
 *
 * Runs `clang-format --dry-run -Werror` (nothing is rewritten), lists the files that are not
 * formatted with the command that fixes them, and exits 1 if there is any (2 if clang-format is
 * missing). Plain Node, no dependencies.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The folders whose C/C++ sources must be formatted, relative to the repository root. */
export const FORMATTED_ROOTS = ['firmware', 'test/firmware', 'native', 'test/native']

/** File endings clang-format checks. */
const EXTENSIONS = ['.c', '.h', '.cpp', '.hpp', '.cc', '.hh', '.cu', '.cuh']
/** Folder names never descended into: generated code (spec/generate.ts) and build outputs. */
const SKIP_DIRS = new Set(['generated', 'build', 'node_modules', '.git'])

const CLANG_FORMAT = process.env.CLANG_FORMAT ?? 'clang-format'

function collect(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) collect(p, out)
    } else if (entry.isFile() && EXTENSIONS.some((e) => entry.name.endsWith(e))) {
      out.push(p)
    }
  }
  return out
}

function defaultFiles() {
  return FORMATTED_ROOTS.flatMap((r) => {
    const dir = join(root, r)
    return existsSync(dir) && statSync(dir).isDirectory() ? collect(dir, []) : []
  })
}

function clangFormat(files) {
  // --style=file:<ours>: a file outside the repository (a temporary file in a test) is checked
  // against the repository's .clang-format too.
  const r = spawnSync(CLANG_FORMAT, ['--dry-run', '-Werror', `--style=file:${join(root, '.clang-format')}`, ...files], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  if (r.error) {
    const hint = r.error.code === 'ENOENT' ? ' (install it: apt-get install clang-format)' : ''
    process.stderr.write(`check-format: cannot run ${CLANG_FORMAT}: ${r.error.message}${hint}\n`)
    process.exit(2)
  }
  return r
}

/** Files clang-format would change: one run for all, then the files its diagnostics name. */
function unformatted(files) {
  const r = clangFormat(files)
  if (r.status === 0) return []
  const named = new Set()
  for (const line of r.stderr.split('\n')) {
    const m = /^(.*?):\d+:\d+: (?:error|warning):/.exec(line)
    if (m) named.add(resolve(m[1]))
  }
  const bad = files.filter((f) => named.has(resolve(f)))
  if (bad.length > 0) return bad
  // Diagnostics we could not attribute (an unreadable file, a style error): ask file by file.
  return files.filter((f) => clangFormat([f]).status !== 0)
}

const quote = (p) => (/^[\w./+-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`)

const fix = process.argv.includes('--fix')
const args = process.argv.slice(2).filter((a) => a !== '--fix')
const files = args.length > 0 ? args.map((a) => resolve(a)) : defaultFiles()
if (fix) {
  const r = spawnSync(CLANG_FORMAT, ['-i', `--style=file:${join(root, '.clang-format')}`, ...files], { stdio: 'inherit' })
  process.exit(r.status ?? 1)
}
if (files.length === 0) {
  process.stderr.write('check-format: no C/C++ files to check\n')
  process.exit(1)
}
const bad = unformatted(files)
const shown = (f) => {
  const rel = relative(root, f)
  return rel.startsWith('..') ? f : rel
}
if (bad.length > 0) {
  console.log(`check-format: ${bad.length} of ${files.length} files are not clang-formatted:`)
  for (const f of bad) console.log(`  ${shown(f)}`)
  console.log('Fix them with (from the repository root):')
  console.log(`  clang-format -i ${bad.map((f) => quote(shown(f))).join(' ')}`)
  process.exit(1)
}
console.log(`check-format: ${files.length} files formatted`)
