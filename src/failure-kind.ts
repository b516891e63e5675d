/**
 * How a run failed, read from the error it failed with; the CLI exits by it (cli/exit-codes.ts), the
 * action only fails the step. The error and then its causes are read from the outside in, and
 * the first that tells decides: a timeout's message may carry the failed read that preceded it.
 */
import type { FailureKind } from './action/host.js'
import { CancelledError, InputError, TimeoutError } from './common/errors.js'
import { ServiceError } from './service/client.js'
import { isRefusal } from './service/failure.js'
import { AttemptError } from './service/retry.js'

/** How deep a chain of causes is read: a loop of causes must not hang the end of a run. */
const MAX_CAUSES = 10

export function failureKind(error: unknown, cancelled: boolean): FailureKind {
  if (cancelled || error instanceof CancelledError) return 'cancelled'
  let cause = error
  for (let depth = 0; cause instanceof Error && depth < MAX_CAUSES; depth++, cause = cause.cause) {
    if (cause instanceof InputError) return 'input'
    if (cause instanceof TimeoutError) return 'timeout'
    // A request to the service (ServiceError) or a download from the storage (AttemptError).
    if (cause instanceof ServiceError || cause instanceof AttemptError) {
      if (cause.stoppedByDeadline) return 'timeout'
      return isRefusal(cause.failure) ? 'refused' : 'unavailable'
    }
  }
  return 'failed'
}
