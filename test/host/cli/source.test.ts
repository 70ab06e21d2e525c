/** The option scope table: each option that applies to some sources only is refused elsewhere, in one message format. */
import { describe, expect, it } from 'vitest'
import { checkOptionScopes, OPTION_SCOPES, pickSource } from '../../../host/src/cli/source.js'
import { runCli } from './run-cli.js'

/** a valid value for every twin-only option of `capture` */
const CAPTURE_TWIN_ONLY: [string, string][] = [
  ['--latency-cycles', '9'],
  ['--link', 'gen3x16'],
  ['--mode', 'endpoint'],
  ['--cpl-split', '64'],
  ['--segments', '4'],
  ['--tags', '64'],
  ['--latency-ns', '100'],
  ['--latency-dist', 'uniform:800:1600'],
]

describe('checkOptionScopes', () => {
  it('passes options given where they apply and options not given anywhere', () => {
    expect(() => checkOptionScopes('twin', { link: 'gen3x16', mode: 'switch', tags: 8, repeats: undefined })).not.toThrow()
    expect(() => checkOptionScopes('board', { baud: 9600 })).not.toThrow()
    expect(() => checkOptionScopes('gpu', { repeats: 3 })).not.toThrow()
    expect(() => checkOptionScopes('board', {})).not.toThrow()
  })
  it('refuses each scoped option elsewhere with PS_USAGE, naming the option and where it applies', () => {
    const where = { twin: 'to the twin', board: 'with --port PATH', gpu: 'with --gpu' } as const
    for (const [key, scope] of Object.entries(OPTION_SCOPES)) {
      for (const source of ['twin', 'board', 'gpu'] as const) {
        if ((scope.sources as readonly string[]).includes(source)) continue
        expect(() => checkOptionScopes(source, { [key]: 1 }), `${key} on ${source}`).toThrow(
          expect.objectContaining({ code: 'PS_USAGE', message: `${scope.flag} only applies ${where[scope.sources[0]]}` }),
        )
      }
    }
  })
  it('pickSource checks the scopes against the probe it picks', () => {
    expect(() => pickSource({ port: '/dev/ttyUSB0', link: 'gen3x16' } as object)).toThrow('--link only applies to the twin')
    expect(() => pickSource({ baud: 9600 })).toThrow('--baud only applies with --port PATH')
    expect(pickSource({ port: '/dev/ttyUSB0', baud: 9600 })).toEqual({ port: '/dev/ttyUSB0', baudRate: 9600 })
  })
})

describe('the commands refuse options outside their scope (exit 2)', () => {
  it('`capture` on a board: every twin-only option', async () => {
    for (const [flag, value] of CAPTURE_TWIN_ONLY) {
      const r = await runCli('capture', '--port', '/dev/ttyUSB0', '--gpu', '--pattern', 'strided', flag, value)
      expect(r.code, flag).toBe(2)
      expect(r.stderr, flag).toContain(`pcie-scope: error [PS_USAGE]: ${flag} only applies to the twin\n`)
    }
  })
  it('serve on a board: --link, --mode, --segments', async () => {
    for (const [flag, value] of [
      ['--link', 'gen3x16'],
      ['--mode', 'endpoint'],
      ['--segments', '4'],
    ]) {
      const r = await runCli('serve', '--port', '/dev/ttyUSB0', flag!, value!)
      expect(r.code, flag).toBe(2)
      expect(r.stderr, flag).toContain(`${flag} only applies to the twin`)
    }
  })
  it('bench: --mode with --gpu, --repeats with --twin; --baud without --port', async () => {
    expect((await runCli('bench', '--gpu', '--mode', 'endpoint')).stderr).toContain('--mode only applies to the twin')
    expect((await runCli('bench', '--twin', '--repeats', '3')).stderr).toContain('--repeats only applies with --gpu')
    const baud = await runCli('capture', '--baud', '9600', '--pattern', 'strided')
    expect(baud).toMatchObject({ code: 2, stderr: expect.stringContaining('--baud only applies with --port PATH') })
  })
})
