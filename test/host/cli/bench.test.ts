/** `pcie-scope bench` and `capture --gpu --port` in process, with a fake addon and fake probes. */
import { afterEach, describe, expect, it } from 'vitest'
import { main } from '../../../host/src/cli/main.js'
import type { CliDeps, CliIo } from '../../../host/src/cli/io.js'
import { PsError } from '../../../host/src/core/errors.js'
import { SIZE_CLASSES } from '../../../host/src/core/size-classes.js'
import type { WorkloadRunner } from '../../../host/src/core/workload.js'
import { ProbeClient } from '../../../host/src/device/client.js'
import type { DeviceSession, OpenSessionOptions } from '../../../host/src/device/session.js'
import { closeSessions, fakeSession } from '../measure/fake-session.js'
import { duplexPair, FakeDevice } from '../device/fake-device.js'
import { FAKE_DEVICE, makeFakeAddon, nativeError, type FakeAddonOptions } from '../workload/fake-addon.js'

afterEach(closeSessions)

const run = async (args: string[], deps: Partial<CliDeps>, tty = false) => {
  let stdout = ''
  let stderr = ''
  const io: CliIo = { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), stderrIsTTY: tty }
  const code = await main(['node', 'pcie-scope', ...args], io, deps)
  return { code, stdout, stderr }
}

const noSession = async (): Promise<DeviceSession> => {
  throw new Error('no session expected')
}

const gpuDeps = (o: FakeAddonOptions = {}) => {
  const addon = makeFakeAddon(o)
  return { addon, deps: { loadAddon: () => addon, openSession: noSession } }
}

describe('pcie-scope bench --gpu --devices', () => {
  it('runs every micro kernel on the listed GPUs at once, each alone and the total', async () => {
    const { addon, deps } = gpuDeps({ devices: [FAKE_DEVICE, FAKE_DEVICE] })
    const r = await run(['bench', '--gpu', '--devices', '0,1', '--bytes', '1M'], deps)
    expect(r.code).toBe(0)
    expect(addon.runs).toHaveLength(4)
    expect(addon.runs.every((x) => JSON.stringify((x as { devices?: number[] }).devices) === '[0,1]')).toBe(true)
    expect(r.stdout).toMatch(/^suite micro on GPUs 0, 1 at once, 1048576 B per kernel per GPU/)
    expect(r.stdout).toMatch(/merged-chunked e4\s+50\.00 \/ 50\.00\s+45\.00 \/ 45\.00\s+90\.00\s+100\.00\s+ok/)
  })

  it('--devices all asks the addon for the devices; --devices needs --gpu --suite micro', async () => {
    const { addon, deps } = gpuDeps()
    const r = await run(['bench', '--gpu', '--devices', 'all', '--bytes', '1M', '--json'], deps)
    expect(r.code).toBe(0)
    expect((JSON.parse(r.stdout) as { devices: number[] }).devices).toEqual([0])
    expect(addon.runs).toHaveLength(4)
    const bad = await run(['bench', '--gpu', '--suite', 'graph', '--devices', 'all'], deps)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--devices goes with --gpu --suite micro/)
  })

  it('refuses a device the machine lacks, or one named twice, before any run', async () => {
    const { addon, deps } = gpuDeps({ devices: [FAKE_DEVICE, FAKE_DEVICE] })
    const missing = await run(['bench', '--gpu', '--devices', '0,7', '--bytes', '1M'], deps)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/--devices 0,7: no device 7 here \(this machine has 2 CUDA devices: 0\.\.1\)/)
    const twice = await run(['bench', '--gpu', '--devices', '1,1', '--bytes', '1M'], deps)
    expect(twice.code).toBe(2)
    expect(twice.stderr).toMatch(/names a device twice/)
    const word = await run(['bench', '--gpu', '--devices', '0,x', '--bytes', '1M'], deps)
    expect(word.code).toBe(2)
    expect(word.stderr).toMatch(/--devices needs all or device ordinals/)
    expect(addon.runs).toHaveLength(0)
  })

  it('on a machine without a GPU fails with PS_GPU_UNAVAILABLE and one sentence', async () => {
    const { deps } = gpuDeps({ devices: { reject: nativeError('PS_GPU_NO_DEVICE', 'no CUDA device is usable on this machine.') } })
    const r = await run(['bench', '--gpu', '--devices', 'all'], deps)
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/PS_GPU_UNAVAILABLE/)
    expect(r.stderr).toMatch(/no CUDA device is usable on this machine/)
  })
})

