import { afterEach, describe, expect, it } from 'vitest'
import { createLogger, hex, isEnabled, resetLogConfig } from '../../../host/src/util/log.js'

const lines: string[] = []
const withDebug = (v: string | undefined) => {
  if (v === undefined) delete process.env['PCIE_SCOPE_DEBUG']
  else process.env['PCIE_SCOPE_DEBUG'] = v
  lines.length = 0
  resetLogConfig({ sink: (l) => lines.push(l) })
}
afterEach(() => withDebug(undefined))

describe('log', () => {
  it('is silent and does not evaluate lazy messages when disabled', () => {
    withDebug(undefined)
    let evaluated = false
    createLogger('ps:x').debug(() => {
      evaluated = true
      return 'x'
    })
    expect(evaluated).toBe(false)
    expect(lines).toEqual([])
  })
  it('enables namespaces by prefix, list and wildcard', () => {
    withDebug('ps:protocol, ps:device:*')
    expect(isEnabled('ps:protocol')).toBe(true)
    expect(isEnabled('ps:protocol:decoder')).toBe(true)
    expect(isEnabled('ps:protocolx')).toBe(false)
    expect(isEnabled('ps:device:client')).toBe(true)
    expect(isEnabled('ps:transport')).toBe(false)
    withDebug('*')
    expect(isEnabled('anything')).toBe(true)
  })
  it('writes enabled lines with level and namespace; errors always', () => {
    withDebug('ps:a')
    createLogger('ps:a').debug(() => 'hello')
    createLogger('ps:b').debug('hidden')
    createLogger('ps:b').error('shown')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/ debug ps:a hello$/)
    expect(lines[1]).toMatch(/ error ps:b shown$/)
  })
  it('formats hex dumps', () => {
    expect(hex(Buffer.from([0, 1, 255]))).toBe('00 01 ff')
    expect(hex(Buffer.alloc(10), 2)).toBe('00 00 … (10 B)')
  })
})
