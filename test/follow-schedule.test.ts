import { describe, expect, test } from '@jest/globals'
import { seededRandom } from '../simulator/random.js'
import { type PollSettings, nextPollDelay } from '../src/follow/schedule.js'

const S = 1000
const settings: PollSettings = { initialIntervalMs: 5 * S, maxIntervalMs: 60 * S }
/** random() = 0.5 means no jitter at all. */
const noJitter = (): number => 0.5

/** The wait after a check at `at` seconds, the follow having begun at `followedFrom` (0 unless said). */
const delayAt = (at: number, random = noJitter, followedFrom = 0): number =>
  nextPollDelay(at * S - followedFrom, settings, random)
/** The lag allowed for an end `followedMs` into the follow: max(5 s, 15%). */
const lagBound = (followedMs: number): number => Math.max(5 * S, 0.15 * followedMs)

describe('the wait: 15% of the time followed, within poll-interval and max-poll-interval', () => {
  test('15% of the time followed, at least initialIntervalMs, at most maxIntervalMs', () => {
    const delays = [5, 20, 100, 200, 400, 1000, 10_000].map((s) => delayAt(s))
    expect(delays).toEqual([5 * S, 5 * S, 15 * S, 30 * S, 60 * S, 60 * S, 60 * S])
    // Counted from when the follow began, not from the first check or the step's start: a job
    // picked up at 900 s has been followed 100 s at 1000 s.
    expect(delayAt(1000, noJitter, 900 * S)).toBe(15 * S)
  })

  test('jitter spreads the waits, yet never past the lag bound nor below initialIntervalMs', () => {
    // Early on both bounds are 5 s: no room for jitter.
    for (const r of [0, 0.25, 0.75, 0.999999]) expect(delayAt(20, () => r)).toBe(5 * S)
    // Growing (200 s: 30 s allowed): only shorter, by at most 10%.
    const growing = new Set<number>()
    for (let i = 0; i <= 100; i++) {
      const d = delayAt(200, () => Math.min(i / 100, 0.999999))
      expect(d).toBeGreaterThanOrEqual(27 * S)
      expect(d).toBeLessThanOrEqual(30 * S)
      growing.add(Math.round(d))
    }
    expect(growing.size).toBeGreaterThan(30)
    // At the cap (1000 s: 150 s allowed): +-10% around maxIntervalMs, as before.
    const capped = new Set<number>()
    for (let i = 0; i <= 100; i++) {
      const d = delayAt(1000, () => Math.min(i / 100, 0.999999))
      expect(d).toBeGreaterThanOrEqual(54 * S)
      expect(d).toBeLessThanOrEqual(66 * S)
      capped.add(Math.round(d))
    }
    expect(capped.size).toBeGreaterThan(50)
    // Where the cap meets the bound (400 s: 60 s allowed), jitter may not lift the wait over it.
    expect(delayAt(400, () => 0.999999)).toBe(60 * S)
  })

  test('for any length, an end is noticed within max(5 s, 15%) of the time followed, checks at least 5 s apart', () => {
    // The checks a follow without progress makes, jittered, from 5 s to 3 h: the end of a job that
    // ends just after one check is seen at the next, so each wait is the worst lag at that point.
    for (let seed = 1; seed <= 20; seed++) {
      const random = seededRandom(seed)
      let at = 5 * S
      let worst = 0
      while (at < 3 * 3600 * S) {
        const wait = nextPollDelay(at, settings, random)
        expect(wait).toBeGreaterThanOrEqual(5 * S)
        worst = Math.max(worst, wait / lagBound(at))
        at += wait
      }
      expect(worst).toBeLessThanOrEqual(1)
    }
  })

  test('other settings: the floor and the cap are the inputs, the 15% rule the same', () => {
    const slow: PollSettings = { initialIntervalMs: 30 * S, maxIntervalMs: 10 * 60 * S }
    expect([60, 200, 1000, 4000, 10_000].map((s) => nextPollDelay(s * S, slow, noJitter))).toEqual([
      30 * S,
      30 * S,
      150 * S,
      600 * S,
      600 * S
    ])
    // poll-interval equal to max-poll-interval: every wait is it.
    const even: PollSettings = { initialIntervalMs: 10 * S, maxIntervalMs: 10 * S }
    for (const s of [1, 100, 10_000]) expect(nextPollDelay(s * S, even, () => 0)).toBe(10 * S)
  })
})
