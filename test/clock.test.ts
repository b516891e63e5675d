import { describe, expect, test } from '@jest/globals'
import { CancelledError } from '../src/common/errors.js'
import { withTimeout } from '../src/common/cancellation.js'
import { MAX_TIMER_MS, systemClock } from '../src/common/clock.js'

/** Settles `promise` into 'resolved', 'rejected' or 'pending' after `ms` of real time. */
async function stateAfter(promise: Promise<unknown>, ms: number): Promise<string> {
  const state = promise.then(
    () => 'resolved',
    () => 'rejected'
  )
  return Promise.race([state, new Promise<string>((resolve) => setTimeout(() => resolve('pending'), ms))])
}

describe('the system clock', () => {
  test.each([
    ['just over one timer', MAX_TIMER_MS + 1000],
    ['700 hours', 700 * 3_600_000],
    ['for ever', Number.POSITIVE_INFINITY]
  ])('a wait of %s does not turn into 1 ms (the timer limit), and still ends when cancelled', async (_, ms) => {
    const stop = new AbortController()
    const wait = systemClock.sleep(ms, stop.signal)
    expect(await stateAfter(wait, 30)).toBe('pending')
    stop.abort()
    await expect(wait).rejects.toBeInstanceOf(CancelledError)
  })

  test('a negative or NaN wait ends at once', async () => {
    expect(await stateAfter(systemClock.sleep(-5), 30)).toBe('resolved')
    expect(await stateAfter(systemClock.sleep(Number.NaN), 30)).toBe('resolved')
  })
})

describe('a bound on a piece of work', () => {
  test('ends the work with a reason that says how long it waited', async () => {
    const reason = await withTimeout(
      systemClock,
      20,
      undefined,
      (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)))
    )
      .then(() => undefined)
      .catch((error: unknown) => error)
    expect((reason as Error).message).toBe('no answer within 20ms')
  })
})