describe('pcie-scope bench --gpu', () => {
  it('runs every micro kernel, with the prediction beside GB/s and the two ratios', async () => {
    const { addon, deps } = gpuDeps()
    const r = await run(['bench', '--gpu', '--suite', 'micro', '--bytes', '1M', '--repeats', '3'], deps)
    expect(r.code).toBe(0)
    expect(r.stderr).toBe('') // not a terminal: no bar
    expect(addon.runs.map((x) => x.pattern)).toEqual(['strided', 'merged-aligned', 'merged-misaligned', 'merged-chunked'])
    expect(addon.runs.every((x) => x.repeats === 3 && x.bytes === 1 << 20)).toBe(true)
    const lines = r.stdout.split('\n')
    expect(lines[0]).toMatch(
      /^suite micro on Fake H200 \(PCIe gen5 x16, driver 570.86.15, CUDA 12.8 driver API, runtime 12.8\), 1048576 B per kernel$/,
    )
    expect(lines[2]).toMatch(
      /^kernel\s+predicted MRd\s+predicted sizes\s+predicted GB\/s\s+GB\/s\s+memcpy GB\/s\s+x memcpy\s+x 128-B ceiling\s+checksum$/,
    )
    expect(r.stdout).toMatch(/strided e4\s+32768\s+32:32768\s+21\.50\s+50\.00\s+55\.00\s+0\.91\s+1\.02\s+ok/)
    expect(r.stdout).toMatch(/merged-misaligned e4\s+16384\s+96:8192 32:8192\s/)
  })

  it('--json: one object, no bar even on a terminal', async () => {
    const { deps } = gpuDeps({ progress: [{ phase: 'kernel', done: 1, total: 1 }] })
    const r = await run(['bench', '--gpu', '--bytes', '4096', '--json'], deps, true)
    expect(r.code).toBe(0)
    expect(r.stderr).toBe('')
    const j = JSON.parse(r.stdout) as {
      source: string
      device: { name: string }
      rows: { kernel: string; predicted: { count: number }; gpu: { ratioToMemcpy: number } }[]
    }
    expect(j.source).toBe('gpu')
    expect(j.device.name).toBe('Fake H200')
    expect(j.rows.map((x) => [x.kernel, x.predicted.count])).toEqual([
      ['strided e4', 128],
      ['merged-aligned e4', 32],
      ['merged-misaligned e4', 64],
      ['merged-chunked e4', 64],
    ])
  })

  it('draws a progress bar on a terminal and erases it before the table', async () => {
    const { deps } = gpuDeps({ progress: [{ phase: 'kernel', done: 1, total: 2 }] })
    const r = await run(['bench', '--gpu', '--bytes', '4096'], deps, true)
    expect(r.stderr).toContain('] 0/4 strided e4')
    expect(r.stderr).toContain('strided e4 kernel 1/2')
    expect(r.stderr.endsWith('\r\x1b[2K')).toBe(true)
  })

  it('stops with PS_GPU_UNAVAILABLE (exit 1) and the reason when there is no GPU', async () => {
    const { deps } = gpuDeps({ gpu: { reject: nativeError('PS_GPU_NO_DEVICE', 'no CUDA device is usable on this machine.') } })
    const r = await run(['bench', '--gpu', '--bytes', '4096'], deps)
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('[PS_GPU_UNAVAILABLE]: no CUDA device is usable on this machine. (PS_GPU_NO_DEVICE)')
  })

  it('keeps going past a kernel that fails, marks it and exits 1', async () => {
    const { deps } = gpuDeps({ gpu: { reject: nativeError('PS_GPU_CUDA', 'an illegal address was encountered.') } })
    const r = await run(['bench', '--gpu', '--bytes', '4096'], deps)
    expect(r.code).toBe(1)
    expect(r.stdout.match(/FAILED \[PS_GPU_FAILED\]/g)).toHaveLength(4)
  })

  it('says when the addon is not built', async () => {
    const r = await run(['bench', '--gpu'], {
      loadAddon: () => {
        throw new PsError('PS_NATIVE_NOT_BUILT', 'the native addon is not built; build it with `npm run build:native`')
      },
    })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('PS_NATIVE_NOT_BUILT')
    expect(r.stderr).toContain('npm run build:native')
  })

  it('usage: exactly one of --gpu and --twin; --repeats only on a GPU; a known suite', async () => {
    const { deps } = gpuDeps()
    expect((await run(['bench', '--suite', 'micro'], deps)).code).toBe(2)
    expect((await run(['bench', '--gpu', '--twin'], deps)).code).toBe(2)
    expect((await run(['bench', '--twin', '--repeats', '3'], deps)).code).toBe(2)
    expect((await run(['bench', '--gpu', '--suite', 'macro'], deps)).code).toBe(2)
  })
})

