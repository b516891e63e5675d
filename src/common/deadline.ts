/**
 * The step's `timeout` as a bound on each piece of work. Waits never pass the deadline; a request
 * may run a little past it, so that the last status check (made at the deadline) can still be
 * answered. The grace is absolute: requests in a row after the deadline share it.
 */
import type { Clock } from './clock.js'

const DEADLINE_GRACE_MS = 2000

export interface Budget {
  /** Milliseconds the work may take. */
  ms: number
  /** True when the deadline, not the work's own cap, sets the bound. */
  byDeadline: boolean
}

/** What is left for one piece of work: at most `capMs`, and never past the deadline's grace. */
export function budget(clock: Clock, deadline: number | undefined, capMs: number): Budget {
  if (deadline === undefined) return { ms: capMs, byDeadline: false }
  const left = Math.max(0, deadline + DEADLINE_GRACE_MS - clock.now())
  return left < capMs ? { ms: left, byDeadline: true } : { ms: capMs, byDeadline: false }
}
