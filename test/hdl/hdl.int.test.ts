// HDL gates: Verilator -Wall lint, Icarus -g2005 compile, Yosys structural check, and every
// self-checking testbench under both Icarus and Verilator with golden vectors from golden.ts.
// Run: npx vitest run --project int test/hdl
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { completionFor, decode, sizeClass, writeVectors } from './golden.js'

const root = join(import.meta.dirname, '../..')
const build = join(root, 'build/hdl')
const golden = join(build, 'golden')
const inc = ['-Ihdl/rtl/generated']

const RTL = [
  'hdl/rtl/pcie_scope_bar_top.v',
  'hdl/rtl/bar_responder.v',
  'hdl/rtl/probe_counters.v',
  'hdl/rtl/probe_counter.v',
  'hdl/rtl/probe_mrd_classify.v',
  'hdl/rtl/probe_csr.v',
]

function run(cmd: string, args: string[], timeoutMs = 200_000) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 << 20 })
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, stdout: r.stdout ?? '' }
}

/** The closing line every testbench prints: "N passed, N failed". */
function closing(stdout: string): { passed: number, failed: number } | undefined {
  const m = [...stdout.matchAll(/^(\d+) passed, (\d+) failed$/gm)].pop()
  return m ? { passed: Number(m[1]), failed: Number(m[2]) } : undefined
}

// top, extra parameters, files
const LINT: Array<[string, string[], string[]]> = [
  ['pcie_scope_bar_top', [], RTL],
  ['pcie_scope_bar_top', ['-GTLP_DATA_WIDTH=64', '-GCNT_WIDTH=48'], RTL],
  ['pcie_scope_bar_top', ['-GTLP_DATA_WIDTH=512'], RTL],
  ['probe_counters', ['-GTLP_SEG_COUNT=2'], ['hdl/rtl/probe_counters.v', 'hdl/rtl/probe_counter.v', 'hdl/rtl/probe_mrd_classify.v']],
  ['probe_counters', ['-GTLP_SEG_COUNT=4'], ['hdl/rtl/probe_counters.v', 'hdl/rtl/probe_counter.v', 'hdl/rtl/probe_mrd_classify.v']],
  ['bar_responder', ['-GTLP_DATA_WIDTH=128', '-GMAX_PAYLOAD_BYTES=4096'], ['hdl/rtl/bar_responder.v', 'hdl/rtl/probe_mrd_classify.v']],
  ['probe_csr', [], ['hdl/rtl/probe_csr.v']],
  ['probe_counter', [], ['hdl/rtl/probe_counter.v']],
  ['probe_mrd_classify', [], ['hdl/rtl/probe_mrd_classify.v']],
]

// testbench top, its file, the RTL it needs
const TBS: Array<[string, string, string[]]> = [
  ['tb_pcie_scope_bar_top', 'hdl/tb/tb_pcie_scope_bar_top.sv', RTL],
  ['tb_probe_counters', 'hdl/tb/tb_probe_counters.sv', ['hdl/rtl/probe_counters.v', 'hdl/rtl/probe_counter.v', 'hdl/rtl/probe_mrd_classify.v']],
]

beforeAll(() => {
  mkdirSync(build, { recursive: true })
  writeVectors(golden, 1, 8)
})

// header image from DW0..DW3
const img = (dw0: number, dw1: number, dw2: number, dw3 = 0): bigint =>
  (BigInt(dw0 >>> 0) << 96n) | (BigInt(dw1 >>> 0) << 64n) | (BigInt(dw2 >>> 0) << 32n) | BigInt(dw3 >>> 0)

describe('golden model, hand-worked cases (pcie-tlp.md §3)', () => {
  it.each([
    // [what, header, requested bytes, class]
    ['MRd 3DW 128 B', img(0x00000020, 0x010000ff, 0x1000), 128, 3],
    ['MRd 4DW 32 B', img(0x20000008, 0x010000ff, 0x1, 0x80), 32, 0],
    ['9 DW, FBE 1100, LBE 0011 = 32 B', img(0x00000009, 0x0100003c, 0x1000), 32, 0],
    ['Length 1, FBE 0110 = 2 B', img(0x00000001, 0x01000006, 0x1000), 2, 4],
    ['Length 1, FBE 0101 = 3 B (span)', img(0x00000001, 0x01000005, 0x1000), 3, 4],
    ['zero-length read = 0 B', img(0x00000001, 0x01000000, 0x1000), 0, 4],
    ['Length 0 = 1024 DW = 4096 B', img(0x00000000, 0x010000ff, 0x1000), 4096, 4],
    ['Length 2, FBE 1000, LBE 0001 = 2 B', img(0x00000002, 0x01000018, 0x1000), 2, 4],
  ])('%s', (_what, hdr, bytes, cls) => {
    const d = decode(hdr)
    expect(d.memRead).toBe(true)
    expect(d.bytes).toBe(bytes)
    expect(sizeClass(d.bytes)).toBe(cls)
  })

  it('builds the CplD and UR headers', () => {
    // MRd 3DW, tag 0x2a, requester 0x0100, 64 B at 0x1044 (lead 0)
    const c = completionFor(img(0x00000010, 0x01002aff, 0x00001044), 0)
    expect(c.hdr).toBe(img(0x4a000010, 0x02000040, 0x01002a44))
    expect(c.nDw).toBe(16)
    expect(c.addrDw).toBe(0x1044 >> 2)
    // zero-length read: 1 DW, Byte Count 1
    expect(completionFor(img(0x00000001, 0x01002a00, 0x00001044), 0).hdr).toBe(img(0x4a000001, 0x02000001, 0x01002a44))
    // Length 0 (4096 B): UR, Byte Count 4096 encodes as 0
    expect(completionFor(img(0x00000000, 0x01002aff, 0x00001000), 0).hdr).toBe(img(0x0a000000, 0x02002000, 0x01002a00))
    // MRdLk: UR; CfgRd0: UR with Byte Count 4, Lower Address 0
    expect(completionFor(img(0x01000001, 0x01002a0f, 0x00001004), 0).ur).toBe(true)
    expect(completionFor(img(0x04000001, 0x01002a0f, 0x01000010), 0).hdr).toBe(img(0x0a000000, 0x02002004, 0x01002a00))
    // MWr and Msg are posted
    expect(decode(img(0x40000001, 0x0100000f, 0x1000)).nonPosted).toBe(false)
    expect(decode(img(0x30000000, 0x01000000, 0, 0)).nonPosted).toBe(false)
  })
})

