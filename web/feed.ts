/**
 * The WebSocket feed with reconnection. A browser is not told why an upgrade failed, so before
 * each (re)connect the feed asks GET /api/status: a 401 means the token is wrong, and retrying
 * cannot help; no answer means the server is unreachable, and it retries with back-off.
 */
import type { ServerMessage } from '../host/src/core/wire.js'
import type { ApiClient } from './api.js'
import { ApiError } from './api.js'
import type { AppState } from './state.js'

const RETRY_FIRST_MS = 500
const RETRY_MAX_MS = 5_000

/** The running feed: `reconnect` drops the socket and opens a new one (its hello brings the live page back). */
export interface Feed {
  reconnect(): void
}

export function startFeed(state: AppState, api: ApiClient, changed: () => void): Feed {
  let retryMs = RETRY_FIRST_MS
  let socket: WebSocket | undefined
  const retry = () => {
    setTimeout(() => void connect(), retryMs)
    retryMs = Math.min(RETRY_MAX_MS, Math.max(RETRY_FIRST_MS, retryMs * 2))
  }

  async function connect(): Promise<void> {
    if (state.auth === 'missing') return changed()
    try {
      await api.get('status')
    } catch (e) {
      if (e instanceof ApiError && e.unauthorized) {
        state.tokenRejected()
        return changed()
      }
      state.feedLost()
      changed()
      return retry()
    }
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:'
    const ws = new WebSocket(`${proto}//${location.host}/ws?token=${encodeURIComponent(state.token)}`)
    socket = ws
    ws.onopen = () => {
      state.feedOpened()
      retryMs = RETRY_FIRST_MS
      changed()
    }
    ws.onmessage = (ev) => {
      // a saved recording on the page: the device's messages wait for Back to live (and its hello)
      if (typeof ev.data !== 'string' || state.replaying) return
      try {
        state.apply(JSON.parse(ev.data) as ServerMessage, Date.now())
      } catch (e) {
        console.error('bad message', e)
      }
      changed()
    }
    ws.onclose = () => {
      state.feedLost()
      changed()
      retry()
    }
  }

  void connect()
  return {
    reconnect() {
      // onclose retries at once: a fresh socket, a fresh hello
      retryMs = 0
      socket?.close()
    },
  }
}
