import { describe, expect, it } from 'vitest'
import { takeToken, type AddressBar, type HistoryLike, type StoreLike } from '../../web/token.js'

function page(href: string) {
  const data = new Map<string, string>()
  const store = {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  } as StoreLike
  const replaced: string[] = []
  const hist = { state: null, replaceState: (_s: unknown, _t: string, url: string) => void replaced.push(url) } as HistoryLike
  return { loc: { href } as AddressBar, hist, store, replaced }
}

describe('takeToken', () => {
  it('takes ?token= out of the address bar and keeps it for a reload', () => {
    const p = page('http://127.0.0.1:8737/?token=abc123&x=1#h')
    expect(takeToken(p.loc, p.hist, p.store)).toBe('abc123')
    expect(p.replaced).toEqual(['/?x=1#h'])
    const reload = { ...p, loc: { href: 'http://127.0.0.1:8737/' } as AddressBar }
    expect(takeToken(reload.loc, reload.hist, reload.store)).toBe('abc123')
  })

  it('is empty when neither the address nor the session has one', () => {
    const p = page('http://127.0.0.1:8737/')
    expect(takeToken(p.loc, p.hist, p.store)).toBe('')
    expect(p.replaced).toEqual([])
  })
})
