// The repository stands alone: no tracked file points at documents outside it, and none speaks of
// how the work on it was organised (numbered sessions, issues, stops, branch names).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean)

// the shared folder beside a developer's checkout, and the names of the documents in it
const OUTSIDE = /\.\.\/shared\b|\bshared\/reference\b|\b(pcie-tlp|node-stack|xilinx-axis|style-anchors)\.md\b|\bARCHITECTURE\.md\b/

// words about how the work was organised rather than about the project: numbered work sessions,
// tracker issues, numbered stops, the branch a change came from
const PROCESS_WORDS: [RegExp, string][] = [
  [/\bsessions? \d+\b/i, 'a numbered session'],
  [/\bissue #?\d+\b/i, 'a numbered issue'],
  [/\bthe issue's\b|\bthe (in-flight )?issue\b(?! (?:one|a|an|the|no|more|its|reads?|MRds?|requests?|warps?)\b)/i, 'the issue'],
  [/\bstop \d+\b/i, 'a numbered stop'],
  [/\b(the|this) session's (start|end|final|changes)\b/i, 'a work session'],
  [/\bbranch `[\w-]+`/i, 'a branch name'],
]

/** The text of every tracked file (binary and deleted ones skipped), line by line. */
function trackedLines(skip: Set<string>): { file: string; line: number; text: string }[] {
  const out: { file: string; line: number; text: string }[] = []
  for (const f of tracked) {
    if (skip.has(f)) continue
    let text: string
    try {
      text = readFileSync(join(root, f), 'utf8')
    } catch {
      continue // deleted in the working tree
    }
    if (text.includes('\u0000')) continue // binary
    text.split('\n').forEach((t, i) => out.push({ file: f, line: i + 1, text: t }))
  }
  return out
}

describe('repository hygiene', () => {
  it('has no file that points outside the repository', () => {
    const offenders: string[] = []
    for (const f of tracked) {
      if (f === 'package-lock.json' || f === 'test/repo/hygiene.test.ts') continue
      let text: string
      try {
        text = readFileSync(join(root, f), 'utf8')
      } catch {
        continue // deleted in the working tree
      }
      text.split('\n').forEach((line, i) => {
        if (OUTSIDE.test(line)) offenders.push(`${f}:${i + 1}: ${line.trim().slice(0, 120)}`)
      })
    }
    expect(offenders).toEqual([])
  })

  it('speaks of the project, not of how the work on it was organised', () => {
    const offenders: string[] = []
    for (const { file, line, text } of trackedLines(new Set(['package-lock.json', 'test/repo/hygiene.test.ts']))) {
      for (const [re, what] of PROCESS_WORDS) {
        if (re.test(text)) offenders.push(`${file}:${line}: ${what}: ${text.trim().slice(0, 120)}`)
      }
    }
    expect(offenders).toEqual([])
  })

  it('catches the process words it is meant to catch, and leaves the verb and a DeviceSession alone', () => {
    const hits = (t: string) => PROCESS_WORDS.filter(([re]) => re.test(t)).map(([, what]) => what)
    expect(hits('measured in session 22')).toEqual(['a numbered session'])
    expect(hits('see issue #10')).toEqual(['a numbered issue'])
    expect(hits("inside the issue's 2 % budget")).toEqual(['the issue'])
    expect(hits('the in-flight issue asks for 2 M')).toEqual(['the issue'])
    expect(hits('after stop 3 the figures')).toEqual(['a numbered stop'])
    expect(hits("against the session's start")).toEqual(['a work session'])
    expect(hits('merged from branch `switchseg`')).toEqual(['a branch name'])
    expect(hits('the warps issue their loads; the host may issue one read')).toEqual([])
    expect(hits("the DeviceSession's twin; a browser session; PS_CMD_STOP 4u; without a branch per DW")).toEqual([])
  })
})
