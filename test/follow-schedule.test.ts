import { describe, expect, test } from '@jest/globals'
import { seededRandom } from '../simulator/random.js'
import { type PollObservation, type PollSettings, fitRate, nextPollDelay } from '../src/follow/schedule.js'

const S = 1000
const settings: PollSettings = { initialIntervalMs: 5 * S, maxIntervalMs: 60 * S }
/** random() = 0.5 means no jitter at all. */
const noJitter = (): number => 0.5

/** Observations at the given seconds with the given progress (undefined: absent). */
function obs(points: [seconds: number, progress: unknown][]): PollObservation[] {
  return points.map(([s, p]) => ({ at: s * S, status: 'running', progress: p as number | undefined }))
}
/** The wait after the last observation, the follow having begun at `followedFrom` (0 unless said). */
const delayAfter = (history: PollObservation[], startedAt?: number, random = noJitter, followedFrom = 0): number =>
  nextPollDelay(history, settings, { now: history.at(-1)?.at ?? 0, followedFrom, jobStartedAt: startedAt }, random)
/** A job without progress checked at the given seconds. */
const blindAt = (...seconds: number[]): PollObservation[] => obs(seconds.map((s) => [s, undefined]))
/** The lag allowed for an end `followedMs` into the follow: max(5 s, 15%). */
const lagBound = (followedMs: number): number => Math.max(5 * S, 0.15 * followedMs)

describe('blind waits (no usable progress)', () => {
  test('15% of the time followed, at least initialIntervalMs, at most maxIntervalMs', () => {
    const delays = [5, 20, 100, 200, 400, 1000, 10_000].map((s) => delayAfter(blindAt(s)))
    expect(delays).toEqual([5 * S, 5 * S, 15 * S, 30 * S, 60 * S, 60 * S, 60 * S])
    // Counted from when the follow began, not from the first check or the step's start: a job
    // picked up at 900 s has been followed 100 s at 1000 s.
    expect(delayAfter(blindAt(1000), undefined, noJitter, 900 * S)).toBe(15 * S)
  })

  test('jitter spreads the waits, yet never past the lag bound nor below initialIntervalMs', () => {
    // Early on both bounds are 5 s: no room for jitter.
    for (const r of [0, 0.25, 0.75, 0.999999]) expect(delayAfter(blindAt(20), undefined, () => r)).toBe(5 * S)
    // Growing (200 s: 30 s allowed): only shorter, by at most 10%.
    const growing = new Set<number>()
    for (let i = 0; i <= 100; i++) {
      const d = delayAfter(blindAt(200), undefined, () => Math.min(i / 100, 0.999999))
      expect(d).toBeGreaterThanOrEqual(27 * S)
      expect(d).toBeLessThanOrEqual(30 * S)
      growing.add(Math.round(d))
    }
    expect(growing.size).toBeGreaterThan(30)
    // At the cap (1000 s: 150 s allowed): +-10% around maxIntervalMs, as before.
    const capped = new Set<number>()
    for (let i = 0; i <= 100; i++) {
      const d = delayAfter(blindAt(1000), undefined, () => Math.min(i / 100, 0.999999))
      expect(d).toBeGreaterThanOrEqual(54 * S)
      expect(d).toBeLessThanOrEqual(66 * S)
      capped.add(Math.round(d))
    }
    expect(capped.size).toBeGreaterThan(50)
    // Where the cap meets the bound (400 s: 60 s allowed), jitter may not lift the wait over it.
    expect(delayAfter(blindAt(400), undefined, () => 0.999999)).toBe(60 * S)
  })

  test('for any length, an end is noticed within max(5 s, 15%) of the time followed, checks at least 5 s apart', () => {
    // The checks a follow without progress makes, jittered, from 5 s to 3 h: the end of a job that
    // ends just after one check is seen at the next, so each wait is the worst lag at that point.
    for (let seed = 1; seed <= 20; seed++) {
      const random = seededRandom(seed)
      const history: PollObservation[] = blindAt(5)
      let worst = 0
      while ((history.at(-1)?.at ?? 0) < 3 * 3600 * S) {
        const at = history.at(-1)?.at ?? 0
        const wait = nextPollDelay(history, settings, { now: at, followedFrom: 0 }, random)
        expect(wait).toBeGreaterThanOrEqual(5 * S)
        worst = Math.max(worst, wait / lagBound(at))
        history.push({ at: at + wait, status: 'running' })
      }
      expect(worst).toBeLessThanOrEqual(1)
    }
  })

  test('garbage progress (NaN, Infinity, out of range, strings) is treated as absent', () => {
    const absent = delayAfter(
      obs([
        [100, 10],
        [150, 20],
        [200, undefined]
      ])
    )
    expect(absent).toBe(30 * S) // blind: 15% of 200 s
    for (const garbage of [NaN, Infinity, -Infinity, -3, 150, '90', null]) {
      expect(
        delayAfter(
          obs([
            [100, 10],
            [150, 20],
            [200, garbage]
          ])
        )
      ).toBe(absent)
    }
    // Garbage between good points is skipped, not taken as a reset: same ETA as without it
    // (a job at 2 %/s, 60 % at 30 s: ends at 50 s).
    const clean = delayAfter(
      obs([
        [10, 20],
        [20, 40],
        [30, 60]
      ])
    )
    const withGarbage = delayAfter(
      obs([
        [10, 20],
        [20, 40],
        [25, NaN],
        [30, 60]
      ])
    )
    expect(withGarbage).toBeCloseTo(clean)
    expect(clean).toBeLessThan(25 * S)
  })
})