describe('HDL lint (verilator --lint-only -Wall, no waivers)', () => {
  it.each(LINT)('%s %j', (top, params, files) => {
    const r = run('verilator', ['--lint-only', '-Wall', ...inc, '--top-module', top, ...params, ...files])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  it('has no lint waivers in RTL', () => {
    const r = run('grep', ['-rln', '-e', 'lint_off', '-e', 'verilator public', 'hdl/rtl'])
    expect(r.stdout).toBe('')
  })
})

describe('HDL compile', () => {
  it('iverilog -g2005 -Wall compiles the RTL without a warning', () => {
    const r = run('iverilog', ['-g2005', '-Wall', ...inc, '-s', 'pcie_scope_bar_top', '-o', join(build, 'rtl.vvp'), ...RTL])
    expect(r.out).toBe('')
    expect(r.status).toBe(0)
  })

  it('yosys: hierarchy -check, proc, check -assert', () => {
    const script = `read_verilog ${inc.join(' ')} ${RTL.join(' ')}; hierarchy -check -top pcie_scope_bar_top; proc; check -assert`
    const r = run('yosys', ['-q', '-p', script])
    expect(r.status, r.out).toBe(0)
  })

  it('yosys: synth_xilinx for UltraScale+ at the twin\'s 512-bit width, no latches, resource report', () => {
    mkdirSync(build, { recursive: true })
    const report = join(build, 'synth_xcup.log')
    const script = [
      `read_verilog ${inc.join(' ')} ${RTL.join(' ')}`,
      'chparam -set TLP_DATA_WIDTH 512 pcie_scope_bar_top',
      'synth_xilinx -family xcup -top pcie_scope_bar_top -flatten',
      'select -assert-none t:$dlatch t:LDCE t:LDPE',
      'tee -o ' + report + ' stat -tech xilinx',
    ].join('; ')
    const r = run('yosys', ['-q', '-p', script])
    expect(r.status, r.out).toBe(0)
    const stat = readFileSync(report, 'utf8')
    const cells = (name: string) => Number(new RegExp(`^\\s+${name}\\s+(\\d+)$`, 'm').exec(stat)?.[1] ?? 0)
    // a passive probe of 11 x 64-bit counters plus shadows and a 256-deep request FIFO: about
    // 2.1 k flip-flops and 1.8 k logic cells (hdl/README.md records the figures)
    const ffs = cells('FDRE') + cells('FDSE')
    expect(ffs).toBeGreaterThan(11 * 64 * 2)
    expect(ffs).toBeLessThan(4000)
    expect(Number(/Estimated number of LCs:\s+(\d+)/.exec(stat)?.[1])).toBeLessThan(4000)
  })
})

describe.each(TBS)('testbench %s', (top, tb, files) => {
  const def = `-DGOLDEN_DIR="${golden}"`

  it('passes under Icarus (iverilog -g2012)', () => {
    const vvp = join(build, 'icarus', `${top}.vvp`)
    mkdirSync(join(build, 'icarus'), { recursive: true })
    const c = run('iverilog', ['-g2012', ...inc, def, '-s', top, '-o', vvp, tb, ...files])
    expect(c.status, c.out).toBe(0)
    const r = run('vvp', ['-n', vvp])
    const res = closing(r.stdout)
    expect(res, r.out.slice(-4000)).toBeDefined()
    expect(res!.failed, r.out.slice(-4000)).toBe(0)
    expect(res!.passed).toBeGreaterThan(0)
    expect(r.status).toBe(0)
  })

  it('passes under Verilator (--binary --timing)', () => {
    const mdir = join(build, 'verilator', top)
    mkdirSync(mdir, { recursive: true })
    const c = run('verilator', ['--binary', '--timing', '-j', '2', ...inc, def, '--top-module', top,
      '-Mdir', mdir, '-o', 'Vtb', tb, ...files])
    expect(c.status, c.out.slice(-4000)).toBe(0)
    const r = run(join(mdir, 'Vtb'), [])
    const res = closing(r.stdout)
    expect(res, r.out.slice(-4000)).toBeDefined()
    expect(res!.failed, r.out.slice(-4000)).toBe(0)
    expect(res!.passed).toBeGreaterThan(0)
    expect(r.status).toBe(0)
  })
})
