/** capture --jsonl: each record as one JSON line on stdout while the recording runs, in the recording format. */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { main } from '../../../host/src/cli/main.js'
import type { CliDeps, CliIo } from '../../../host/src/cli/io.js'
import { parseRecordLine, readRecords } from '../../../host/src/recording/reader.js'
import { closeSessions, fakeSession } from '../measure/fake-session.js'
import { removeRoots, tempRoot } from '../recording/fixtures.js'

afterEach(async () => {
  await closeSessions()
  removeRoots()
})

const run = async (args: string[], deps: Partial<CliDeps>) => {
  const lines: { at: number; text: string }[] = []
  let stderr = ''
  const io: CliIo = {
    stdout: (s) => void lines.push({ at: performance.now(), text: s }),
    stderr: (s) => void (stderr += s),
  }
  const code = await main(['node', 'pcie-scope', ...args], io, deps)
  return { code, lines, stdout: lines.map((l) => l.text).join(''), stderr }
}

describe('pcie-scope capture --jsonl', () => {
  it('streams device, run-start, every snapshot as it arrives, and the run with its result', async () => {
    let runnerDone = 0
    const r = await run(['capture', '--twin', '--pattern', 'merged-aligned', '--bytes', '4096', '--jsonl'], {
      openSession: async () => {
        const f = await fakeSession({ stream: 3 })
        const inner = f.s.runner!.run.bind(f.s.runner)
        f.s.runner!.run = async (w, o) => {
          const res = await inner(w, o)
          runnerDone = performance.now()
          return res
        }
        return f.s
      },
    })
    expect(r.code).toBe(0)
    // each record is its own write: lines were printed as they happened, not at the end
    expect(r.lines.every((l) => l.text.endsWith('\n') && l.text.indexOf('\n') === l.text.length - 1)).toBe(true)
    const records = r.lines.map((l) => parseRecordLine(l.text.trimEnd()))
    expect(records.every((p) => p.kind === 'record')).toBe(true)
    const types = records.map((p) => (p.kind === 'record' ? p.record.t : '?'))
    expect(types[0]).toBe('device')
    expect(types[1]).toBe('snapshot') // the on-demand baseline
    expect(types[2]).toBe('run-start')
    expect(types.filter((t) => t === 'snapshot').length).toBeGreaterThanOrEqual(1 + 3 + 1) // baseline, streamed, final
    expect(types.at(-1)).toBe('run')
    const streamed = r.lines.filter((_, i) => types[i] === 'snapshot' && i > 2)
    expect(streamed.some((l) => l.at <= runnerDone)).toBe(true) // seen before the workload ended
    const last = records.at(-1)!
    expect(last.kind === 'record' && last.record.t === 'run' && last.record.error === null).toBe(true)
    expect(r.stdout).not.toMatch(/MRd/) // no summary table on stdout
  })

  it('with --out, streams the same records the recording directory holds', async () => {
    const root = tempRoot()
    const r = await run(['capture', '--twin', '--pattern', 'merged-aligned', '--bytes', '4096', '--jsonl', '--out', 'c', '--dir', root], {
      openSession: async () => (await fakeSession({ stream: 2 })).s,
    })
    expect(r.code).toBe(0)
    const onDisk: string[] = []
    for await (const rec of readRecords(join(root, 'c'))) onDisk.push(rec.t)
    const streamed = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as { t: string }).t)
    expect(streamed).toEqual(onDisk)
    expect(readdirSync(join(root, 'c'))).toContain('manifest.json')
  })

  it('--json and --jsonl together: exit 2', async () => {
    const r = await run(['capture', '--twin', '--pattern', 'strided', '--json', '--jsonl'], {
      openSession: async () => (await fakeSession()).s,
    })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--json and --jsonl')
  })
})
