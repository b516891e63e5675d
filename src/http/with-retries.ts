import type { Clock } from '../clock.js'
import { type AttemptFailure, type BackoffPolicy, type RequestKind, describeFailure, isRetryable, retryDelay } from './retry.js'

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
  random?: () => number
  /** Overrides the policy's verdict, e.g. a download that knows a 403 means "link expired". */
  isRetryable?: (failure: AttemptFailure) => boolean
  onRetry?: (info: { retry: number; failure: AttemptFailure; delayMs: number; error: AttemptError }) => void
}

/**
 * Runs `attempt` until it succeeds, the policy says the failure is final, the attempts are used
 * up, or the next wait would end past the deadline. Errors other than AttemptError (bugs,
 * cancellation, refused archives) pass through at once. The last AttemptError is rethrown with
 * `attempts` set so callers can say how hard they tried.
 */
export async function withRetries<T>(attempt: (attemptNumber: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const judge = options.isRetryable ?? ((failure: AttemptFailure) => isRetryable(options.kind, failure))
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber)
    } catch (error) {
      if (!(error instanceof AttemptError)) throw error
      const final = attemptNumber >= options.policy.maxAttempts || !judge(error.failure)
      const delayMs = retryDelay(attemptNumber, error.failure, options.policy, Date.now(), options.random)
      const pastDeadline = options.deadline !== undefined && options.clock.now() + delayMs > options.deadline
      if (final || pastDeadline) {
        error.attempts = attemptNumber
        error.stoppedByDeadline = !final
        throw error
      }
      options.onRetry?.({ retry: attemptNumber, failure: error.failure, delayMs, error })
      await options.clock.sleep(delayMs, options.signal)
    }
  }
}
