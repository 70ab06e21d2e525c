// The repository stands alone: no tracked file points at documents outside it.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean)

// the shared folder beside a developer's checkout, and the names of the documents in it
const OUTSIDE = /\.\.\/shared\b|\bshared\/reference\b|\b(pcie-tlp|node-stack|xilinx-axis|style-anchors)\.md\b|\bARCHITECTURE\.md\b/

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
})
