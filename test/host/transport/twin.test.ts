import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { PsError } from '../../../host/src/core/errors.js'
import { locateTwin, TwinProcess, TWIN_BUILD_COMMAND } from '../../../host/src/transport/twin.js'
import { writeFakeTwin } from './fake-twin.js'

let bin: string
const twins: TwinProcess[] = []
beforeAll(() => {
  bin = writeFakeTwin()
})
afterEach(async () => {
  delete process.env['FAKE_TWIN_MODE']
  await Promise.all(twins.splice(0).map((t) => t.close()))
})
const launch = async (mode = 'normal', extra: Parameters<typeof TwinProcess.launch>[0] = {}) => {
  process.env['FAKE_TWIN_MODE'] = mode
  const t = await TwinProcess.launch({ binaryPath: bin, closeGraceMs: 300, ...extra })
  twins.push(t)
  return t
}

describe('TwinProcess', () => {
  it('reports a missing executable with the build command', () => {
    expect(() => locateTwin('/nonexistent/pcie-scope-twin')).toThrowError(expect.objectContaining({ code: 'PS_TWIN_NOT_BUILT' }))
    expect(() => locateTwin('/nonexistent/pcie-scope-twin')).toThrow(/build it with `npm run build:twin`/)
    expect(TWIN_BUILD_COMMAND).toBe('npm run build:twin')
  })

  it('reads the ready line (skipping non-JSON noise) and passes options as arguments', async () => {
    const t = await launch('noise', { latencyCycles: 100, tags: 32 })
    expect(t.pty).toBe('/dev/pts/999')
    // the fake echoes its arguments on stderr; a twin that dies shows its stderr in the error
    await expect(launch('die', { latencyCycles: 100, tags: 32 })).rejects.toThrow(/--latency-cycles 100 --tags 32/)
  })

  it('runs workloads and matches done lines by id', async () => {
    const t = await launch()
    const [a, b] = await Promise.all([
      t.run({ pattern: 'strided', bytes: 4096, offset: 0 }),
      t.run({ pattern: 'merged-aligned', bytes: 8192, offset: 0 }),
    ])
    expect(a).toMatchObject({ id: 1, pattern: 'strided', mrd: { count: 128, bySize: { '32': 128 } } })
    expect(b).toMatchObject({ id: 2, pattern: 'merged-aligned', mrd: { count: 64 } })
  })

  it('turns an error line into a rejected run and keeps going', async () => {
    const t = await launch()
    await expect(t.run({ pattern: 'bogus' as never, bytes: 128, offset: 0 })).rejects.toMatchObject({ code: 'PS_WORKLOAD_INVALID' })
    await expect(t.run({ pattern: 'strided', bytes: 128, offset: 0 })).resolves.toMatchObject({ id: 2 })
  })

  it('rejects pending runs with PS_TWIN_EXITED when the child dies, and emits exit', async () => {
    const t = await launch('crash-on-run')
    const exits: (number | null)[] = []
    t.on('exit', (code) => exits.push(code))
    await expect(t.run({ pattern: 'strided', bytes: 128, offset: 0 })).rejects.toMatchObject({ code: 'PS_TWIN_EXITED' })
    expect(exits).toEqual([7])
    expect(t.isRunning).toBe(false)
    await expect(t.run({ pattern: 'strided', bytes: 128, offset: 0 })).rejects.toMatchObject({ code: 'PS_TWIN_EXITED' })
  })

  it('fails to start with PS_TWIN_START and the stderr tail', async () => {
    process.env['FAKE_TWIN_MODE'] = 'die'
    const err = await TwinProcess.launch({ binaryPath: bin }).catch((e: Error) => e)
    expect(err).toMatchObject({ code: 'PS_TWIN_START' })
    expect((err as Error).message).toContain('boom: no model')
  })

  it('reports options the twin refuses (exit 2) as PS_USAGE with its own message, not its help text', async () => {
    process.env['FAKE_TWIN_MODE'] = 'refuse'
    const err = await TwinProcess.launch({ binaryPath: bin, tags: 999 }).catch((e: Error) => e)
    expect(err).toMatchObject({ code: 'PS_USAGE', message: 'the twin refused its options: --tags must be 1..256' })
  })

  it('times out waiting for ready', async () => {
    process.env['FAKE_TWIN_MODE'] = 'silent'
    await expect(TwinProcess.launch({ binaryPath: bin, readyTimeoutMs: 300 })).rejects.toMatchObject({ code: 'PS_TWIN_START' })
  })

  it('close() quits politely, and SIGKILLs a twin that ignores quit', async () => {
    const t = await launch()
    await t.close()
    expect(t.isRunning).toBe(false)
    const s = await launch('stubborn')
    const t0 = Date.now()
    await s.close()
    expect(s.isRunning).toBe(false)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250)
  })

  it('honours an abort signal', async () => {
    const t = await launch()
    const ac = new AbortController()
    const p = t.run({ pattern: 'strided', bytes: 128, offset: 0 }, { signal: ac.signal })
    const reason = new PsError('PS_DEVICE_CLOSED', 'closing (test)')
    ac.abort(reason)
    // rejects with the signal's reason, as it is
    await expect(p).rejects.toBe(reason)
    await expect(p).rejects.toMatchObject({ code: 'PS_DEVICE_CLOSED' })
    // an abort without a reason is an AbortError
    const bare = new AbortController()
    const q = t.run({ pattern: 'strided', bytes: 128, offset: 0 }, { signal: bare.signal })
    bare.abort()
    await expect(q).rejects.toMatchObject({ name: 'AbortError' })
    await expect(t.run({ pattern: 'strided', bytes: 256, offset: 0 })).resolves.toMatchObject({ bytes: 256 })
  })

  it('cancels an aborted run in the twin and settles it on its cancelled done line; the next run follows', async () => {
    const t = await launch('slow')
    const ac = new AbortController()
    const p = t.run({ pattern: 'strided', bytes: 4096, offset: 0 }, { signal: ac.signal })
    const reason = new PsError('PS_WORKLOAD_TIMEOUT', 'past its deadline (test)')
    const unanswered: string[] = []
    t.on('cancel-unanswered', (m) => unanswered.push(m))
    await new Promise((r) => setTimeout(r, 50)) // the run is in the twin
    const t0 = Date.now()
    ac.abort(reason)
    await expect(p).rejects.toBe(reason)
    expect(Date.now() - t0).toBeLessThan(1000)
    expect(unanswered).toEqual([])
    // a timeoutMs cancels the same way
    await expect(t.run({ pattern: 'strided', bytes: 4096, offset: 0 }, { timeoutMs: 50 })).rejects.toMatchObject({
      code: 'PS_WORKLOAD_TIMEOUT',
      message: expect.stringMatching(/did not finish run 2 within 50 ms/),
    })
  })

  it('a cancel the twin leaves unanswered settles the run after cancelGraceMs and says so', async () => {
    const t = await launch('deaf', { cancelGraceMs: 200 })
    const ac = new AbortController()
    const p = t.run({ pattern: 'strided', bytes: 4096, offset: 0 }, { signal: ac.signal })
    const unanswered = new Promise<string>((r) => t.once('cancel-unanswered', r))
    const reason = new PsError('PS_RUN_CANCELLED', 'the client went away (test)')
    await new Promise((r) => setTimeout(r, 50))
    ac.abort(reason)
    await expect(p).rejects.toBe(reason)
    expect(await unanswered).toMatch(/run 1 did not stop within 200 ms of its cancel/)
  })

  it("inject arms a line fault and resolves on the twin's answer; a refused one rejects", async () => {
    const t = await launch()
    await expect(t.inject('skip-seq', 3)).resolves.toEqual({ event: 'injected', kind: 'skip-seq', count: 3, seed: 0 })
    await expect(t.inject('flip' as 'crc')).rejects.toMatchObject({ code: 'PS_USAGE', message: expect.stringMatching(/refused the fault/) })
    // a refused fault does not fail a run in flight
    await expect(t.run({ pattern: 'strided', bytes: 256, offset: 0 })).resolves.toMatchObject({ bytes: 256 })
  })
})
