import { describe, expect, test } from '@jest/globals'
import { type PollObservation, type PollSettings, fitRate, nextPollDelay } from '../src/follow/schedule.js'

const S = 1000
const settings: PollSettings = { initialIntervalMs: 5 * S, maxIntervalMs: 60 * S }
/** random() = 0.5 means no jitter at all. */
const noJitter = (): number => 0.5

/** Observations at the given seconds with the given progress (undefined: absent). */
function obs(points: [seconds: number, progress: unknown][]): PollObservation[] {
  return points.map(([s, p]) => ({ at: s * S, status: 'running', progress: p as number | undefined }))
}
const delayAfter = (history: PollObservation[], startedAt?: number, random = noJitter): number =>
  nextPollDelay(history, settings, history.at(-1)?.at ?? 0, random, startedAt)

describe('blind backoff (no usable progress)', () => {
  test('doubles from initialIntervalMs per poll and stops at maxIntervalMs', () => {
    const delays = [0, 1, 2, 3, 4, 5, 20].map((n) =>
      delayAfter(obs(Array.from({ length: n }, (_, i) => [i * 10, undefined] as [number, unknown])))
    )
    expect(delays).toEqual([5 * S, 10 * S, 20 * S, 40 * S, 60 * S, 60 * S, 60 * S])
  })

  test('jitter stays within +-10% and does spread the waits', () => {
    const history = obs([
      [0, undefined],
      [5, undefined]
    ]) // base 20 s
    const seen = new Set<number>()
    for (let i = 0; i <= 100; i++) {
      const d = delayAfter(history, undefined, () => Math.min(i / 100, 0.999999))
      expect(d).toBeGreaterThanOrEqual(18 * S)
      expect(d).toBeLessThanOrEqual(22 * S)
      seen.add(Math.round(d))
    }
    expect(delayAfter(history, undefined, () => 0)).toBeCloseTo(18 * S)
    expect(seen.size).toBeGreaterThan(50)
    // Jitter never lifts the blind wait over the cap by more than 10% either.
    const capped = obs(Array.from({ length: 10 }, (_, i) => [i * 60, undefined] as [number, unknown]))
    expect(delayAfter(capped, undefined, () => 0.999999)).toBeLessThanOrEqual(66 * S)
  })

  test('garbage progress (NaN, Infinity, out of range, strings) is treated as absent', () => {
    const absent = delayAfter(
      obs([
        [5, 10],
        [15, 20],
        [25, undefined]
      ])
    )
    expect(absent).toBe(40 * S) // blind, 3 polls made
    for (const garbage of [NaN, Infinity, -Infinity, -3, 150, '90', null]) {
      expect(
        delayAfter(
          obs([
            [5, 10],
            [15, 20],
            [25, garbage]
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
    // The same polls without progress: the blind cap.
    expect(delayAfter(obs(history.map((o) => [o.at / S, undefined])))).toBe(60 * S)
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

  test('a single observation with a known start only ever shortens the blind wait', () => {
    // Started at 0, 50 % at 5 s: rate >= 10 %/s (queue time only makes it look slower), so the
    // job ends within 5 s; blind would be 10 s.
    expect(delayAfter(obs([[5, 50]]), 0)).toBeCloseTo(5 * S)
    expect(delayAfter(obs([[5, 50]]))).toBe(10 * S) // start unknown: blind
    expect(delayAfter(obs([[5, 1]]), 0)).toBe(10 * S) // slow: blind, not the 8-min "ETA"
  })

  test('a two-point rate does not stretch the wait beyond the blind backoff', () => {
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

  test('a stall falls back to the blind backoff, even after a trusted pace', () => {
    const steady: [number, unknown][] = [
      [100, 2],
      [200, 4],
      [300, 6],
      [400, 8],
      [500, 10]
    ]
    expect(delayAfter(obs([...steady, [600, 12]]), 0)).toBeGreaterThan(60 * S)
    expect(delayAfter(obs([...steady, [600, 10]]), 0)).toBe(60 * S)
    // A fast job that stops: blind (60 s at 4 polls), not the 10 s its old pace would suggest.
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
    ).toBe(60 * S)
  })

  test('progress going backwards falls back to the blind backoff and restarts the fit', () => {
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
