import { CancelledError } from './errors.js'

/**
 * Time and chance as the action sees them. Every wait, deadline and jitter goes through one
 * Clock, handed down from the entry point, so that tests can run minutes in milliseconds and the
 * benchmark can simulate hours of polling in an instant.
 */
export interface Clock {
  now(): number
  /** Resolves after `ms`, or rejects with CancelledError as soon as `signal` fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /** A number in [0, 1), for jitter. */
  random(): number
}

export const systemClock: Clock = {
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
    }),
  random: () => Math.random()
}
