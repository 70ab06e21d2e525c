// The RTL file lists (hdl/**/*.f, read by hdl/file-list.mjs): every entry exists, every Verilog
// file of the design is in some list, and each top's list holds exactly the modules its top
// instantiates, all the way down (a module dropped from a top or added to it fails here before any
// tool runs). No simulator needed.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { rtlFiles } from '../../hdl/file-list.mjs'
import { root } from './tools.js'

// test benches are listed by the tests that run them, not in a design's list
const NOT_IN_A_LIST = [/^hdl\/tb\//, /^hdl\/xilinx\/tb\//]

function walk(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(`${dir}/${e.name}`) : [`${dir}/${e.name}`],
  )
}
const all = walk('hdl')
const lists = all.filter((f) => f.endsWith('.f'))
const verilog = all.filter((f) => f.endsWith('.v'))

// module name -> its file, and the modules each file instantiates (one module per file)
const moduleFile = new Map(verilog.map((f) => [basename(f, '.v'), f]))
function instantiated(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
  const names = [...text.matchAll(/^\s*(\w+)\s*(?:#\s*\(|\w+\s*\()/gm)].map((m) => m[1]!)
  return [...new Set(names.filter((n) => moduleFile.has(n) && moduleFile.get(n) !== file))]
}
function closure(top: string): string[] {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const m of instantiated(file)) visit(moduleFile.get(m)!)
  }
  visit(top)
  return [...seen].sort()
}

describe('RTL file lists', () => {
  it('finds the lists of both designs and the board tops', () => {
    expect(lists).toEqual(
      expect.arrayContaining([
        'hdl/rtl/pcie_scope_bar_top.f',
        'hdl/rtl/pcie_scope_switch_top.f',
        'hdl/rtl/probe_core.f',
        'hdl/xilinx/rtl/xil_pcie_port.f',
        'hdl/xilinx/boards/vcu118/rtl/vcu118_bar_top.f',
        'hdl/xilinx/boards/vcu118/rtl/vcu118_switch_top.f',
      ]),
    )
  })

  it.each(lists)('%s: every entry exists', (list) => {
    const files = rtlFiles(list, root)
    expect(files.length).toBeGreaterThan(0)
    expect(files.filter((f) => !all.includes(f))).toEqual([])
  })

  it('puts every Verilog file under hdl/ in some list, test benches aside', () => {
    const listed = new Set(lists.flatMap((l) => rtlFiles(l, root)))
    const missing = verilog.filter((f) => !listed.has(f) && !NOT_IN_A_LIST.some((re) => re.test(f)))
    expect(missing).toEqual([])
  })

  // a list named after a module is that module's closure; the adapters' list groups four tops
  it.each(lists.filter((l) => moduleFile.has(basename(l, '.f'))))('%s: exactly what its top instantiates', (list) => {
    const top = moduleFile.get(basename(list, '.f'))!
    expect([...rtlFiles(list, root)].sort()).toEqual(closure(top))
  })

  it('reads comments, nested lists once each, and names a bad line or a cycle', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ps-f-'))
    const rel = (name: string) => relative(root, join(dir, name))
    writeFileSync(join(dir, 'leaf.f'), 'hdl/rtl/probe_counter.v // the counter\n')
    writeFileSync(join(dir, 'top.f'), `// a top\nhdl/rtl/probe_csr.v\n-f ${rel('leaf.f')}\n\nhdl/rtl/probe_counter.v\n`)
    expect(rtlFiles(rel('top.f'), root)).toEqual(['hdl/rtl/probe_csr.v', 'hdl/rtl/probe_counter.v'])
    writeFileSync(join(dir, 'bad.f'), '+incdir+hdl\n')
    expect(() => rtlFiles(rel('bad.f'), root)).toThrow(/not a file or -f line/)
    writeFileSync(join(dir, 'loop.f'), `-f ${rel('loop.f')}\n`)
    expect(() => rtlFiles(rel('loop.f'), root)).toThrow(/cycle/)
  })
})
