/** Writes a fake twin executable (a Node script speaking the twin's stdin/stdout protocol). */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { zeroBySize } from '../../../host/src/core/size-classes.js'

// the spec's size classes, every one zero (the script runs outside the TypeScript build)
const ZERO_BY_SIZE = JSON.stringify(zeroBySize())

const SCRIPT = `#!/usr/bin/env node
const zeroBySize = () => (${ZERO_BY_SIZE})
const mode = process.env.FAKE_TWIN_MODE || 'normal'
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n')
process.stderr.write('fake twin starting ' + process.argv.slice(2).join(' ') + '\\n')
if (mode === 'die') { process.stderr.write('boom: no model\\n'); process.exit(3) }
if (mode === 'refuse') {
  process.stderr.write('pcie-scope-twin: --tags must be 1..256\\n\\nusage: pcie-scope-twin [--tags N]\\n' + '  option help\\n'.repeat(40))
  process.exit(2)
}
if (mode === 'silent' || mode === 'stubborn') setInterval(() => {}, 1000)
if (mode === 'silent') {}
else {
  if (mode === 'noise') process.stdout.write('hello from verilator\\n')
  out({ event: 'ready', pty: '/dev/pts/999', clockHz: 250000000, args: process.argv.slice(2) })
}
let buf = ''
const running = new Map()
process.stdin.on('data', (d) => {
  buf += d
  let i
  while ((i = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, i).trim(); buf = buf.slice(i + 1)
    const [cmd, id, pattern, bytes, offset] = line.split(/\\s+/)
    if (cmd === 'quit') { if (mode !== 'stubborn') process.exit(0); continue }
    if (cmd === 'inject') {
      if (!['garbage', 'truncate', 'crc', 'skip-seq'].includes(id)) out({ event: 'error', command: 'inject', message: 'inject: unknown fault ' + id })
      else out({ event: 'injected', kind: id, count: Number(pattern), seed: Number(bytes) })
      continue
    }
    if (cmd === 'cancel') {
      if (mode === 'deaf') continue
      const r = running.get(Number(id))
      if (!r) { out({ event: 'error', command: 'cancel', id: Number(id), message: 'no run ' + id + ' is queued or running' }); continue }
      clearTimeout(r.timer); running.delete(Number(id))
      out({ ...r.done, mrd: { count: 0, bySize: zeroBySize(), bytes: 0 }, completions: 0, cancelled: true })
      continue
    }
    if (cmd !== 'run') { out({ event: 'error', message: 'bad line: ' + line }); continue }
    if (mode === 'crash-on-run') { process.stdout.write(''); process.exit(7) }
    if (pattern === 'bogus') { out({ event: 'error', message: 'unknown pattern bogus' }); continue }
    const n = Number(bytes), size = pattern === 'strided' ? 32 : 128
    const count = n / size
    const bySize = zeroBySize(); bySize[String(size)] = count
    const done = { event: 'done', id: Number(id), pattern, bytes: n, offset: Number(offset),
      mrd: { count, bySize, bytes: n }, completions: count, payloadErrors: 0, simCycles: n / 32, wallSeconds: 0.001 }
    // slow and deaf: a run takes 10 s (deaf: and a cancel goes unanswered)
    const timer = setTimeout(() => { running.delete(Number(id)); out(done) }, mode === 'slow' || mode === 'deaf' ? 10000 : 5)
    running.set(Number(id), { timer, done })
  }
})
process.stdin.on('end', () => { if (mode !== 'stubborn') process.exit(0) })
`

export const writeFakeTwin = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'ps-fake-twin-'))
  const p = join(dir, 'pcie-scope-twin')
  writeFileSync(p, SCRIPT)
  chmodSync(p, 0o755)
  return p
}
