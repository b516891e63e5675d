/**
 * The test clock: one implementation of the action's Clock for every test. Its random numbers
 * come from a seeded PRNG, so jitter is the same on every run.
 *
 * - `acceleratedClock` runs real time `speed` times faster: for runs over real HTTP, where the
 *   simulator shares the clock (its jobs progress and its links expire in the same time), and
 *   every wait of the action (polls, retries, stall detection, timeouts) shrinks alike.
 * - `virtualClock` does not run at all: a sleep returns at once and moves time on. For pure loops
 *   (following a job, retrying) whose every step is simulated.
 */
import { type Clock, systemClock } from '../../src/common/clock.js'
import { CancelledError } from '../../src/common/errors.js'
import { seededRandom } from '../../simulator/random.js'

export interface TestClock extends Clock {
  /** Moves the clock on at once (e.g. to expire the links a simulator handed out). */
  advance(ms: number): void
  /** Every wait asked for, in clock ms. */
  readonly sleeps: number[]
}

/** Default speed: 30 s of stall detection take 0.3 s; a 5 s poll interval, 50 ms. */
export const TEST_SPEED = 100

export function acceleratedClock(options: { speed?: number; seed?: number } = {}): TestClock {
  const speed = options.speed ?? TEST_SPEED
  const random = seededRandom(options.seed ?? 1)
  const realStart = performance.now()
  const start = Date.now()
  let offset = 0
  const sleeps: number[] = []
  return {
    sleeps,
    now: () => start + offset + (performance.now() - realStart) * speed,
    advance: (ms) => void (offset += ms),
    random,
    // The system clock's sleep (which also splits waits too long for one timer), `speed` times shorter.
    sleep: (ms, signal) => {
      sleeps.push(ms)
      return systemClock.sleep(Math.max(0, ms) / speed, signal)
    }
  }
}

/**
 * `onSleep` may act at the moment the simulated time has passed (e.g. move a simulated job on).
 * Sleeps that overlap (a heartbeat beside a slow status request) wake in the order of their ends:
 * once nothing else is left to run (the next macrotask), the clock moves to the earliest end and
 * wakes that sleeper. So it is for work that waits only on the clock, not on real I/O.
 */
export function virtualClock(
  options: { start?: number; seed?: number; onSleep?: (ms: number, now: number) => void } = {}
): TestClock {
  let now = options.start ?? 0
  const random = seededRandom(options.seed ?? 1)
  const sleeps: number[] = []
  /** Sleepers not woken yet, in the order they began. */
  const asleep: Array<{ until: number; wake: () => void }> = []
  let waking = false
  const wakeNext = (): void => {
    if (waking || asleep.length === 0) return
    waking = true
    setImmediate(() => {
      waking = false
      let next = 0
      for (let i = 1; i < asleep.length; i++) if ((asleep[i]?.until ?? 0) < (asleep[next]?.until ?? 0)) next = i
      const [sleeper] = asleep.splice(next, 1)
      if (sleeper === undefined) return
      now = Math.max(now, sleeper.until)
      sleeper.wake()
      wakeNext()
    })
  }
  return {
    sleeps,
    now: () => now,
    advance: (ms) => void (now += ms),
    random,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(new CancelledError())
        sleeps.push(ms)
        const sleeper = {
          until: now + Math.max(0, ms),
          wake: () => {
            signal?.removeEventListener('abort', onAbort)
            options.onSleep?.(ms, now)
            if (signal?.aborted) reject(new CancelledError())
            else resolve()
          }
        }
        const onAbort = (): void => {
          asleep.splice(asleep.indexOf(sleeper), 1)
          reject(new CancelledError())
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        asleep.push(sleeper)
        wakeNext()
      })
  }
}

/**
 * A heartbeat line of a job followed on the accelerated clock. Between checks it says when the
 * next one comes; a heartbeat that falls while a status request is out (a loaded machine makes a
 * millisecond of real time a tenth of a second) says how long that request has waited.
 */
export function heartbeatPattern(state: RegExp): RegExp {
  return new RegExp(
    `: still ${state.source} after \\dm \\d\\ds; ` +
      /(next check in \d+m?s|its status request has waited \d+m?s for an answer)\.$/.source
  )
}
