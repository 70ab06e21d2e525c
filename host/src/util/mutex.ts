/** A minimal async mutex: run functions one at a time, in call order. */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve()
  private waiting = 0

  /** Number of calls queued or running. */
  get size(): number {
    return this.waiting
  }

  run<T>(fn: () => Promise<T> | T): Promise<T> {
    this.waiting++
    const result = this.tail.then(fn)
    this.tail = result.then(
      () => undefined,
      () => undefined,
    )
    return result.finally(() => {
      this.waiting--
    })
  }
}
