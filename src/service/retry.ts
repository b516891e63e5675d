/**
 * The one retry loop of the action, for API requests and downloads alike: how long to wait before
 * the next attempt, and when to give up. The verdict on each failure comes from failure.ts.
 */
import type { Clock } from '../common/clock.js'
import { formatDuration, formatUtc } from '../common/units.js'
import { type AttemptFailure, type RequestKind, classify, describeFailure } from './failure.js'

export interface BackoffPolicy {
  /** Wait before the first retry. */
  initialMs: number
  /** Cap of the exponential growth. */
  maxMs: number
  /** Attempts in all, the first one included. */
  maxAttempts: number
  /**
   * The shortest wait before a retry, whatever `Retry-After` asks: a server answering
   * `Retry-After: 0` again and again must not be asked again and again at once.
   */
  floorMs?: number | undefined
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 1000, maxMs: 30_000, maxAttempts: 5, floorMs: 1000 }

/**
 * Wait before retry number `retry` (1 for the first retry): exponential growth with "equal
 * jitter" (half fixed, half random), so that many runners failing together do not retry in step
 * yet none retries at once.
 */
export function backoffDelay(retry: number, policy: BackoffPolicy, random: () => number): number {
  const exponential = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, retry - 1))
  return Math.round(exponential / 2 + random() * (exponential / 2))
}

/**
 * The longest wait a `Retry-After` is taken for: the longest `timeout` a step may have (a week).
 * A longer wait ends past any step's deadline all the same, and the time it names may lie beyond
 * what a Date can hold (`Retry-After: 99999999999999`).
 */
export const LONGEST_RETRY_AFTER_MS = 7 * 24 * 3_600_000

/**
 * `Retry-After` as milliseconds from `nowMs`: delta-seconds (decimals tolerated) or an HTTP date
 * (every form of which starts with the day's name; Date.parse alone would take `-1` for the year
 * 1 BC, i.e. "at once"). Undefined when absent or unreadable, so the backoff applies; never
 * negative, and at most LONGEST_RETRY_AFTER_MS.
 */
export function parseRetryAfter(value: string | undefined | null, nowMs: number): number | undefined {
  if (value == null) return undefined
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Math.min(LONGEST_RETRY_AFTER_MS, Math.round(Number(text) * 1000))
  if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /i.test(text)) return undefined
  const date = Date.parse(text)
  if (Number.isNaN(date)) return undefined
  return Math.min(LONGEST_RETRY_AFTER_MS, Math.max(0, date - nowMs))
}

/**
 * When a wait the service asked for (from parseRetryAfter) ends, for a message: the time, and how
 * long from now, the time in UTC (a reader's zone is not the runner's). A wait cut to
 * LONGEST_RETRY_AFTER_MS is said to end then "or later".
 */
export function describeWaitEnd(waitMs: number, nowMs: number): { at: string; after: string } {
  const cut = waitMs >= LONGEST_RETRY_AFTER_MS
  return {
    at: `${formatUtc(new Date(nowMs + waitMs))}${cut ? ' or later' : ''}`,
    after: `${formatDuration(waitMs)}${cut ? ' or more' : ''}`
  }
}

/** The wait a failure's `Retry-After` asks for, in ms from `nowMs`; undefined when it asks none. */
export function askedWaitOf(failure: AttemptFailure, nowMs: number): number | undefined {
  return failure.kind === 'status' ? parseRetryAfter(failure.retryAfter, nowMs) : undefined
}

/**
 * The wait before the next attempt: the service's `Retry-After` when it gave one (it knows best),
 * but not less than the policy's floor; else the jittered backoff.
 */
export function retryDelay(
  retry: number,
  failure: AttemptFailure,
  policy: BackoffPolicy,
  nowMs: number,
  random: () => number
): number {
  const asked = askedWaitOf(failure, nowMs)
  return asked === undefined ? backoffDelay(retry, policy, random) : Math.max(asked, policy.floorMs ?? 0)
}

/** Thrown by an attempt to say how it failed, so that the policy can judge it. */
export class AttemptError extends Error {
  override readonly name = 'AttemptError'
  /** How many attempts were made in all; set when the retries give up. */
  attempts = 1
  /** True when the retries stopped because the next wait would pass the deadline. */
  stoppedByDeadline = false
  constructor(
    readonly failure: AttemptFailure,
    message = describeFailure(failure),
    /** Extra facts for the final message, e.g. the service's `error` text. */
    readonly detail?: string
  ) {
    super(message)
  }
}

export interface RetryOptions {
  kind: RequestKind
  policy: BackoffPolicy
  clock: Clock
  signal?: AbortSignal | undefined
  /** Absolute time (clock ms) after which no wait is started: the step's own timeout. */
  deadline?: number | undefined
  /** Retries also this failure, e.g. a download that knows a 403 means "link expired". */
  alsoRetry?: (failure: AttemptFailure) => boolean
  onRetry?: (info: { retry: number; failure: AttemptFailure; delayMs: number; error: AttemptError }) => void
}

/**
 * Runs `attempt` until it succeeds, the failure is final, the attempts are used up, or the next
 * wait would end past the deadline (no retry is started after it either, even when a wait
 * overran). Errors other than AttemptError (bugs, cancellation, refused archives) pass through
 * at once. The last AttemptError is rethrown with `attempts` set so callers can say how hard
 * they tried.
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  options: RetryOptions
): Promise<T> {
  const { clock, deadline } = options
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber)
    } catch (error) {
      if (!(error instanceof AttemptError)) throw error
      const retryable = classify(options.kind, error.failure).retry || options.alsoRetry?.(error.failure) === true
      const final = attemptNumber >= options.policy.maxAttempts || !retryable
      const delayMs = retryDelay(attemptNumber, error.failure, options.policy, clock.now(), () => clock.random())
      const pastDeadline = deadline !== undefined && clock.now() + delayMs > deadline
      if (final || pastDeadline) throw givenUp(error, attemptNumber, !final)
      options.onRetry?.({ retry: attemptNumber, failure: error.failure, delayMs, error })
      await clock.sleep(delayMs, options.signal)
      if (deadline !== undefined && clock.now() > deadline) throw givenUp(error, attemptNumber, true)
    }
  }
}

function givenUp(error: AttemptError, attempts: number, stoppedByDeadline: boolean): AttemptError {
  error.attempts = attempts
  error.stoppedByDeadline = stoppedByDeadline
  return error
}
