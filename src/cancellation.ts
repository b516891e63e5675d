import { CancelledError } from './errors.js'

/**
 * Turns the runner's cancellation into an AbortSignal. The runner sends SIGINT, then SIGTERM
 * 7.5 s later, then kills: flows stop at the signal and clean up; if something still hangs,
 * the process ends by itself after `graceMs` so the cleanup of the caller is all that runs.
 */
export function cancelOnSignals(
  onGraceExpired: () => void,
  graceMs = 2500,
  signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM']
): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController()
  let graceTimer: NodeJS.Timeout | undefined
  const onSignal = (name: NodeJS.Signals): void => {
    if (controller.signal.aborted) return
    controller.abort(new Error(`Received ${name}`))
    graceTimer = setTimeout(onGraceExpired, graceMs)
    graceTimer.unref()
  }
  for (const name of signals) process.on(name, onSignal)
  return {
    signal: controller.signal,
    dispose: () => {
      for (const name of signals) process.off(name, onSignal)
      if (graceTimer) clearTimeout(graceTimer)
    }
  }
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
