// Shared by the HDL gates (hdl.int.test.ts, tracker.int.test.ts): run a tool, read a bench's
// closing line, synthesise for UltraScale+ and read the resource report, check that a
// parameter check stops elaboration.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { expect } from 'vitest'
import { rtlFiles } from '../../hdl/file-list.mjs'

export const root = join(import.meta.dirname, '../..')
export const inc = ['-Ihdl/rtl/generated']

/** The Verilog files of one or more RTL file lists (the `.f` files under hdl/), each file once. */
export function rtl(...lists: string[]): string[] {
  return [...new Set(lists.flatMap((list) => rtlFiles(list, root)))]
}

export function run(cmd: string, args: string[], timeoutMs = 200_000, env?: NodeJS.ProcessEnv) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 << 20, ...(env ? { env } : {}) })
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, stdout: r.stdout ?? '' }
}

const hasCcache = process.env.PS_NO_CCACHE !== '1' && spawnSync('sh', ['-c', 'command -v ccache'], { stdio: 'ignore' }).status === 0

/**
 * Build a self-checking bench with `verilator --binary` into `mdir`; `args` are the defines,
 * parameters, top module and sources. Three settings cut the build, not what is checked:
 * - every bench compiles the same Verilator runtime (verilated.cpp and friends, about 7 s of
 *   CPU each time): through ccache (OBJCACHE; the user's cache, with the checkout's paths made
 *   relative by vitest.config.ts, so another clone hits it too) only the first build pays for it,
 *   and a rebuilt bench whose generated C++ did not change costs nothing;
 * - the model's classes compile as one translation unit (VM_PARALLEL_BUILDS=0): each generated
 *   file alone costs about a second of header parsing (a sampler bench: 13 s instead of 33 s);
 * - a loop is unrolled only when its body is short (--unroll-stmts, Verilator's default 30 000):
 *   otherwise every bench loop that waits on the clock (65 histogram reads, every counter) is
 *   unrolled into one 77 000-line coroutine that g++ takes minutes over; kept as loops it is
 *   15 000 lines. The RTL's short loops (array resets) are unrolled as before.
 */
export function verilateBench(mdir: string, args: string[]) {
  mkdirSync(mdir, { recursive: true })
  const make = ['VM_PARALLEL_BUILDS=0', ...(hasCcache ? ['OBJCACHE=ccache'] : [])]
  const fastBuild = [...make.flatMap((m) => ['-MAKEFLAGS', m]), '--unroll-stmts', '1000']
  return run('verilator', ['--binary', '--timing', '-j', '2', ...fastBuild, '-Mdir', mdir, '-o', 'Vtb', ...args], 200_000)
}

/** The closing line every testbench prints: "N passed, N failed". */
export function closing(stdout: string): { passed: number; failed: number } | undefined {
  const m = [...stdout.matchAll(/^(\d+) passed, (\d+) failed$/gm)].pop()
  return m ? { passed: Number(m[1]), failed: Number(m[2]) } : undefined
}

/**
 * Yosys synth_xilinx for UltraScale+ with no latches allowed; the report is kept at `report`
 * (and the netlist as JSON beside it, `report` with `.json`, when `netlist` is set).
 * Returns the tool run and, when it succeeded, a reader of cell counts and the LC estimate.
 */
export function synthXcup(top: string, files: string[], report: string, setup: string[] = [], netlist = false) {
  mkdirSync(dirname(report), { recursive: true })
  const script = [
    `read_verilog ${inc.join(' ')} ${files.join(' ')}`,
    ...setup,
    `synth_xilinx -family xcup -top ${top} -flatten`,
    'select -assert-none t:$dlatch t:LDCE t:LDPE',
    'tee -o ' + report + ' stat -tech xilinx',
    ...(netlist ? [`write_json ${report.replace(/\.log$/, '')}.json`] : []),
  ].join('; ')
  const r = run('yosys', ['-q', '-p', script])
  const stat = r.status === 0 ? readFileSync(report, 'utf8') : ''
  const cells = (name: string) => Number(new RegExp(`^\\s+${name}\\s+(\\d+)$`, 'm').exec(stat)?.[1] ?? 0)
  const lcs = Number(/Estimated number of LCs:\s+(\d+)/.exec(stat)?.[1])
  return { r, cells, lcs, ffs: cells('FDRE') + cells('FDSE') }
}

/**
 * Elaborate `top` with `params` under Verilator (lint), Icarus and Yosys, each of which must
 * fail naming the module `missing`: a parameter check's block instantiates a module that does
 * not exist, named for what to fix. `build` takes Icarus's output file.
 */
export function expectElaborationStops(top: string, params: Array<[string, number]>, missing: string, files: string[], build: string, incs = inc) {
  const lint = run('verilator', ['--lint-only', '-Wall', ...incs, '--top-module', top, ...params.map(([k, v]) => `-G${k}=${v}`), ...files])
  expect(lint.status, lint.out).not.toBe(0)
  expect(lint.out).toContain(`Cannot find file containing module: '${missing}'`)

  mkdirSync(build, { recursive: true })
  const icarus = run('iverilog', ['-g2005', ...incs, ...params.map(([k, v]) => `-P${top}.${k}=${v}`), '-s', top, '-o', join(build, 'bad-params.vvp'), ...files])
  expect(icarus.status, icarus.out).not.toBe(0)
  expect(icarus.out).toContain(`Unknown module type: ${missing}`)

  const chparam = `chparam ${params.map(([k, v]) => `-set ${k} ${v}`).join(' ')} ${top}`
  const yosys = run('yosys', ['-q', '-p', `read_verilog ${incs.join(' ')} ${files.join(' ')}; ${chparam}; hierarchy -check -top ${top}`])
  expect(yosys.status, yosys.out).not.toBe(0)
  expect(yosys.out).toContain(`\\${missing}' referenced in module`)
}
