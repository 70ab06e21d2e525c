import { describe, expect, it } from 'vitest'
import {
  parseCplSplit,
  parseFilter,
  parseHostPort,
  parseIntArg,
  parseLatencyDist,
  parseLink,
  parseSize,
} from '../../../host/src/cli/args.js'

describe('CLI argument parsers', () => {
  it('parses sizes with binary suffixes', () => {
    expect(parseSize('1048576')).toBe(1048576)
    expect(parseSize('1M')).toBe(1048576)
    expect(parseSize('64KiB')).toBe(65536)
    expect(parseSize('1g')).toBe(1 << 30)
    expect(() => parseSize('1.5M')).toThrow()
    expect(() => parseSize('-1')).toThrow()
    expect(() => parseSize('12Q')).toThrow()
  })
  it('parses integers', () => {
    expect(parseIntArg('32')).toBe(32)
    expect(() => parseIntArg('3.2')).toThrow()
    expect(() => parseIntArg('-4')).toThrow()
    expect(() => parseIntArg('99999999999999999999')).toThrow()
  })
  it('parses host:port', () => {
    expect(parseHostPort('127.0.0.1:8737')).toEqual({ host: '127.0.0.1', port: 8737 })
    expect(parseHostPort('localhost:0')).toEqual({ host: 'localhost', port: 0 })
    expect(parseHostPort('[::1]:9000')).toEqual({ host: '::1', port: 9000 })
    expect(parseHostPort('8080')).toEqual({ host: '127.0.0.1', port: 8080 })
    expect(() => parseHostPort('host:70000')).toThrow()
    expect(() => parseHostPort('nope')).toThrow()
  })
  it('parses the links the twin can model', () => {
    expect(parseLink('gen3x16')).toBe('gen3x16')
    expect(parseLink('Gen5x8')).toBe('gen5x8')
    expect(parseLink('ideal')).toBe('ideal')
    for (const bad of ['gen6x16', 'gen3x3', 'gen3x32', 'gen0x1', 'gen3', 'x16', '']) expect(() => parseLink(bad)).toThrow(/genGxL/)
  })
  it('parses the completion splits the responder knows', () => {
    expect([parseCplSplit('0'), parseCplSplit('64'), parseCplSplit('128')]).toEqual([0, 64, 128])
    for (const bad of ['32', '256', 'rcb', '']) expect(() => parseCplSplit(bad)).toThrow(/64 or 128/)
  })

  it('takes a latency distribution for the twin: fixed, or uniform:LO:HI ns with LO <= HI', () => {
    expect(parseLatencyDist('fixed')).toBe('fixed')
    expect(parseLatencyDist(' uniform:800:1600 ')).toBe('uniform:800:1600')
    expect(parseLatencyDist('uniform:1000:1000')).toBe('uniform:1000:1000')
    for (const bad of ['uniform:2000:1000', 'uniform:0:10', 'normal:1200:100', 'uniform:1e3:2000', 'uniform:1:2000000000', ''])
      expect(() => parseLatencyDist(bad), bad).toThrow(/fixed or uniform:LO:HI/)
  })
  it('parses address filter windows, hex or decimal, limit inclusive', () => {
    expect(parseFilter('0x100000000:0x10007ffff')).toEqual({ base: 2 ** 32, limit: 2 ** 32 + 0x7ffff })
    expect(parseFilter(' 4096 : 4096 ')).toEqual({ base: 4096, limit: 4096 })
    expect(() => parseFilter('0x2000:0x1fff')).toThrow(/below BASE/)
    expect(() => parseFilter('0x1000')).toThrow(/BASE:LIMIT/)
    expect(() => parseFilter('-1:5')).toThrow(/BASE:LIMIT/)
    expect(() => parseFilter('0x1:0xffffffffffffffff')).toThrow(/too large/)
  })
})