describe('pcie-scope bench --twin', () => {
  it("compares the twin probe's counts with the prediction and flags a difference", async () => {
    const addon = makeFakeAddon()
    // the fake twin issues only 128-B reads: right for merged-aligned, wrong for the others
    const r = await run(['bench', '--twin', '--bytes', '4096'], {
      loadAddon: () => addon,
      openSession: async () => (await fakeSession()).s,
    })
    expect(r.stdout).toMatch(/suite micro on the twin, 4096 B per kernel/)
    expect(r.stdout).toMatch(/merged-aligned e4\s+32\s+128:32\s+32\s+128:32\s+yes/)
    expect(r.stdout).toMatch(/strided e4\s+128\s+32:128\s+32\s+128:32\s+NO/)
    expect(r.code).toBe(1)
    expect(addon.runs).toHaveLength(0)
  })

  it("runs on the twin's default design (the switch) unless --mode names one; --mode is the twin's alone", async () => {
    const opened: OpenSessionOptions[] = []
    const deps = {
      loadAddon: () => makeFakeAddon(),
      openSession: async (o: OpenSessionOptions) => {
        opened.push(o)
        return (await fakeSession()).s
      },
    }
    await run(['bench', '--twin', '--bytes', '4096'], deps)
    await run(['bench', '--twin', '--bytes', '4096', '--mode', 'endpoint'], deps)
    expect(opened).toEqual([{ twin: true }, { twin: true, twinOptions: { mode: 'endpoint' } }])
    const gpu = await run(['bench', '--gpu', '--mode', 'switch'], deps)
    expect(gpu.code).toBe(2)
    expect(gpu.stderr).toContain('--mode only applies to the twin')
  })
})

/** A board session whose probe counts what the (GPU) runner it was opened with says it issued. */
const boardSession = async (opts: OpenSessionOptions): Promise<DeviceSession> => {
  if (!('port' in opts)) throw new Error('a board session was expected')
  const [host, dev] = duplexPair()
  const device = new FakeDevice(dev)
  const client = new ProbeClient(host, { timeoutMs: 500 })
  const info = await client.hello()
  const gpu = opts.runner!
  const runner: WorkloadRunner = {
    kind: gpu.kind,
    run: async (w, signal) => {
      const r = await gpu.run(w, signal)
      for (const c of SIZE_CLASSES) device.counters[c.counter] += r.issued.bySize[c.key]
      device.counters.mrdBytes += r.issued.bytes
      device.counters.cycles += 1000
      device.counters.timestamp += 1000
      return r
    },
  }
  return { source: 'serial', path: opts.port, info, client, runner, close: () => client.close() }
}

describe('pcie-scope capture --gpu --port', () => {
  it('runs the kernel on the GPU while the board counts, and checks the count against the model', async () => {
    const addon = makeFakeAddon()
    const r = await run(['capture', '--gpu', '--port', '/dev/ttyFAKE', '--pattern', 'merged-misaligned', '--bytes', '1M', '--json'], {
      loadAddon: () => addon,
      openSession: boardSession,
    })
    expect(r.stderr).not.toContain('error')
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout) as {
      source: string
      requests: { count: number }
      model: { kind: string; matchesProbe: boolean; gpu: { device: { name: string } } }
    }
    expect(j.source).toBe('serial')
    expect(j.requests.count).toBe(16384)
    expect(j.model).toMatchObject({ kind: 'cuda', matchesProbe: true, gpu: { device: { name: 'Fake H200' } } })
    expect(addon.runs).toEqual([{ pattern: 'merged-misaligned', bytes: 1 << 20, offset: 32 }])
  })
  it('prints the GPU line in the table', async () => {
    const r = await run(['capture', '--gpu', '--port', '/dev/ttyFAKE', '--pattern', 'strided', '--bytes', '64K'], {
      loadAddon: () => makeFakeAddon(),
      openSession: boardSession,
    })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^GPU\s+Fake H200: kernel 50 GB\/s .* checksum ok$/m)
    expect(r.stdout).toMatch(/model check\s+model issued 2048 MRd: matches the probe/)
  })
  it('checks the GPU before it opens the port: no device, no board touched', async () => {
    let opened = 0
    const addon = makeFakeAddon({ devices: { reject: nativeError('PS_GPU_NO_DEVICE', 'no CUDA device is usable on this machine.') } })
    const r = await run(['capture', '--gpu', '--port', '/dev/ttyFAKE', '--pattern', 'strided'], {
      loadAddon: () => addon,
      openSession: async (o) => {
        opened++
        return boardSession(o)
      },
    })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('[PS_GPU_UNAVAILABLE]: no CUDA device is usable on this machine. (PS_GPU_NO_DEVICE)')
    expect(opened).toBe(0)
    expect(addon.runs).toHaveLength(0)
  })
  it('usage: --gpu needs --port; --port alone still says what is missing', async () => {
    const deps = { loadAddon: () => makeFakeAddon(), openSession: boardSession }
    const a = await run(['capture', '--gpu', '--pattern', 'strided'], deps)
    expect(a.code).toBe(2)
    expect(a.stderr).toContain('--gpu runs the kernel while a board counts: it needs --port PATH')
    const b = await run(['capture', '--port', '/dev/ttyFAKE', '--pattern', 'strided'], deps)
    expect(b.code).toBe(1)
    expect(b.stderr).toContain('PS_WORKLOAD_UNSUPPORTED')
    expect(b.stderr).toContain('--gpu')
  })
})
