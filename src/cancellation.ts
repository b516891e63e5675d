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
