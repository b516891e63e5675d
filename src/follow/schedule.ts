/**
 * When to ask for a job's status next. Pure: the history of what the job reported, the settings,
 * the current time and a random source in; a wait in milliseconds out.
 *
 * Two regimes:
 * - Blind (nothing usable to go on: no progress, a stall, progress going backwards): the job may
 *   end at any moment, so the wait is 15% of the time followed so far, at least initialIntervalMs,
 *   growing no further than maxIntervalMs; +-10% jitter, never below initialIntervalMs nor past
 *   the 15%. An end is then noticed within max(initialIntervalMs, 15% of the time the job had
 *   run), with at most one request per initialIntervalMs.
 * - ETA (progress advancing): until a pace is known the wait may grow as the time followed does
 *   (a job at work is not about to end unannounced). Then fit a constant rate to the recent
 *   observations, taking the integer quantisation of `progress` into account, which gives an
 *   interval [early, late] in which the job should end. Poll at the latest moment that still
 *   notices an end at `early` within a small lag budget; when that poll finds the job still
 *   running, its observation narrows the interval.
 */

export interface PollObservation {
  at: number
  status: string
  progress?: number | undefined
}

export interface PollSettings {
  initialIntervalMs: number
  maxIntervalMs: number
}

/** The moments a wait is reckoned from. */
export interface PollTimes {
  now: number
  /**
   * When the follow began. A blind wait is a share of the time since: never before the job
   * started, so that share is also within the same share of the job's own run time.
   */
  followedFrom: number
  /** When this run started the job, when it did: its progress rate is then bounded. */
  jobStartedAt?: number | undefined
}

/** A blind wait is at most this share of the time followed: the bound on noticing an end late. */
const LAG_SHARE = 0.15
/**
 * Unaimed waits are spread by +-10% so that runners started together do not poll in step; a blind
 * wait is then kept within the lag bound, and no wait below initialIntervalMs.
 */
const BLIND_JITTER = 0.1
/** Aimed waits are lengthened by up to 10% at random (see nextPollDelay), within the lag budget. */
const AIM_JITTER = 0.1
/** Width of one progress step: values are integers in practice, so a reported 40 means [40, 41). */
const QUANTUM = 1
/** Lag budget for ETA-aimed polls, as a fraction of the job's estimated total duration. */
const LAG_FRACTION = 0.03
/** A rate is trusted (its ETA may carry a wait past maxIntervalMs) from this many points... */
const TRUST_MIN_POINTS = 3
/** ...when its quantisation spread, (rHi - rLo) / rHi, is at most this. */
const TRUST_MAX_SPREAD = 0.25
/** A trusted wait extrapolates at most this many times the span the rate was measured over. */
const HORIZON = 1
/** Only the most recent points are considered when fitting a rate (bounds the work per poll). */
const MAX_SEGMENT = 32

/** Shortest wait ever returned: ETA aiming must not turn into a busy loop. */
function minimumDelay(settings: PollSettings): number {
  return Math.max(1, settings.initialIntervalMs / 5)
}

/** The longest blind wait after following for `followedMs`: an end during it is noticed in time. */
function lagBound(followedMs: number, settings: PollSettings): number {
  return Math.max(settings.initialIntervalMs, LAG_SHARE * followedMs)
}

/** The blind wait before jitter. */
function blindDelay(followedMs: number, settings: PollSettings): number {
  return Math.min(settings.maxIntervalMs, lagBound(followedMs, settings))
}

/**
 * The wait before jitter while progress advances but its pace is not known yet: a job at work
 * is not about to end unannounced, so the wait may double as the follow goes on (the time
 * followed plus one interval), up to maxIntervalMs, until the rate takes over.
 */
function pacedDelay(followedMs: number, settings: PollSettings): number {
  const { initialIntervalMs: initial, maxIntervalMs: max } = settings
  return Math.min(max, initial + Math.max(0, followedMs))
}

/** A usable progress value: finite and within 0..100; anything else is treated as absent. */
export function usableProgress(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100 ? value : undefined
}

export interface RateFit {
  /** The points the rate was fitted on (a suffix of the history with usable progress). */
  points: number
  /** Time from the first to the last of those points. */
  spanMs: number
  /** Bounds of the constant rates (progress units per ms) consistent with every point. */
  rLo: number
  rHi: number
}

/**
 * The longest recent run of observations that a single constant rate explains, given that each
 * reported value P stands for a true progress in [P, P + QUANTUM). A stall or a jump breaks the
 * run, so the fit only ever describes the job's current pace.
 *
 * For a line p(t) = a + r t the constraints are pairwise (for a fixed r the offsets allowed by
 * each point are intervals, and intervals on a line intersect iff they do pairwise), so the
 * feasible rates are the intersection of the pairwise ranges [(dP - Q)/dt, (dP + Q)/dt].
 */
