// The host's layers point one way (docs/architecture.md): core imports nothing else of the host and
// nothing Node-only; protocol/ and transport/ never reach up into device/ or above; recording/ (the
// recording on disk) knows nothing of devices, runs or exports; export/ reads recordings only;
// measure/ never reaches up into cli/ or server/; measure/, recording/, export/, cli/ and server/
// never import the twin-specific runner; the web page imports only browser-safe core.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')

const walk = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  )

/** Every module a file imports: relative ones resolved to repo paths, packages as written. */
const importsOf = (file: string): string[] => {
  const text = readFileSync(join(root, file), 'utf8')
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'([^']+)'/g)].map((m) => m[1]!)
  return specs.map((s) => (s.startsWith('.') ? relative(root, resolve(root, dirname(file), s)).replace(/\.js$/, '.ts') : s))
}

const violations = (files: string[], forbidden: (imp: string) => boolean): string[] =>
  files.flatMap((f) =>
    importsOf(f)
      .filter(forbidden)
      .map((imp) => `${f} imports ${imp}`),
  )

const host = (sub: string) => walk(`host/src/${sub}`)

describe('one-way layers', () => {
  it('core imports nothing else of the host and nothing Node-only', () => {
    expect(violations(host('core'), (i) => (i.startsWith('host/') && !i.startsWith('host/src/core/')) || i.startsWith('node:'))).toEqual([])
  })
  it('protocol/ and transport/ import nothing from device/, measure/, recording/, export/, cli/, server/ or workload/', () => {
    const above = /^host\/src\/(device|measure|recording|export|cli|server|workload)\//
    expect(violations([...host('protocol'), ...host('transport')], (i) => above.test(i))).toEqual([])
  })
  it('recording/ imports only core/, util/ and itself of the host', () => {
    const ok = /^host\/src\/(core|util|recording)\//
    expect(violations(host('recording'), (i) => i.startsWith('host/') && !ok.test(i))).toEqual([])
  })
  it('export/ imports only core/, util/, recording/ and itself of the host', () => {
    const ok = /^host\/src\/(core|util|recording|export)\//
    expect(violations(host('export'), (i) => i.startsWith('host/') && !ok.test(i))).toEqual([])
  })
  it('measure/ imports nothing from export/, cli/ or server/', () => {
    const above = /^host\/src\/(export|cli|server)\//
    expect(violations(host('measure'), (i) => above.test(i))).toEqual([])
  })
  it('measure/, recording/, export/, cli/ and server/ do not import the twin-specific runner', () => {
    const files = ['measure', 'recording', 'export', 'cli', 'server'].flatMap(host)
    expect(violations(files, (i) => i === 'host/src/workload/twin-runner.ts')).toEqual([])
  })
  it('the web page imports only browser-safe core, its own modules and chart.js', () => {
    const ok = (i: string) => i.startsWith('host/src/core/') || i.startsWith('web/') || i === 'chart.js' || i.startsWith('chart.js/')
    expect(violations(walk('web'), (i) => !ok(i))).toEqual([])
  })
  it('no module of the host reaches itself through its imports (type imports included)', () => {
    const files = walk('host/src')
    const graph = new Map(files.map((f) => [f, importsOf(f).filter((i) => i.startsWith('host/src/'))]))
    const circles: string[] = []
    const done = new Set<string>()
    const visit = (f: string, path: string[]): void => {
      if (path.includes(f)) return void circles.push([...path.slice(path.indexOf(f)), f].join(' -> '))
      if (done.has(f)) return
      for (const next of graph.get(f) ?? []) visit(next, [...path, f])
      done.add(f)
    }
    for (const f of files) visit(f, [])
    expect(circles).toEqual([])
  })
  it('the import scanner sees imports at all (guards the test itself)', () => {
    expect(importsOf('host/src/protocol/messages.ts')).toContain('host/src/core/errors.ts')
  })
})
