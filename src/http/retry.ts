/**
 * The one retry policy of the action: which failures are worth another try, and how long to wait
 * before it. Pure: no I/O, no clock of its own, so every rule is unit-tested without waiting.
 */

/**
 * How safe it is to send a request again.
 * - `idempotent`: GETs, the bundle POST (it only makes a fresh link) and downloads.
 * - `once`: requests that create something (start an export, send an agent message). They are
 *   repeated only when the service surely did not process the first one.
 */
export type RequestKind = 'idempotent' | 'once'

/** What went wrong with one attempt. */
export type AttemptFailure =
  | { kind: 'network'; code: string | undefined; message: string }
  | { kind: 'status'; status: number; retryAfter?: string | undefined }

/** Network error codes that prove the request never reached a server. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED'])

const RETRYABLE_STATUSES = new Set([408, 429])

export function isRetryable(kind: RequestKind, failure: AttemptFailure): boolean {
  if (failure.kind === 'network') {
    return kind === 'idempotent' || NOT_SENT_CODES.has(failure.code ?? '')
  }
  const { status } = failure
  if (kind === 'once') return status === 429 || status === 503
  return RETRYABLE_STATUSES.has(status) || (status >= 500 && status <= 599)
}

export interface BackoffPolicy {
  /** Wait before the first retry. */
  initialMs: number
  /** Cap of the exponential growth. */
  maxMs: number
  /** Attempts in all, the first one included. */
  maxAttempts: number
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 1000, maxMs: 30_000, maxAttempts: 5 }

/**
 * Wait before retry number `retry` (1 for the first retry): exponential growth with "equal
 * jitter" (half fixed, half random), so that many runners failing together do not retry in step
 * yet none retries at once.
 */
export function backoffDelay(retry: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, retry - 1))
  return Math.round(exponential / 2 + random() * (exponential / 2))
}

/**
 * `Retry-After` as milliseconds from `nowMs`: delta-seconds (decimals tolerated) or an HTTP date.
 * Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | undefined | null, nowMs: number): number | undefined {
  if (value == null) return undefined
  const text = value.trim()
  if (text === '') return undefined
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  const date = Date.parse(text)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - nowMs)
}

/**
 * The wait before the next attempt: the service's `Retry-After` when it gave one (it knows best),
 * else the jittered backoff.
 */
export function retryDelay(
  retry: number,
  failure: AttemptFailure,
  policy: BackoffPolicy,
  nowMs: number,
  random: () => number = Math.random
): number {
  const asked = failure.kind === 'status' ? parseRetryAfter(failure.retryAfter, nowMs) : undefined
  return asked ?? backoffDelay(retry, policy, random)
}

export function describeFailure(failure: AttemptFailure): string {
  return failure.kind === 'network'
    ? `network error${failure.code ? ` ${failure.code}` : ''}: ${failure.message}`
    : `HTTP ${failure.status}`
}
