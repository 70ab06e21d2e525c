/**
 * The API token: read once from `?token=` and taken out of the address bar (so it is not left in
 * history, screenshots or a shared link), kept in sessionStorage so that a reload still works.
 */
const KEY = 'pcie-scope-token'

/** The parts of Location, History and Storage used (structural, so Node tests can pass fakes). */
export interface AddressBar {
  readonly href: string
}
export interface HistoryLike {
  readonly state: unknown
  replaceState(data: unknown, unused: string, url: string): void
}
export interface StoreLike {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
}

export function takeToken(loc: AddressBar, hist: HistoryLike, store: StoreLike): string {
  const url = new URL(loc.href)
  const fromUrl = url.searchParams.get('token')
  if (fromUrl !== null) {
    store.setItem(KEY, fromUrl)
    url.searchParams.delete('token')
    hist.replaceState(hist.state, '', url.pathname + url.search + url.hash)
    return fromUrl
  }
  return store.getItem(KEY) ?? ''
}
