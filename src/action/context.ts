import type { Clock } from '../common/clock.js'
import type { Host } from './host.js'
import type { Outputs } from './outputs.js'
import type { Report } from './summary.js'

/**
 * What a flow may ask of the runner: logging, masking, the environment, the event, GitHub, the tool cache.
 * Not the inputs (the settings carry them) and not the failure (main owns it).
 */
export type FlowHost = Pick<Host, 'log' | 'setSecret' | 'env' | 'event' | 'github' | 'toolCache'>

/** What every flow is handed: nothing in a flow reaches for globals of its own. */
export interface FlowContext {
  host: FlowHost
  clock: Clock
  /** Fires when the run is cancelled. */
  signal: AbortSignal
  outputs: Outputs
  report: Report
  /** Clock time the step started; `timeout` counts from here. */
  startedAt: number
  /** Clock time the step's `timeout` ends: every request and wait is bounded by it. */
  deadline: number
}
