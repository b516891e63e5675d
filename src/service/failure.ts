/**
 * What a failed attempt means: worth another try? may the service have acted on it anyway? One
 * classification, used by the retry policy and by every message that explains a failure, so the
 * two can never disagree. Pure.
 */

/**
 * How safe it is to send a request again.
 * - `idempotent`: GETs, the bundle POST (it only makes a fresh link) and downloads.
 * - `once`: requests that create something (start an export, send an agent message). They are
 *   repeated only when the service surely did not process the first one.
 */
export type RequestKind = 'idempotent' | 'once'

/**
 * What went wrong with one attempt.
 * - `network`: no status came (refused, reset, timed out before the headers).
 * - `status`: the service refused the request with an error status.
 * - `answer`: the service said yes (2xx), but its answer could not be used: cut short, too
 *   large, or not JSON. It acted on the request, so the request counts as processed.
 */
export type AttemptFailure =
  | { kind: 'network'; code: string | undefined; message: string }
  | { kind: 'status'; status: number; retryAfter?: string | undefined }
  | { kind: 'answer'; status: number; problem: string }

export interface Verdict {
  /** Another attempt may succeed, and sending one is safe for this kind of request. */
  retry: boolean
  /** The service may have acted on the request despite the failure. */
  mayHaveBeenProcessed: boolean
}

/** A request the action did not send at all (no time was left for it): it cannot have been processed. */
export const NOT_SENT = 'ENOTSENT'
/** Network error codes that prove the request never reached a server. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', NOT_SENT])

/** Statuses that say the service did not act: it was too busy to take the request. */
const NOT_PROCESSED_TRANSIENT = new Set([429, 503])

export function classify(kind: RequestKind, failure: AttemptFailure): Verdict {
  // Asked again, the service answers again; a request that creates something would create it twice.
  if (failure.kind === 'answer') return { retry: kind === 'idempotent', mayHaveBeenProcessed: true }
  if (failure.kind === 'network') {
    const mayHaveBeenProcessed = !NOT_SENT_CODES.has(failure.code ?? '')
    return { retry: kind === 'idempotent' || !mayHaveBeenProcessed, mayHaveBeenProcessed }
  }
  const { status } = failure
  const mayHaveBeenProcessed = (status >= 500 && !NOT_PROCESSED_TRANSIENT.has(status)) || status === 408
  const transient = status === 408 || status === 429 || (status >= 500 && status <= 599)
  return { retry: transient && (kind === 'idempotent' || !mayHaveBeenProcessed), mayHaveBeenProcessed }
}

export function describeFailure(failure: AttemptFailure): string {
  if (failure.kind === 'network') return failure.code === NOT_SENT ? failure.message : `network error${failure.code ? ` ${failure.code}` : ''}: ${failure.message}`
  if (failure.kind === 'answer') return `HTTP ${failure.status} with an unusable answer: ${failure.problem}`
  return `HTTP ${failure.status}`
}

/** How a failure that may have been processed happened, for the "not sent again" message. */
export function describeAmbiguity(failure: AttemptFailure): string {
  if (failure.kind === 'network') {
    return `the connection failed after the request was sent (${failure.code ? `${failure.code}: ` : ''}${failure.message})`
  }
  if (failure.kind === 'answer') return `the service answered HTTP ${failure.status}, but its answer was unusable (${failure.problem})`
  return `the service answered HTTP ${failure.status}`
}
