// Shared by the native/cuda integration tests: build the GPU runner (scripts/build-gpu.mjs) and
// run it, parsing its JSON lines (docs/contracts.md, "GPU runner").
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

export const root = resolve(import.meta.dirname, '../../..')

/** nvcc on PATH (or CUDACXX): the runner builds with CUDA. */
export const hasNvcc = (): boolean => {
  const r = spawnSync(process.env.CUDACXX ?? 'nvcc', ['--version'], { stdio: 'ignore' })
  return !r.error && r.status === 0
}

/** `nvidia-smi -L` lists at least one GPU. */
export const gpuPresent = (): boolean => {
  const r = spawnSync('nvidia-smi', ['-L'], { encoding: 'utf8' })
  return !r.error && r.status === 0 && /^GPU \d+/m.test(r.stdout)
}

/** Builds the runner into build/<dir>; returns its path and the build script's output. */
export function buildRunner(dir: string, args: string[]): { binary: string; status: number | null; output: string } {
  const r = spawnSync(process.execPath, ['scripts/build-gpu.mjs', '--build-dir', resolve(root, 'build', dir), ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 32 << 20,
  })
  return { binary: resolve(root, 'build', dir, 'pcie-scope-gpu'), status: r.status, output: r.stdout + r.stderr }
}

export interface RunnerOutput {
  status: number | null
  stdout: string
  stderr: string
  /** every stdout line parsed as JSON */
  objects: Record<string, unknown>[]
}

export function runRunner(binary: string, args: string[], timeoutMs = 600_000, env?: NodeJS.ProcessEnv): RunnerOutput {
  const r = spawnSync(binary, args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 32 << 20, env: env ?? process.env })
  if (r.error) throw r.error
  const objects = r.stdout
    .split('\n')
    .filter((l) => l.trim() && l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, objects }
}
