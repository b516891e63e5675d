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

/**
 * The longest wait a timer takes: setTimeout turns anything longer (and NaN) into 1 ms, which
 * would turn a long wait into a busy loop.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: async (ms, signal) => {
    // A wait longer than one timer is several timers in a row.
    let left = Number.isNaN(ms) ? 0 : Math.max(0, ms)
    do {
      const step = Math.min(left, MAX_TIMER_MS)
      await timer(step, signal)
      left -= step
    } while (left > 0)
  },
  random: () => Math.random()
}

function timer(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError())
    const onAbort = (): void => {
      clearTimeout(handle)
      reject(new CancelledError())
    }
    const handle = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
