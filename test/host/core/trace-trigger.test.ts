// host/src/core/trace-trigger.ts: the trigger and filter grammar of `pcie-scope trace` and POST /api/trace.
import { describe, expect, it } from 'vitest'
import { REG_RANGE } from '../../../host/src/core/generated.js'
import { parseFilter, parseTrigger } from '../../../host/src/core/trace-trigger.js'
import { traceArmArgs } from '../../../host/src/core/trace.js'

const HZ = 250e6
const settings = (text: string) => {
  const t = parseTrigger(text, HZ)
  if (t.force) throw new Error(`${text} parsed as force`)
  return t.settings
}
/** the PsError `fn` throws: its code and message */
const refusal = (fn: () => unknown): { code: string; message: string } => {
  try {
    fn()
  } catch (e) {
    return { code: (e as { code: string }).code, message: (e as Error).message }
  }
  throw new Error('accepted')
}

describe('parseTrigger: each term', () => {
  it('force, alone, any case', () => {
    expect(parseTrigger('force', HZ)).toEqual({ force: true, text: 'force' })
    expect(parseTrigger(' FORCE ', HZ)).toEqual({ force: true, text: 'FORCE' })
  })

  it('type= one kind or a list joined by | or ,, in the bits’ order', () => {
    expect(settings('type=cpld')).toEqual({ conditions: ['TYPE'], types: ['CPLD'] })
    expect(settings('type=CPLD|mrd')).toEqual({ conditions: ['TYPE'], types: ['MRD', 'CPLD'] })
    expect(settings('type = other, cpl,mwr | mwr')).toEqual({ conditions: ['TYPE'], types: ['MWR', 'CPL', 'OTHER'] })
  })

  it('addr=BASE:LIMIT in decimal or hex, inclusive', () => {
    expect(settings('addr=0x1000:0x1fff')).toEqual({ conditions: ['ADDR'], base: 0x1000, limit: 0x1fff })
    expect(settings('addr = 4096 : 4096')).toEqual({ conditions: ['ADDR'], base: 4096, limit: 4096 })
  })

  it('rid= as BB:DD.F (hex, as lspci) or a number', () => {
    expect(settings('rid=03:00.0').requesterId).toBe(0x0300)
    expect(settings('rid=ff:1f.7').requesterId).toBe(0xffff)
    expect(settings('rid=1:2.3').requesterId).toBe((1 << 8) | (2 << 3) | 3)
    expect(settings('rid=0x0100').requesterId).toBe(0x0100)
    expect(settings('rid=256')).toEqual({ conditions: ['RID'], requesterId: 256 })
  })

  it('tag=, len= in DW or exact bytes, status= by name or number', () => {
    expect(settings('tag=0x3ff')).toEqual({ conditions: ['TAG'], tag: 1023 })
    expect(settings('len=32')).toEqual({ conditions: ['LEN'], lengthDw: 32 })
    expect(settings('len=128B').lengthDw).toBe(32)
    expect(settings('len=4096b').lengthDw).toBe(1024)
    for (const [name, code] of [
      ['sc', 0],
      ['UR', 1],
      ['crs', 2],
      ['ca', 4],
      ['7', 7],
    ] as const)
      expect(settings(`status=${name}`)).toEqual({ conditions: ['STATUS'], status: code })
  })

  it('latency>T in clocks or ns/us/µs/ms at the clock given', () => {
    expect(settings('latency>2us')).toEqual({ conditions: ['LATENCY'], latencyClocks: 500 })
    expect(settings('latency>300ns').latencyClocks).toBe(75)
    expect(settings('latency>1.5µs').latencyClocks).toBe(375)
    expect(settings('latency>0.001ms').latencyClocks).toBe(250)
    expect(settings('latency > 123').latencyClocks).toBe(123)
    expect((parseTrigger('latency>2us', 100e6) as { settings: { latencyClocks: number } }).settings.latencyClocks).toBe(200)
  })

  it('outstanding>N, timeout, unexpected', () => {
    expect(settings('outstanding>100')).toEqual({ conditions: ['OUTSTANDING'], outstanding: 100 })
    expect(settings('timeout')).toEqual({ conditions: ['TIMEOUT'] })
    expect(settings('Unexpected')).toEqual({ conditions: ['UNEXPECTED'] })
  })

  it('every value at the ends of its register’s range', () => {
    expect(settings(`tag=${REG_RANGE.TRC_TRIG_TAG[1]}`).tag).toBe(1023)
    expect(settings(`outstanding>${REG_RANGE.TRC_TRIG_OUTSTANDING[1]}`).outstanding).toBe(2047)
    expect(settings(`latency>${REG_RANGE.TRC_TRIG_LATENCY[1]}`).latencyClocks).toBe(2 ** 32 - 1)
    expect(settings('len=1').lengthDw).toBe(1)
    expect(settings('rid=65535').requesterId).toBe(65535)
  })
})

