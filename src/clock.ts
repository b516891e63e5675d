import { CancelledError } from './errors.js'

/**
 * Time as the retry and poll logic sees it. Injected everywhere so that tests can make
 * minutes pass in microseconds.
 */
export interface Clock {
  now(): number
  /** Resolves after `ms`, or rejects with CancelledError as soon as `signal` fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new CancelledError())
      const onAbort = (): void => {
        clearTimeout(timer)
        reject(new CancelledError())
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }, Math.max(0, ms))
      signal?.addEventListener('abort', onAbort, { once: true })
    })
}

/**
 * A clock whose sleeps return at once and advance its time: for tests and the polling benchmark.
 * `onSleep` may act at the moment the simulated time has passed (e.g. advance a simulated job).
 */
export function virtualClock(start = 0, onSleep?: (ms: number, now: number) => void): Clock & { advance(ms: number): void } {
  let now = start
  return {
    now: () => now,
    advance: (ms) => void (now += ms),
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new CancelledError()
      now += Math.max(0, ms)
      onSleep?.(ms, now)
      await Promise.resolve()
      if (signal?.aborted) throw new CancelledError()
    }
  }
}
