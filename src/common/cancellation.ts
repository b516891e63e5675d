import { CancelledError } from './errors.js'
import type { Clock } from './clock.js'
import { formatDuration } from './units.js'

/** Does nothing: for a failure that is dealt with elsewhere (`.catch(noop)`), or a callback not wanted. */
export function noop(): void {}

/**
 * Returns `work`, begun early (a module that loads while something else runs), marked handled at once: a run
 * that fails first never awaits it, and its failure then is no unhandled rejection.
 */
export function startEarly<T>(work: Promise<T>): Promise<T> {
  work.catch(noop)
  return work
}

/**
 * Settles like `work`, but rejects with CancelledError as soon as `signal` fires, so that a
 * request that hangs cannot hold up a cancelled run. The work itself is left to die with the
 * process.
 */
export function untilCancelled<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new CancelledError())
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(signal.aborted ? new CancelledError() : error)
      }
    )
  })
}

/**
 * Runs `work` with a signal that fires after `ms` of clock time or when `signal` does, whichever
 * comes first; the timer ends with the work.
 */
export async function withTimeout<T>(
  clock: Clock,
  ms: number,
  signal: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>
): Promise<T> {
  const bound = new AbortController()
  const timer = new AbortController()
  const onAbort = (): void => bound.abort(signal?.reason)
  if (signal?.aborted) onAbort()
  else signal?.addEventListener('abort', onAbort, { once: true })
  clock.sleep(ms, timer.signal).then(() => bound.abort(new Error(`no answer within ${formatDuration(ms)}`)), noop)
  try {
    return await work(bound.signal)
  } finally {
    timer.abort()
    signal?.removeEventListener('abort', onAbort)
  }
}

/** What a cancelled run has to stop and clean up before it ends itself (see cancelOnSignals). */
const CANCEL_GRACE_MS = 2500

/**
 * Turns the signals a CI system sends to cancel a run into an AbortSignal. The GitHub runner sends
 * SIGINT, then SIGTERM 7.5 s later, then kills: flows stop at the signal and clean up; if something
 * still hangs, `onGraceExpired` ends the process after CANCEL_GRACE_MS, still with a message.
 */
export function cancelOnSignals(onGraceExpired: () => void): AbortSignal {
  const controller = new AbortController()
  const onSignal = (name: NodeJS.Signals): void => {
    if (controller.signal.aborted) return
    controller.abort(new Error(`Received ${name}`))
    setTimeout(onGraceExpired, CANCEL_GRACE_MS).unref()
  }
  for (const name of ['SIGINT', 'SIGTERM'] as const) process.on(name, onSignal)
  return controller.signal
}