describe('parseTrigger: conjunctions', () => {
  it('terms joined by & or "and", all conditions in TRC_TRIG_EN order', () => {
    const s = settings('type=mrd & addr=0x1000:0x1fff & len=128B')
    expect(s).toEqual({ conditions: ['TYPE', 'ADDR', 'LEN'], types: ['MRD'], base: 0x1000, limit: 0x1fff, lengthDw: 32 })
    expect(settings('type=cpld & latency>2us & rid=03:00.0').conditions).toEqual(['TYPE', 'RID', 'LATENCY'])
    expect(settings('tag=5 and type=cpld')).toEqual({ conditions: ['TYPE', 'TAG'], types: ['CPLD'], tag: 5 })
    expect(settings('timeout AND outstanding>7&unexpected').conditions).toEqual(['UNEXPECTED', 'OUTSTANDING', 'TIMEOUT'])
    const all = settings('type=cpld|mrd & rid=1 & tag=2 & len=3 & status=ur & latency>4 & unexpected & outstanding>5 & timeout')
    expect(all.conditions).toHaveLength(9)
    expect(settings('type=mwr & addr=0:1 & tag=1 & outstanding>1 & timeout').conditions).toEqual([
      'TYPE',
      'ADDR',
      'TAG',
      'OUTSTANDING',
      'TIMEOUT',
    ])
  })

  it('becomes the TRACE_ARM arguments bit for bit', () => {
    const a = traceArmArgs({ tap: 1, trigger: settings('type=cpld|cpl & tag=5 & status=ca & outstanding>9') })
    expect(a).toMatchObject({ tap: 1, trigEnable: 0b1_0010_1001, trigTypes: 0b01100, trigTag: 5, trigStatus: 4, trigOutstanding: 9 })
  })
})

