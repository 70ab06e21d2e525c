/**
 * What the badge says: one word for where the readings on the page come from, derived from the
 * feed, the server's status and the age of the newest snapshot. DOM-free, so it is unit-tested.
 *
 * Order matters: a page that cannot authenticate or reach the server knows nothing else; a
 * disconnected device outranks the user's pause; stopped (STOP went through) and stale (streaming
 * was asked for, yet nothing arrived) both mean the numbers shown are old.
 */
import type { ServerStatus } from '../host/src/core/wire.js'

export type FeedState = 'connecting' | 'open' | 'unreachable'
export type AuthState = 'ok' | 'missing' | 'rejected'

export type LiveKey =
  'token-missing' | 'token-wrong' | 'connecting' | 'unreachable' | 'disconnected' | 'paused' | 'stopped' | 'stale' | 'live' | 'replay'

export interface LiveState {
  key: LiveKey
  /** badge text */
  text: string
  /** badge colour class: ok, wait or bad */
  tone: 'ok' | 'wait' | 'bad'
  /** a sentence for the banner and the badge's tooltip: what it means and what to do */
  hint: string
}

/** No snapshot for this long while streaming: the stream is stale (5 periods, at least 2 s). */
export const staleAfterMs = (periodMs: number): number => Math.max(2_000, 5 * periodMs)

export interface LiveInputs {
  auth: AuthState
  feed: FeedState
  status: ServerStatus | undefined
  paused: boolean
  /** page time (ms) the newest snapshot arrived, or undefined if none has */
  lastSnapshotAt: number | undefined
  now: number
  /** the recording the page shows instead of the device, if any */
  replaying?: string | null
}

const URL_HINT = 'open the URL that `npm start` or `pcie-scope serve` printed (…/?token=…)'

export function liveState(i: LiveInputs): LiveState {
  if (i.auth === 'missing')
    return { key: 'token-missing', text: 'no token', tone: 'bad', hint: `This page needs the server's token: ${URL_HINT}.` }
  if (i.auth === 'rejected') {
    return {
      key: 'token-wrong',
      text: 'wrong token',
      tone: 'bad',
      hint: `The server refused this token (a restarted server makes a new one): ${URL_HINT}.`,
    }
  }
  // a saved recording on the page: nothing in it is live, whatever the device does
  if (i.replaying)
    return {
      key: 'replay',
      text: `saved recording: ${i.replaying}`,
      tone: 'wait',
      hint: 'The page shows a saved recording, not the device. Press Back to live to watch the device again.',
    }
  if (i.feed === 'unreachable')
    return {
      key: 'unreachable',
      text: 'server unreachable – reconnecting',
      tone: 'wait',
      hint: 'The server does not answer; the page keeps what it has and retries.',
    }
  if (i.feed === 'connecting' || !i.status) return { key: 'connecting', text: 'connecting…', tone: 'wait', hint: '' }
  const st = i.status
  if (!st.connected) {
    // a supervised twin: say that the server is bringing it back, and how often it had to
    const sup = st.supervision
    const restarting = sup?.state === 'restarting'
    const again = restarting ? `. The server is restarting the twin (${sup.restarts} restart${sup.restarts === 1 ? '' : 's'} so far).` : ''
    return {
      key: 'disconnected',
      text: restarting
        ? `twin down, restarting${st.error ? ` (${st.error.code})` : ''}`
        : `device disconnected${st.error ? ` (${st.error.code})` : ''}`,
      tone: 'bad',
      hint: (st.error?.message ?? 'The device is gone; the server keeps the last readings and reconnects when it can.') + again,
    }
  }
  if (i.paused) return { key: 'paused', text: 'paused', tone: 'wait', hint: 'The view is frozen; data still arrives and shows on Resume.' }
  if (!st.streaming)
    return {
      key: 'stopped',
      text: 'stopped',
      tone: 'wait',
      hint: 'Counters and streaming are stopped: the numbers are the last ones read. Press Start.',
    }
  const age = i.lastSnapshotAt === undefined ? Infinity : i.now - i.lastSnapshotAt
  if (age > staleAfterMs(st.streaming.periodMs)) {
    const text = Number.isFinite(age) ? `stale: no snapshot for ${(age / 1000).toFixed(0)} s` : 'stale: no snapshot yet'
    return { key: 'stale', text, tone: 'bad', hint: 'Streaming is on but no snapshot arrives: the device or its link may be hung.' }
  }
  return { key: 'live', text: 'live', tone: 'ok', hint: '' }
}
