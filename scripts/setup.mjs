#!/usr/bin/env node
/**
 * One-step set-up shared by `npm start` and `npm test`: npm dependencies, system packages
 * (installed with apt-get when we are root or have password-less sudo, otherwise a clear message
 * with the exact command), then the build (TypeScript, web bundle, the Verilator twin, the native
 * addon), each step incremental and quiet: one line per step, a tool's output only when it fails.
 * Plain Node, no dependencies: it must run before `npm ci`.
 */
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compilerCacheEnv } from './compiler-cache.mjs'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')

const say = (msg) => process.stderr.write(`[setup] ${msg}\n`)

/**
 * Tools each purpose needs, with the Debian package that provides them: the project's one list of
 * system packages (`.ci/run` installs nothing itself; it runs `npm test`, which calls this).
 */
const TOOLS = {
  start: [
    { cmd: 'cmake', pkg: 'cmake' },
    { cmd: 'c++', pkg: 'g++' },
    { cmd: 'cc', pkg: 'gcc' },
    { cmd: 'make', pkg: 'make' },
    { cmd: 'ninja', pkg: 'ninja-build' },
    { cmd: 'verilator', pkg: 'verilator' },
  ],
  test: [
    { cmd: 'iverilog', pkg: 'iverilog' },
    { cmd: 'yosys', pkg: 'yosys' },
    // the HDL benches' Verilator builds share their runtime objects through it (test/hdl/tools.ts)
    { cmd: 'ccache', pkg: 'ccache' },
    { cmd: 'python3', pkg: 'python3' },
    { cmd: 'clang-format', pkg: 'clang-format' },
    // the firmware's coverage-guided fuzz target: clang plus its libFuzzer/sanitizer runtime
    { cmd: 'clang', pkg: 'clang' },
    { pkg: 'libclang-rt-dev', probe: () => canLinkLibFuzzer() },
    // the line coverage the fuzz targets reach (make -C firmware libfuzzer reports it)
    { cmd: 'llvm-cov', pkg: 'llvm' },
    { cmd: 'llvm-profdata', pkg: 'llvm' },
    { cmd: 'chromium', pkg: 'chromium', path: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
    // independent readers of the exports: VCD (GTKWave's vcd2fst/fst2vcd: sigrok-cli 0.7 with
    // libsigrok 0.5.2 reads 1-bit wires only and stops at the first vector value)
    // and pcapng with the repository's Lua dissector (tshark; DEBIAN_FRONTEND=noninteractive keeps
    // wireshark-common's setuid question at its default, no)
    { cmd: 'vcd2fst', pkg: 'gtkwave' },
    { cmd: 'tshark', pkg: 'tshark' },
  ],
}

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0

/** Whether clang links a libFuzzer target (the runtime is a separate package on Debian). */
function canLinkLibFuzzer() {
  if (!has('clang')) return false
  const dir = mkdtempSync(join(tmpdir(), 'ps-fuzz-probe-'))
  try {
    writeFileSync(join(dir, 'f.c'), 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n')
    return (
      spawnSync('clang', ['-fsanitize=fuzzer,address,undefined', join(dir, 'f.c'), '-o', join(dir, 'f')], { stdio: 'ignore' }).status === 0
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const isMissing = (t) => (t.probe ? !t.probe() : t.path ? !existsSync(t.path) : !has(t.cmd))

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts })
  if (r.error) throw r.error
  return r.status ?? 1
}

/** Hash of the dependency manifests; node_modules is current when it recorded the same hash. */
function manifestHash() {
  const h = createHash('sha256')
  for (const f of ['package.json', 'package-lock.json']) {
    if (existsSync(join(root, f))) h.update(readFileSync(join(root, f)))
  }
  return h.digest('hex')
}

function ensureNpmDeps() {
  const marker = join(root, 'node_modules/.pcie-scope-deps')
  if (existsSync(marker) && readFileSync(marker, 'utf8') === manifestHash()) return
  say('installing npm dependencies')
  // `npm install` honours the lockfile's versions. Not `npm ci`: npm 11 leaves other platforms'
  // optional packages (rollup, esbuild) out of a lockfile written without registry URLs, and
  // `npm ci` then refuses it as out of sync.
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
  if (r.error || r.status !== 0) throw new Error(`npm install failed\n${r.stdout ?? ''}${r.stderr ?? r.error?.message ?? ''}`)
  writeFileSync(marker, manifestHash())
}

function ensureSystemPackages(purposes) {
  const missing = purposes.flatMap((p) => TOOLS[p]).filter(isMissing)
  if (missing.length === 0) return
  const pkgs = [...new Set(missing.map((t) => t.pkg))]
  const install = `apt-get update && apt-get install -y --no-install-recommends ${pkgs.join(' ')}`
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  const sudo = !isRoot && has('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0
  if (process.env.PCIE_SCOPE_NO_APT === '1' || (!isRoot && !sudo) || !has('apt-get')) {
    throw new Error(`missing system packages: ${pkgs.join(', ')}.\nInstall them with:\n  sudo ${install}`)
  }
  say(`installing system packages: ${pkgs.join(' ')}`)
  const sh = sudo ? ['sudo', ['sh', '-c', install]] : ['sh', ['-c', install]]
  const status = run(sh[0], sh[1], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
  if (status !== 0) throw new Error(`apt-get failed; run it yourself:\n  sudo ${install}`)
}

/**
 * The build steps, run side by side (each is incremental: a step whose outputs are newer than its
 * sources returns at once). One line per step; a tool's output only when its step fails.
 */
async function build() {
  const steps = [
    ['build-ts.mjs', 'TypeScript'],
    ['build-web.mjs', 'web UI bundle'],
    ['build-twin.mjs', 'twin (Verilator + firmware + traffic model)'],
    ['build-native.mjs', 'native addon'],
  ]
  const env = { ...process.env, ...compilerCacheEnv(root) }
  const results = await Promise.all(
    steps.map(
      ([script, what]) =>
        new Promise((done) => {
          const started = performance.now()
          const child = spawn(process.execPath, [join(root, 'scripts', script)], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
          let out = ''
          child.stdout.on('data', (d) => (out += d))
          child.stderr.on('data', (d) => (out += d))
          child.on('error', (e) => done({ what, ok: false, out: e.message }))
          child.on('close', (code) => {
            const ok = code === 0
            say(`${ok ? 'built' : 'FAILED'}: ${what} (${((performance.now() - started) / 1000).toFixed(1)} s)`)
            done({ what, ok, out })
          })
        }),
    ),
  )
  const failed = results.filter((r) => !r.ok)
  for (const r of failed) process.stderr.write(`\n[setup] ${r.what}:\n${r.out}\n`)
  if (failed.length) throw new Error(`the build failed: ${failed.map((r) => r.what).join(', ')}`)
}

/** purpose: 'start' (run the twin, server and UI) or 'test' (also the HDL tools and chromium). */
export async function setup(purpose) {
  ensureNpmDeps()
  ensureSystemPackages(purpose === 'test' ? ['start', 'test'] : ['start'])
  await build()
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await setup(process.argv[2] === 'start' ? 'start' : 'test')
  } catch (e) {
    say(e instanceof Error ? e.message : String(e))
    process.exit(1)
  }
}
