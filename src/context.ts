import type { Clock } from './clock.js'
import type { BackoffPolicy } from './http/retry.js'
import type { Logger } from './log.js'
import type { Outputs } from './outputs.js'
import type { Report } from './summary.js'

/** What every flow is handed: nothing in a flow reaches for globals of its own. */
export interface FlowContext {
  clock: Clock
  log: Logger
  signal: AbortSignal
  outputs: Outputs
  report: Report
  /** A folder for files that outlive nothing but the job (RUNNER_TEMP on a runner). */
  tempDir: string
  random?: () => number
  /** Knobs that tests turn down so that faults resolve in milliseconds. */
  tuning?: {
    retry?: BackoffPolicy
    stallTimeoutMs?: number
    progressIntervalMs?: number
  }
}
