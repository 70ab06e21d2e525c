/**
 * The one abortable sleep: resolves after `ms`, or rejects with `signal.reason` as soon as the
 * signal aborts (at once when it already has). The timer is cleared either way.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as unknown)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason as unknown)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
