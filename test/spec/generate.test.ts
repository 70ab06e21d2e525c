import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { COMMANDS, COUNTERS, CRC16, LINK_STATS, REG, SIZE_CLASSES, SNAPSHOT_LAYOUT } from '../../host/src/core/generated.js'
import { generatedFiles } from '../../spec/generate.js'

const root = join(import.meta.dirname, '../..')
const tsx = join(root, 'node_modules/.bin/tsx')

// the freshness checks spawn the generator through tsx: seconds each, more under load
describe('spec generator', { timeout: 60_000 }, () => {
  it('finds every generated file fresh (npm run gen:check)', () => {
    const r = spawnSync(tsx, ['spec/generate.ts', '--check'], { cwd: root, encoding: 'utf8' })
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
  })

  it('reports a stale file and exits 1', () => {
    // work on a copy so the real tree is never touched
    const dir = mkdtempSync(join(tmpdir(), 'ps-gen-'))
    cpSync(join(root, 'spec'), join(dir, 'spec'), { recursive: true })
    for (const f of Object.keys(generatedFiles())) {
      mkdirSync(join(dir, f, '..'), { recursive: true })
      cpSync(join(root, f), join(dir, f))
    }
    const c = join(dir, 'firmware/include/generated/pcie_scope_regs.h')
    writeFileSync(c, readFileSync(c, 'utf8').replace('0x50435343u', '0x00000000u'))
    const r = spawnSync(tsx, [join(dir, 'spec/generate.ts'), '--check'], { cwd: dir, encoding: 'utf8' })
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('stale: firmware/include/generated/pcie_scope_regs.h')
    execFileSync(tsx, [join(dir, 'spec/generate.ts')], { cwd: dir })
    expect(readFileSync(c, 'utf8')).toContain('0x50435343u')
  })

  it("regenerates the twin's option table and TWIN_OPTIONS from spec/twin.json", () => {
    const dir = mkdtempSync(join(tmpdir(), 'ps-gen-twin-'))
    cpSync(join(root, 'spec'), join(dir, 'spec'), { recursive: true })
    for (const f of Object.keys(generatedFiles())) {
      mkdirSync(join(dir, f, '..'), { recursive: true })
      cpSync(join(root, f), join(dir, f))
    }
    const spec = join(dir, 'spec/twin.json')
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('"max": 256,', '"max": 128,').replace('"default": 256,', '"default": 128,'))
    const r = spawnSync(tsx, [join(dir, 'spec/generate.ts'), '--check'], { cwd: dir, encoding: 'utf8' })
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('stale: native/twin/generated/twin_options.h')
    expect(r.stderr).toContain('stale: host/src/core/generated.ts')
    execFileSync(tsx, [join(dir, 'spec/generate.ts')], { cwd: dir })
    expect(readFileSync(join(dir, 'native/twin/generated/twin_options.h'), 'utf8')).toContain('"--tags must be 1..128"')
    expect(readFileSync(join(dir, 'host/src/core/generated.ts'), 'utf8')).toContain('"error": "--tags must be 1..128"')
  })

  it('lays counters out as 64-bit pairs from the counter base, in spec order', () => {
    const spec = JSON.parse(readFileSync(join(root, 'spec/registers.json'), 'utf8')) as {
      counters: { list: { name?: string; expand?: string }[] }
      sizeClasses: { exact: number[] }
    }
    const expected = spec.counters.list.flatMap((c) =>
      c.expand === 'sizeClasses' ? [...spec.sizeClasses.exact.map((b) => `MRD_${b}`), 'MRD_OTHER'] : [c.name],
    )
    expect(COUNTERS.map((c) => c.name)).toEqual(expected)
    COUNTERS.forEach((c, i) => expect(c.offset).toBe(0x100 + 8 * i))
    expect(REG.CTRL).toBe(0x008)
  })

  it('derives one contiguous counter per size class, the catch-all last', () => {
    const spec = JSON.parse(readFileSync(join(root, 'spec/registers.json'), 'utf8')) as { sizeClasses: { exact: number[] } }
    expect(SIZE_CLASSES.map((c) => c.key)).toEqual([...spec.sizeClasses.exact.map(String), 'other'])
    const first = COUNTERS.findIndex((c) => c.key === SIZE_CLASSES[0].counter)
    SIZE_CLASSES.forEach((s, k) => expect(COUNTERS[first + k]?.key).toBe(s.counter))
    expect(SIZE_CLASSES.at(-1)?.bytes).toBeNull()
  })

  it('sizes the snapshot payload from the counter list', () => {
    expect(SNAPSHOT_LAYOUT.fields.counters.bytes).toBe(8 * COUNTERS.length)
    expect(SNAPSHOT_LAYOUT.bytes).toBe(1 + 4 + 8 * COUNTERS.length + 4 * LINK_STATS.length)
  })

  it('gives the firmware its link statistics from the spec: the struct and PS_LINK_STATS in SNAPSHOT order', () => {
    const h = readFileSync(join(root, 'firmware/include/generated/pcie_scope_protocol.h'), 'utf8')
    const member = (k: string) => k.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()
    const xs = [...h.matchAll(/^ {4}X\((\w+), PS_SNAPSHOT_(\w+)_OFFSET\)/gm)].map((m) => [m[1], m[2]])
    expect(xs).toEqual(LINK_STATS.map((s) => [member(s.key), member(s.key).toUpperCase()]))
    const struct = h.slice(h.indexOf('typedef struct ps_link_stats {'), h.indexOf('} ps_link_stats_t;'))
    expect([...struct.matchAll(/uint32_t (\w+);/g)].map((m) => m[1])).toEqual(LINK_STATS.map((s) => member(s.key)))
    for (const s of LINK_STATS) expect(SNAPSHOT_LAYOUT.fields[s.key]).toMatchObject({ type: 'u32', bytes: 4 })
  })

  it('gives every command a unique id and the CRC its catalogue check value', () => {
    const ids = Object.values(COMMANDS).map((c) => c.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(CRC16.check).toBe(0x29b1)
  })
})
