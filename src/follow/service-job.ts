/**
 * What following any of the service's jobs shares (an export, a deployment, an agent job): how
 * the service client judges a failed status read, and the step's pace and timing.
 */
import type { FlowContext } from '../action/context.js'
import { askedWait, isOutOfTime, isPassingOutage } from '../service/client.js'

export function serviceJobBasics(
  settings: { pollIntervalMs: number; maxPollIntervalMs: number; timeoutMs: number },
  context: FlowContext
) {
  return {
    isPassing: isPassingOutage,
    isOutOfTime,
    askedWait,
    initialIntervalMs: settings.pollIntervalMs,
    maxIntervalMs: settings.maxPollIntervalMs,
    startedAt: context.startedAt,
    timeoutMs: settings.timeoutMs,
    clock: context.clock,
    log: context.host.log,
    signal: context.signal
  }
}