describe('parseTrigger: refusals name the term and what is accepted', () => {
  const cases: [string, RegExp][] = [
    ['', /trigger: empty; expected force, or conditions joined by &/],
    ['sometimes', /term 'sometimes': unknown condition; expected force, or conditions .*type=KIND.*outstanding>N, timeout, unexpected/],
    ['latency<2us', /term 'latency<2us': expected latency>T/],
    ['tag=5 & & type=cpld', /an empty term/],
    ['tag=5 &', /an empty term/],
    ['force & tag=5', /term 'force': force fires at once and takes no other condition/],
    ['tag=1 & tag=2', /term 'tag=2': tag is given twice/],
    ['type=mrd|foo', /term 'type=mrd\|foo': 'foo' is not a kind: mrd, mwr, cpld, cpl, other/],
    ['type=', /term 'type=': expected type=KIND/],
    ['addr=0x2000:0x1000', /the limit is below the base/],
    ['addr=0x2000', /expected addr=BASE:LIMIT/],
    ['addr=0:0x20000000000000', /addresses must be at most 0x1fffffffffffff/],
    ['rid=03:20.0', /device 32 is above 0x1f/],
    ['rid=65536', /must be 0\.\.65535 \(TRC_TRIG_RID\)/],
    ['rid=bus', /Requester ID .* must be 0\.\.65535, decimal or 0x hex/],
    ['tag=1024', /term 'tag=1024': the tag must be 0\.\.1023 \(TRC_TRIG_TAG\)/],
    ['tag=-1', /the tag must be 0\.\.1023/],
    ['len=0', /must be 1\.\.1024 \(TRC_TRIG_LEN\)/],
    ['len=1025', /must be 1\.\.1024/],
    ['len=130B', /bytes must be a multiple of 4 in 4\.\.4096/],
    ['len=8192B', /bytes must be a multiple of 4 in 4\.\.4096/],
    ['status=8', /must be 0\.\.7 \(TRC_TRIG_STATUS\)/],
    ['status=ok', /the status \(sc, ur, crs, ca, or a number\)/],
    ['latency>2 days', /expected latency>T/],
    ['latency>1.5', /a latency in clocks is a whole number/],
    ['latency>99999999ms', /at most 4294967295 clocks \(TRC_TRIG_LATENCY\)/],
    ['latency=5', /expected latency>T/],
    ['outstanding>2048', /the threshold must be 0\.\.2047 \(TRC_TRIG_OUTSTANDING\)/],
    ['outstanding=5', /expected outstanding>N/],
    ['timeout>5', /expected timeout, alone/],
    ['unexpected=1', /expected unexpected, alone/],
    // conditions no one TLP meets together: the trigger would never fire
    ['type=mrd & addr=0:0xfff & latency>2us', /terms 'type=mrd' \(mrd\) and 'latency>2us' \(cpld\|cpl\) never hold for one TLP/],
    ['addr=0:1 & status=ur', /terms 'addr=0:1' \(mrd\|mwr\) and 'status=ur' \(cpld\|cpl\) never hold/],
    ['unexpected & type=mwr|other', /terms 'type=mwr\|other' \(mwr\|other\) and 'unexpected' \(cpld\|cpl\)/],
    ['type=cpld & addr=0:1', /terms 'type=cpld' \(cpld\) and 'addr=0:1' \(mrd\|mwr\)/],
  ]
  for (const [text, why] of cases)
    it(JSON.stringify(text), () => {
      const r = refusal(() => parseTrigger(text, HZ))
      expect(r.code).toBe('PS_USAGE')
      expect(r.message).toMatch(why)
    })
})

describe('parseFilter', () => {
  it('type= and/or addr=, joined by & or "and"', () => {
    expect(parseFilter('type=mrd|cpld')).toEqual({ text: 'type=mrd|cpld', filter: { types: ['MRD', 'CPLD'] } })
    expect(parseFilter('addr=0x100000000:0x10000ffff')).toEqual({
      text: 'addr=0x100000000:0x10000ffff',
      filter: { base: 0x1_0000_0000, limit: 0x1_0000_ffff },
    })
    expect(parseFilter(' type=cpld,mrd and addr=0:4095 ').filter).toEqual({ types: ['MRD', 'CPLD'], base: 0, limit: 4095 })
  })

  it('becomes the TRACE_ARM filter arguments', () => {
    const a = traceArmArgs({ filter: parseFilter('type=mrd|cpld & addr=0x1000:0x1fff').filter })
    expect(a).toMatchObject({ filterTypes: 0b00101, filterEnable: 1, filterBase: 0x1000, filterLimit: 0x1fff })
    expect(traceArmArgs({ filter: parseFilter('type=mwr').filter })).toMatchObject({ filterTypes: 0b00010, filterEnable: 0 })
  })

  const cases: [string, RegExp][] = [
    ['', /filter: empty; expected type=KIND.*and\/or addr=BASE:LIMIT/],
    ['tag=3', /filter term 'tag=3': a filter takes type=KIND.*and\/or addr=BASE:LIMIT/],
    ['latency>2us', /a filter takes/],
    ['type=mrd & type=cpld', /term 'type=cpld': type is given twice/],
    ['addr=0:1 & addr=2:3', /term 'addr=2:3': addr is given twice/],
    ['type=read', /'read' is not a kind/],
    ['addr=9:1', /filter term 'addr=9:1': the limit is below the base/],
    ['type=mrd &', /an empty term/],
  ]
  for (const [text, why] of cases)
    it(`refuses ${JSON.stringify(text)}`, () => {
      const r = refusal(() => parseFilter(text))
      expect(r.code).toBe('PS_USAGE')
      expect(r.message).toMatch(why)
    })
})
