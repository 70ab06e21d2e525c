/** The real CLI, spawned (from source through tsx, so no build is needed): usage errors exit 2. */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runCli } from './run-cli.js'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, ['bin/pcie-scope.mjs', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PCIE_SCOPE_FROM_SOURCE: '1', PCIE_SCOPE_TWIN: '/nonexistent/pcie-scope-twin' },
    timeout: 60_000,
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** In-process run for the cheap cases. */
const run = runCli

// each test spawns the CLI through tsx (2-3 s to start on a quiet 2-core machine, far more under load)
describe('pcie-scope CLI (spawned)', { timeout: 60_000 }, () => {
  it('exits 2 with a clear message on an unknown pattern', () => {
    const r = cli('capture', '--twin', '--pattern', 'zigzag', '--json')
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/zigzag.*invalid.*strided, merged-aligned, merged-misaligned/s)
  })
  it('exits 2 on a missing --pattern and on unknown options', () => {
    expect(cli('capture', '--twin').code).toBe(2)
    const r = cli('capture', '--pattern', 'strided', '--frobnicate')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/unknown option/)
  })
  it('prints accurate help and exits 0', () => {
    const r = cli('--help')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/capture/)
    expect(r.stdout).toMatch(/serve/)
    const c = cli('capture', '--help')
    expect(c.stdout).toMatch(/--pattern <name>/)
    expect(c.stdout).toMatch(/--latency-cycles <n>/)
    expect(c.stdout).toMatch(/--element-bytes <n>/)
    expect(c.stdout).toMatch(/--l1 <mode>/)
    expect(c.stdout).toMatch(/--json/)
  })
  it('exits 1 with PS_TWIN_NOT_BUILT and the build command when the twin is missing', () => {
    const r = cli('capture', '--twin', '--pattern', 'strided', '--json')
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('PS_TWIN_NOT_BUILT')
    expect(r.stderr).toContain('npm run build:twin')
  })
})

