import { afterEach, describe, expect, it, vi } from 'vitest'
import { sleep } from '../../../host/src/util/sleep.js'

afterEach(() => {
  vi.useRealTimers()
})

describe('sleep', () => {
  it('resolves after the delay, not before', async () => {
    vi.useFakeTimers()
    let done = false
    const p = sleep(100).then(() => (done = true))
    await vi.advanceTimersByTimeAsync(99)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await p
    expect(done).toBe(true)
  })

  it('rejects with the signal reason when aborted while sleeping, and clears its timer', async () => {
    vi.useFakeTimers()
    const ac = new AbortController()
    const reason = new Error('closing')
    const p = sleep(10_000, ac.signal)
    expect(vi.getTimerCount()).toBe(1)
    ac.abort(reason)
    await expect(p).rejects.toBe(reason)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('rejects at once when the signal has already aborted', async () => {
    vi.useFakeTimers()
    const p = sleep(10_000, AbortSignal.abort('gone'))
    expect(vi.getTimerCount()).toBe(0)
    await expect(p).rejects.toBe('gone')
  })

  it('removes its abort listener once it resolved', async () => {
    vi.useFakeTimers()
    const ac = new AbortController()
    const remove = vi.spyOn(ac.signal, 'removeEventListener')
    const p = sleep(5, ac.signal)
    await vi.advanceTimersByTimeAsync(5)
    await p
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function))
    ac.abort() // a later abort has nothing left to reject
  })
})
