// Shared by the HDL gates (hdl.int.test.ts, tracker.int.test.ts): run a tool, read a bench's
// closing line, synthesise for UltraScale+ and read the resource report.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

export const root = join(import.meta.dirname, '../..')
export const inc = ['-Ihdl/rtl/generated']

export function run(cmd: string, args: string[], timeoutMs = 200_000) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 << 20 })
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, stdout: r.stdout ?? '' }
}

/** The closing line every testbench prints: "N passed, N failed". */
export function closing(stdout: string): { passed: number; failed: number } | undefined {
  const m = [...stdout.matchAll(/^(\d+) passed, (\d+) failed$/gm)].pop()
  return m ? { passed: Number(m[1]), failed: Number(m[2]) } : undefined
}

/**
 * Yosys synth_xilinx for UltraScale+ with no latches allowed; the report is kept at `report`.
 * Returns the tool run and, when it succeeded, a reader of cell counts and the LC estimate.
 */
export function synthXcup(top: string, files: string[], report: string, setup: string[] = []) {
  mkdirSync(dirname(report), { recursive: true })
  const script = [
    `read_verilog ${inc.join(' ')} ${files.join(' ')}`,
    ...setup,
    `synth_xilinx -family xcup -top ${top} -flatten`,
    'select -assert-none t:$dlatch t:LDCE t:LDPE',
    'tee -o ' + report + ' stat -tech xilinx',
  ].join('; ')
  const r = run('yosys', ['-q', '-p', script])
  const stat = r.status === 0 ? readFileSync(report, 'utf8') : ''
  const cells = (name: string) => Number(new RegExp(`^\\s+${name}\\s+(\\d+)$`, 'm').exec(stat)?.[1] ?? 0)
  const lcs = Number(/Estimated number of LCs:\s+(\d+)/.exec(stat)?.[1])
  return { r, cells, lcs, ffs: cells('FDRE') + cells('FDSE') }
}
