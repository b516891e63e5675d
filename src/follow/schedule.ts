/**
 * When to ask for a job's status next. Pure. A job may end at any moment (a failure is never
 * announced), so the rule is one: its end is noticed within 15% of the time it has been followed.
 * The wait is that 15%, at least `initialIntervalMs` (`poll-interval`: fewer requests early on)
 * and at most `maxIntervalMs` (`max-poll-interval`). Jitter spreads the checks of runners started
 * together by up to 10% either way, never below `initialIntervalMs` nor past the 15%. An end is
 * so noticed within max(initialIntervalMs, 15% of the time followed), with at most one request
 * per initialIntervalMs. The service's `Retry-After` and the step's deadline are the follower's.
 */

export interface PollSettings {
  initialIntervalMs: number
  maxIntervalMs: number
}

/** The share of the time followed a wait may be: the bound on noticing an end late. */
const LAG_SHARE = 0.15
/** How far jitter moves a wait either way, as a share of it. */
const JITTER = 0.1

/** The wait before the next check, after following a job for `followedMs`; `random` in [0, 1). */
export function nextPollDelay(followedMs: number, settings: PollSettings, random: () => number): number {
  const lagBound = Math.max(settings.initialIntervalMs, LAG_SHARE * followedMs)
  const wait = Math.min(settings.maxIntervalMs, lagBound) * (1 + JITTER * (2 * random() - 1))
  return Math.min(lagBound, Math.max(settings.initialIntervalMs, wait))
}
