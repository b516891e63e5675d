import type { Clock } from '../common/clock.js'
import type { Secrets } from '../common/secrets.js'
import type { Host } from './host.js'
import type { Outputs } from './outputs.js'
import type { Report } from './summary.js'

/**
 * What a flow may ask of the runner: logging, the environment, the event, GitHub, the tool cache.
 * Not the inputs (the settings carry them), not the failure (main owns it), and not the masking:
 * a secret goes to the run's Secrets, which masks and redacts it alike.
 */
export type FlowHost = Pick<Host, 'log' | 'env' | 'event' | 'github' | 'toolCache'>

/** What every flow is handed: nothing in a flow reaches for globals of its own. */
export interface FlowContext {
  host: FlowHost
  clock: Clock
  /** Fires when the run is cancelled. */
  signal: AbortSignal
  outputs: Outputs
  report: Report
  /** Every secret of the run: a new one (a link's signature) is added here, masked and redacted from then on. */
  secrets: Secrets
  /** Clock time the step started; `timeout` counts from here. */
  startedAt: number
  /** Clock time the step's `timeout` ends: every request and wait is bounded by it. */
  deadline: number
}
