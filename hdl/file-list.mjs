// Reads the RTL file lists (`*.f` next to each top): one path a line from the repository root,
// `//` comments, `-f LIST` to take another list in. The expansion holds each file once, in the
// order first met, so lists may share a leaf (probe_mrd_classify.v) without a tool seeing a
// module twice. Used by the HDL tests (test/hdl/tools.ts), the bench scripts and, through the
// same rules, the twin's CMake (native/twin/CMakeLists.txt).
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** The Verilog files of one list (repository-relative paths), its `-f` lists expanded. */
export function rtlFiles(list, root = repoRoot) {
  const files = []
  const seen = new Set()
  const walk = (rel, chain) => {
    if (chain.includes(rel)) throw new Error(`${rel}: -f cycle (${[...chain, rel].join(' -> ')})`)
    const text = readFileSync(join(root, rel), 'utf8')
    for (const raw of text.split('\n')) {
      const line = raw.replace(/\/\/.*$/, '').trim()
      if (!line) continue
      const include = /^-f\s+(\S+)$/.exec(line)
      if (include) walk(include[1], [...chain, rel])
      else if (/^\S+\.s?vh?$/.test(line)) {
        if (!seen.has(line)) files.push(line)
        seen.add(line)
      } else throw new Error(`${rel}: not a file or -f line: ${raw}`)
    }
  }
  walk(list, [])
  return files
}

// `node hdl/file-list.mjs LIST...`: the files, one a line, for a shell's `$(...)`
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const lists = process.argv.slice(2)
  if (!lists.length) {
    console.error('usage: node hdl/file-list.mjs LIST.f...')
    process.exit(2)
  }
  console.log([...new Set(lists.flatMap((l) => rtlFiles(l)))].join('\n'))
}