export function fitRate(history: readonly PollObservation[]): RateFit | undefined {
  const last = history.at(-1)
  const lastP = usableProgress(last?.progress)
  if (last === undefined || lastP === undefined) return undefined
  const segment: { at: number; p: number }[] = [{ at: last.at, p: lastP }]
  let rLo = -Infinity
  let rHi = Infinity
  for (let i = history.length - 2; i >= 0 && segment.length < MAX_SEGMENT; i--) {
    const obs = history[i]
    const p = usableProgress(obs?.progress)
    if (obs === undefined || p === undefined) continue
    let lo = rLo
    let hi = rHi
    let ok = true
    for (const later of segment) {
      const dt = later.at - obs.at
      const dp = later.p - p
      if (dt <= 0 || dp < 0) {
        ok = false
        break
      }
      lo = Math.max(lo, (dp - QUANTUM) / dt)
      hi = Math.min(hi, (dp + QUANTUM) / dt)
    }
    if (!ok || lo > hi) break
    rLo = lo
    rHi = hi
    segment.unshift({ at: obs.at, p })
  }
  if (segment.length < 2) return undefined
  const first = segment[0]
  return { points: segment.length, spanMs: first === undefined ? 0 : last.at - first.at, rLo, rHi }
}

export function nextPollDelay(
  history: readonly PollObservation[],
  settings: PollSettings,
  times: PollTimes,
  random: () => number
): number {
  const { now, jobStartedAt: startedAt } = times
  const floor = minimumDelay(settings)
  const followed = now - times.followedFrom
  const blindBase = blindDelay(followed, settings)
  const jittered = (base: number): number =>
    Math.max(settings.initialIntervalMs, base * (1 + BLIND_JITTER * (2 * random() - 1)))
  // Early on both bounds meet at initialIntervalMs (a shorter wait is more requests, a longer one
  // a later notice): no jitter is left there; at maxIntervalMs the lag bound leaves room for it.
  const blind = Math.min(lagBound(followed, settings), jittered(blindBase))

  const last = history.at(-1)
  const lastP = usableProgress(last?.progress)
  // Progress absent (or garbage) now: nothing to estimate with.
  if (last === undefined || lastP === undefined) return blind

  // Stalled (no change since the previous report) or going backwards: the end could come at any
  // moment (a stalled job may jump) or never; only the blind wait is safe.
  const previous = history.at(-2)
  const previousP = usableProgress(previous?.progress)
  if (previousP !== undefined && lastP <= previousP) return blind

  const fit = fitRate(history)
  if (fit === undefined || fit.rHi <= 0) {
    // A single point. If we started the job ourselves, progress / time-since-start is a LOWER
    // bound of the rate (the unknown queue time only slows the apparent rate), so it gives an
    // upper bound of the remaining time: it may shorten the paced wait, never lengthen it.
    if (startedAt !== undefined && lastP > 0 && last.at > startedAt) {
      const remainingUpper = ((100 - lastP) * (last.at - startedAt)) / lastP
      return Math.max(floor, Math.min(jittered(pacedDelay(followed, settings)), last.at + remainingUpper - now))
    }
    return blind
  }
  const paced = jittered(pacedDelay(followed, settings))

  // The end lies in [early, late] if the job keeps a constant pace. A two-point rate from early,
  // coarse integer steps is wide; the interval narrows as points accumulate.
  const early = last.at + Math.max(0, 100 - lastP - QUANTUM) / fit.rHi
  const late = fit.rLo > 0 ? last.at + (100 - lastP) / fit.rLo : Infinity
  const origin = startedAt ?? history[0]?.at ?? last.at
  const estimatedEnd = Number.isFinite(late) ? (early + late) / 2 : early
  const tolerance = Math.max(floor, LAG_FRACTION * (estimatedEnd - origin))
  // Poll at `late` when the interval is narrower than the lag budget (this poll then sees the end,
  // at most `tolerance` after it); else at early + tolerance (an end at `early` is still noticed
  // within budget, and a poll that comes too soon brings a point that narrows the interval).
  const target = Math.min(late, early + tolerance)

  let wait: number
  if (target <= now) {
    // Overdue: the job should be done by now (e.g. 100% but not yet "completed"). Back off from
    // the expected end: wait about as long as it is overdue, bounded by the blind wait.
    wait = Math.min(blindBase, Math.max(floor, now - Math.min(late, estimatedEnd)))
  } else {
    wait = target - now
  }
  // Aimed polls need no big jitter (their times already follow each job's own pace): a little,
  // only later (a poll just before the estimated end is a wasted request) and well within the
  // lag budget.
  wait += Math.min(AIM_JITTER * wait, tolerance / 4) * random()

  // How far the estimate may stretch the wait:
  // - two points: a rate with no consistency check (and coarse while progress steps are few):
  //   it may only shorten the paced wait;
  // - three or more points on one line (within quantisation): a steady pace; up to maxIntervalMs;
  // - trusted (also a narrow spread, rLo > 0): past maxIntervalMs (which caps the blind growth),
  //   but no further ahead than the span the rate was measured over, so that a job that speeds
  //   up is not overslept by much.
  const trusted = fit.points >= TRUST_MIN_POINTS && fit.rLo > 0 && (fit.rHi - fit.rLo) / fit.rHi <= TRUST_MAX_SPREAD
  const limit = trusted
    ? Math.max(settings.maxIntervalMs, HORIZON * fit.spanMs)
    : fit.points >= TRUST_MIN_POINTS
      ? Math.max(paced, settings.maxIntervalMs)
      : paced
  return Math.max(floor, Math.min(wait, limit))
}