describe('pcie-scope CLI (in process)', () => {
  it('rejects workloads outside the limits with exit 2', async () => {
    for (const args of [
      ['--bytes', '102'],
      ['--bytes', '2G'],
      ['--bytes', 'lots'],
      ['--offset', '3'],
      ['--offset', '128'],
      ['--offset', '-4'],
      ['--element-bytes', '12'],
      ['--element-bytes', '16', '--offset', '8'], // a misaligned 16-B load
      ['--element-bytes', '8', '--bytes', '1028'], // a partial load
      ['--l1', 'cg'],
      ['--period-ms', '5'], // the firmware's range comes from spec/protocol.json: 10..60000
      ['--period-ms', '60001'],
      ['--link', 'gen3x12'],
      ['--segments', '3'],
      ['--mode', 'bar'],
      ['--tags', '0'],
      ['--tags', '257'],
    ]) {
      const r = await run('capture', '--twin', '--pattern', 'strided', ...args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stdout).toBe('')
    }
  })
  it('refuses every numeric option outside its range with exit 2, naming the bounds, before anything starts', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['capture', '--twin', '--pattern', 'strided', '--latency-cycles', '65536'], /expected 0\.\.65535/],
      [['capture', '--twin', '--pattern', 'strided', '--latency-ns', '0'], /expected 1\.\.1000000000/],
      [['capture', '--twin', '--pattern', 'strided', '--sample-us', '0'], /expected 1\.\.1048/],
      [['capture', '--twin', '--pattern', 'strided', '--cpl-split', '32'], /expected 0, 64 or 128/],
      [['capture', '--twin', '--pattern', 'strided', '--segments', '3'], /expected one of 1, 2, 4/],
      [['capture', '--port', '/dev/null', '--gpu', '--pattern', 'strided', '--baud', '0'], /expected 300\.\.4000000/],
      [['serve', '--hang-timeout', '0'], /--hang-timeout.*expected 2000\.\.600000 ms/],
      [['serve', '--hang-timeout', '2147483648'], /expected 2000\.\.600000 ms/],
      [['serve', '--run-floor', '0'], /--run-floor.*expected 1\.\.100000 MiB\/s/],
      [['serve', '--run-slack', '2147483648'], /--run-slack.*expected 0\.\.3600000 ms/],
      [['serve', '--run-queue', '1001'], /expected 0\.\.1000/],
      [['serve', '--ws-batch-ms', '0'], /expected 1\.\.10000 ms/],
      [['bench', '--twin', '--repeats', '0'], /expected 1\.\.1000/],
    ]
    for (const [args, message] of cases) {
      const r = await run(...args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr, args.join(' ')).toMatch(message)
      expect(r.stdout).toBe('')
    }
  })

  it('serve --lessons: a broken lesson stops the start before the twin is launched, naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ps-cli-lessons-'))
    try {
      writeFileSync(join(dir, 'mine.json'), JSON.stringify({ id: 'mine', title: 't' }))
      const r = await run('serve', '--twin', '--lessons', dir)
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(/PS_LESSON_INVALID.*lesson mine is invalid: .*minutes/)
      expect(r.stdout).toBe('')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('names a misspelt option as unknown before it reports a required one missing', async () => {
    const capture = await run('capture', '--twin', '--patern', 'strided')
    expect(capture.code).toBe(2)
    expect(capture.stderr).toMatch(/unknown option '--patern'/)
    expect(capture.stderr).toMatch(/Did you mean --pattern\?/)
    const missing = await run('capture', '--twin')
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/required option '--pattern <name>' not specified/)
    const exported = await run('export', 'some-recording', '--fromat', 'csv')
    expect(exported.code).toBe(2)
    expect(exported.stderr).toMatch(/unknown option '--fromat'/)
    expect((await run('export', 'some-recording')).stderr).toMatch(/required option '--format <format>' not specified/)
  })

  it('says in its help that the twin runs the switch unless --mode endpoint, and that --segments widens either design', async () => {
    for (const command of ['capture', 'serve', 'bench']) {
      const help = (await run(command, '--help')).stdout.replace(/\s+/g, ' ')
      expect(help, command).toMatch(/--mode <design> twin only: switch \(default: the switch RTL between the GPU model and a host model/)
      expect(help, command).toMatch(/endpoint \(the FPGA as the GPU's BAR endpoint, the BAR responder answering\)/)
    }
    for (const command of ['capture', 'serve']) {
      const help = (await run(command, '--help')).stdout.replace(/\s+/g, ' ')
      expect(help, command).toMatch(/--segments <n> twin only, either mode: TLP segments per 512-bit beat of the design/)
    }
  })
  it('rejects --twin with --port, and twin-only options on a board', async () => {
    expect((await run('capture', '--twin', '--port', '/dev/ttyUSB0', '--pattern', 'strided')).code).toBe(2)
    expect((await run('capture', '--port', '/dev/ttyUSB0', '--latency-cycles', '9', '--pattern', 'strided')).code).toBe(2)
    expect((await run('capture', '--port', '/dev/ttyUSB0', '--segments', '4', '--pattern', 'strided')).code).toBe(2)
    expect((await run('capture', '--port', '/dev/ttyUSB0', '--tags', '64', '--pattern', 'strided')).code).toBe(2)
    expect((await run('serve', '--port', '/dev/ttyUSB0', '--segments', '4')).code).toBe(2)
  })
  it('refuses `capture` on a board without --gpu: PS_WORKLOAD_UNSUPPORTED (exit 1) before touching the port', async () => {
    const r = await run('capture', '--port', '/dev/does-not-exist', '--pattern', 'strided', '--json')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('PS_WORKLOAD_UNSUPPORTED')
    expect(r.stderr).toMatch(/CUDA/)
  })
  it('exits 2 without a command, 0 for --version', async () => {
    expect((await run()).code).toBe(2)
    const v = await run('--version')
    expect(v.code).toBe(0)
    expect(v.stdout).toMatch(/^\d+\.\d+\.\d+/)
  })
  it('validates --http', async () => {
    const r = await run('serve', '--http', 'localhost:99999')
    expect(r.code).toBe(2)
  })
  it('serve beyond loopback with a token under 16 characters exits 2 with PS_USAGE, before starting the twin', async () => {
    const r = await run('serve', '--twin', '--http', '0.0.0.0:0', '--token', 'tooshort')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/\[PS_USAGE\].*at least 16 characters/)
    expect(r.stdout).toBe('')
  })
})
