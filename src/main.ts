import * as os from 'node:os'
import * as core from '@actions/core'
import { cancelOnSignals } from './cancellation.js'
import { type Clock, realClock } from './clock.js'
import type { FlowContext } from './context.js'
import { ActionError, CancelledError, errorMessage } from './errors.js'
import { ApiClient } from './http/api-client.js'
import { type InputName, type Settings, readSettings } from './inputs.js'
import { type Logger, actionsLogger } from './log.js'
import { Outputs } from './outputs.js'
import { type Report, newReport, writeSummary } from './summary.js'

/** What `run` needs from the outside world; tests replace parts of it. */
export interface RunDependencies {
  getInput: (name: InputName) => string
  env: NodeJS.ProcessEnv
  clock: Clock
  log: Logger
  outputs: Outputs
  /** Cancellation from outside; when absent, SIGINT/SIGTERM are listened to. */
  signal?: AbortSignal
  random?: () => number
  tuning?: FlowContext['tuning']
}

/**
 * The action: read the inputs, run the chosen operation, and turn any error into one clean
 * failure message. Outputs already set stay set; the job summary is written in every case.
 */
export async function run(overrides: Partial<RunDependencies> = {}): Promise<void> {
  const env = overrides.env ?? process.env
  const getInput = overrides.getInput ?? ((name: InputName) => core.getInput(name))
  // Mask the secrets before anything else can print them, even a validation error.
  for (const name of ['api-key', 'github-token'] as const) {
    const secret = getInput(name).trim()
    if (secret !== '') core.setSecret(secret)
  }

  const log = overrides.log ?? actionsLogger
  const outputs = overrides.outputs ?? new Outputs()
  // If the flow has not wound down in time after a cancellation, end the process before the
  // runner's SIGKILL: the step still fails with a message rather than vanishing.
  const cancellation = overrides.signal
    ? undefined
    : cancelOnSignals(() => {
        core.setFailed('The run was cancelled.')
        process.exit(1)
      })
  const signal = overrides.signal ?? (cancellation as { signal: AbortSignal }).signal
  let report: Report | undefined
  let client: ApiClient | undefined
  try {
    const settings = readSettings(getInput, { workspace: env.GITHUB_WORKSPACE || process.cwd(), warn: (m) => log.warning(m) })
    report = newReport(titleOf(settings))
    const clock = overrides.clock ?? realClock
    client = new ApiClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, clock, log, signal, random: overrides.random, policy: overrides.tuning?.retry })
    const context: FlowContext = {
      clock,
      log,
      signal,
      outputs,
      report,
      tempDir: env.RUNNER_TEMP || os.tmpdir(),
      random: overrides.random,
      tuning: overrides.tuning
    }
    await runOperation(settings, client, context)
    if (report) await writeSummary(report, outputs)
  } catch (error) {
    const message = signal.aborted || error instanceof CancelledError ? 'The run was cancelled; partial files were removed.' : errorMessage(error)
    if (!(error instanceof ActionError) && !(error instanceof CancelledError)) core.debug(String((error as Error)?.stack ?? error))
    core.setFailed(message)
    if (report) await writeSummary(report, outputs, message).catch((e) => log.warning(`Could not write the job summary: ${errorMessage(e)}`))
  } finally {
    client?.dispose()
    cancellation?.dispose()
  }
}

function titleOf(settings: Settings): string {
  return settings.operation === 'export' ? `Static export${settings.domain ? ` of ${settings.domain}` : ''}` : `Agent job: ${settings.operation}`
}

/** Loads only the flow the operation needs: the agent flow brings the GitHub client along. */
async function runOperation(settings: Settings, client: ApiClient, context: FlowContext): Promise<void> {
  if (settings.operation === 'export') {
    const { runExport } = await import('./export/export-flow.js')
    return runExport(settings, client, context)
  }
  const { runAgent } = await import('./agent/agent-flow.js')
  return runAgent(settings, client, context)
}
