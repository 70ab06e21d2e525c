import { describe, expect, it } from 'vitest'
import { Mutex } from '../../../host/src/util/mutex.js'
import { sleep } from '../../../host/src/util/sleep.js'

describe('Mutex', () => {
  it('runs one at a time in order, surviving rejections', async () => {
    const m = new Mutex()
    const seen: string[] = []
    const job = (n: string, ms: number, fail = false) =>
      m.run(async () => {
        seen.push(`start ${n}`)
        await sleep(ms)
        seen.push(`end ${n}`)
        if (fail) throw new Error(n)
        return n
      })
    const r = await Promise.allSettled([job('a', 20), job('b', 1, true), job('c', 1)])
    expect(r.map((x) => x.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(r[0]).toMatchObject({ value: 'a' })
    expect(seen).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
    expect(m.size).toBe(0)
  })

  it('counts the calls queued or running', async () => {
    const m = new Mutex()
    let release: (() => void) | undefined
    const first = m.run(() => new Promise<void>((r) => (release = r)))
    const second = m.run(() => 2)
    expect(m.size).toBe(2)
    await expect.poll(() => release).toBeTypeOf('function')
    release!()
    await first
    expect(await second).toBe(2)
    expect(m.size).toBe(0)
  })
})
