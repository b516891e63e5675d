/**
 * An error whose message is written for the user of the action: main.ts prints it as it is,
 * without a stack trace.
 */
export class ActionError extends Error {
  override readonly name: string = 'ActionError'
}

/** The inputs are not usable: nothing was asked of anyone. */
export class InputError extends ActionError {
  override readonly name: string = 'InputError'
}

/** The step's `timeout` ran out before the job ended: the job may still finish. */
export class TimeoutError extends ActionError {
  override readonly name: string = 'TimeoutError'
}

/** The run was cancelled (SIGINT/SIGTERM from the runner). */
export class CancelledError extends Error {
  override readonly name: string = 'CancelledError'
  constructor(
    message = 'The run was cancelled',
    /** The request under way had surely not reached the service (see ServiceClient.request). */
    readonly beforeSending = false
  ) {
    super(message)
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof CancelledError || (error instanceof Error && error.name === 'AbortError')
}

/** Throws CancelledError when `signal` has fired; call it between steps of a long operation. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError()
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