describe('ETA from progress', () => {
  test('polls near the estimated end instead of waiting the blind interval', () => {
    // 1 %/s, 90 % at 90 s: the job ends at ~100 s; blind would say 60 s.
    const history = obs([
      [10, 10],
      [30, 30],
      [50, 50],
      [70, 70],
      [90, 90]
    ])
    const d = delayAfter(history, 0)
    expect(d).toBeGreaterThanOrEqual(9 * S) // not before the earliest consistent end (99 s)
    expect(d).toBeLessThanOrEqual(13 * S) // and within the lag budget after it
    // Here the interval is narrow (99..100.1 s), so the poll aims at its late end, where the job
    // is surely done; jitter only ever delays an aimed poll (a poll before the end is wasted),
    // and by little.
    expect(delayAfter(history, 0, () => 0)).toBeGreaterThanOrEqual(10.1 * S)
    expect(delayAfter(history, 0, () => 0.999)).toBeLessThanOrEqual(11 * S)
    // The same polls without progress: blind, 15% of the 90 s followed.
    expect(delayAfter(obs(history.map((o) => [o.at / S, undefined])))).toBe(13.5 * S)
  })

  test('an imprecise ETA aims at its early end (plus the lag budget), not its late end', () => {
    // 90, 93, 96 % at 130 s-steps of 30 s: 0.083..0.117 %/s, so the end lies in ~186..208 s.
    // Aiming at 208 s could notice an end at 186 s 22 s late; aim at ~186 s + 3 % instead.
    const d = delayAfter(
      obs([
        [100, 90],
        [130, 93],
        [160, 96]
      ]),
      0
    )
    expect(d).toBeGreaterThanOrEqual(25 * S)
    expect(d).toBeLessThanOrEqual(35 * S)
  })

  test('a poll that finds the job not yet done aims again, shortly', () => {
    const d = delayAfter(
      obs([
        [10, 10],
        [50, 50],
        [90, 90],
        [99, 99]
      ]),
      0
    )
    expect(d).toBeLessThanOrEqual(4 * S)
  })

  test('a single observation with a known start: progress made since, a paced wait that the rate only shortens', () => {
    // Started at 0, 50 % at 5 s: rate >= 10 %/s (queue time only makes it look slower), so the
    // job ends within 5 s; the paced wait would be 10 s.
    expect(delayAfter(obs([[5, 50]]), 0)).toBeCloseTo(5 * S)
    // Slow: the paced wait (the time followed plus one interval), not the 8-min "ETA".
    expect(delayAfter(obs([[5, 1]]), 0)).toBe(10 * S)
    // Start unknown: one reading says nothing of a pace: blind.
    expect(delayAfter(obs([[5, 50]]))).toBe(5 * S)
    expect(delayAfter(obs([[40, 50]]))).toBe(6 * S)
  })

  test('a two-point rate does not stretch the wait beyond the paced wait (the time followed plus one interval)', () => {
    // 1 -> 7 in 10 s suggests ~2.5 min more, but two coarse points are no evidence of a pace.
    expect(
      delayAfter(
        obs([
          [5, 1],
          [15, 7]
        ]),
        0
      )
    ).toBe(20 * S)
  })

  test('the wait exceeds maxIntervalMs only for a trusted (consistent, precise) rate', () => {
    // Slow steady job: 2 % per 100 s, five consistent points: trusted, ETA ~75 min away. The
    // wait passes the 60 s cap but extrapolates no further than the 400 s observed.
    const trusted = delayAfter(
      obs([
        [100, 2],
        [200, 4],
        [300, 6],
        [400, 8],
        [500, 10]
      ]),
      0
    )
    expect(trusted).toBeGreaterThan(300 * S)
    expect(trusted).toBeLessThanOrEqual(400 * S)
    // Consistent but coarse (1 % steps over 2 min: rate known within a factor 3): capped at max.
    expect(
      delayAfter(
        obs([
          [100, 1],
          [160, 2],
          [220, 3]
        ]),
        0
      )
    ).toBe(60 * S)
    // Inconsistent pace (fast, then slow): the fit keeps only the last two points: blind cap.
    const erratic = delayAfter(
      obs([
        [100, 2],
        [200, 30],
        [300, 31],
        [400, 33],
        [500, 34]
      ]),
      0
    )
    expect(erratic).toBeLessThanOrEqual(60 * S)
  })

  test('a stall falls back to the blind wait, even after a trusted pace', () => {
    const steady: [number, unknown][] = [
      [100, 2],
      [200, 4],
      [300, 6],
      [400, 8],
      [500, 10]
    ]
    expect(delayAfter(obs([...steady, [600, 12]]), 0)).toBeGreaterThan(60 * S)
    expect(delayAfter(obs([...steady, [600, 10]]), 0)).toBe(60 * S)
    // A fast job that stops: blind (15% of the 40 s followed), not the 10 s its old pace suggests.
    expect(
      delayAfter(
        obs([
          [10, 20],
          [20, 40],
          [30, 60],
          [40, 80]
        ]),
        0
      )
    ).toBeLessThan(12 * S)
    expect(
      delayAfter(
        obs([
          [10, 20],
          [20, 40],
          [30, 60],
          [40, 60]
        ]),
        0
      )
    ).toBe(6 * S)
  })

  test('progress going backwards falls back to the blind wait and restarts the fit', () => {
    const history = obs([
      [100, 2],
      [200, 4],
      [300, 6],
      [400, 8],
      [500, 10],
      [600, 3]
    ])
    expect(delayAfter(history, 0)).toBe(60 * S)
    expect(fitRate(history)).toBeUndefined()
    const after = fitRate(
      obs([
        [100, 2],
        [200, 4],
        [300, 6],
        [400, 8],
        [500, 10],
        [600, 3],
        [700, 5]
      ])
    )
    expect(after?.points).toBe(2)
  })

  test('overdue (100 % but not done): a short recheck, never a busy loop', () => {
    const d = delayAfter(
      obs([
        [10, 10],
        [50, 50],
        [90, 90],
        [100, 100]
      ]),
      0
    )
    expect(d).toBeGreaterThanOrEqual(1 * S)
    expect(d).toBeLessThanOrEqual(5 * S)
  })
})

describe('fitRate', () => {
  test('brackets the true rate of a floored linear progress and breaks at a stall', () => {
    const rate = 0.37 / S // %/ms
    const points: [number, unknown][] = [5, 17, 40, 90, 150].map((s) => [s, Math.floor(rate * (s * S - 2 * S))])
    const fit = fitRate(obs(points))
    expect(fit?.points).toBe(5)
    expect(fit?.rLo).toBeLessThanOrEqual(rate)
    expect(fit?.rHi).toBeGreaterThanOrEqual(rate)
    // Stuck at the last value for 100 s: no single pace explains it; the fit keeps the tail.
    const stalled = fitRate(obs([...points, [250, points.at(-1)?.[1]]]))
    expect(stalled?.points).toBe(2)
    expect(stalled?.rLo).toBeLessThanOrEqual(0)
  })
})
