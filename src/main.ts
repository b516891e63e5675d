/**
 * The action: read the settings, run the chosen operation, and turn any error into one clean
 * failure message. Everything from the runner comes through the Host (the GitHub runner's unless
 * a test or another front end passes its own); outputs already set stay set, and the job summary
 * is written in every case.
 */
import { actionsHost } from './action/actions-host.js'
import type { FlowContext } from './action/context.js'
import type { Host, RunnerEvent } from './action/host.js'
import { forkOf } from './preview/branch.js'
import { SECRET_INPUTS } from './action/inputs.js'
import { Outputs } from './action/outputs.js'
import { jobNoun, resumeHint } from './action/resume.js'
import { type Settings, readSettings } from './action/settings.js'
import { type Report, newReport, renderSummary } from './action/summary.js'
import { titleOf } from './action/title.js'
import { repositoryOf, subjectOf } from './gate/trigger.js'
import { type Clock, systemClock } from './common/clock.js'
import { ActionError, CancelledError, errorMessage, isAbortError } from './common/errors.js'
import { Secrets } from './common/secrets.js'
import { failureKind } from './failure-kind.js'
import { enter } from './gate/comment-gate.js'
import { asObject } from './service/answer.js'
import { ServiceClient } from './service/client.js'
import { openCommentRun } from './reply/comment-run.js'
import { JobReply } from './reply/job-reply.js'

export async function run(host: Host = actionsHost(), clock: Clock = systemClock): Promise<void> {
  // Mask the secrets before anything else can print them, even a validation error.
  const secrets = new Secrets((secret) => host.setSecret(secret))
  for (const name of SECRET_INPUTS) secrets.addCredential(host.getInput(name)?.trim() ?? '')
  const { log } = host
  const signal = host.cancelled
  const outputs = new Outputs((name, value) => {
    try {
      host.setOutput(name, value)
    } catch (error) {
      // The runner's output file could not be written: said as such, and (see namingTheJob) with
      // the job already started, which a rerun would otherwise start again.
      throw new ActionError(`Could not set the output \`${name}\`: ${errorMessage(error)}`)
    }
  })
  let settings: Settings | undefined
  // Made first, so that a run whose inputs are refused still leaves its summary.
  const report: Report = newReport('Docs admin')
  let client: ServiceClient | undefined
  let failure: string | undefined
  try {
    const event = await host.event()
    // Before the inputs: a fork's run has no secrets, and a preview of its branch cannot be made.
    if (skipsFork(host.getInput('operation'), event, { host, outputs, report })) return
    settings = readSettings((name) => host.getInput(name), {
      workspace: host.env('GITHUB_WORKSPACE') ?? process.cwd(),
      eventName: host.env('GITHUB_EVENT_NAME'),
      warn: (m) => log.warning(m)
    })
    report.title = titleOf(settings)
    client = new ServiceClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, clock, log, secrets, signal })
    const startedAt = clock.now()
    await runOperation(settings, client, event, {
      host,
      clock,
      signal,
      outputs,
      report,
      secrets,
      startedAt,
      deadline: startedAt + settings.timeoutMs
    })
  } catch (error) {
    const cancelled = signal.aborted || error instanceof CancelledError
    if (!cancelled && !(error instanceof ActionError)) log.debug(String((error as Error)?.stack ?? error))
    failure = cancelled
      ? cancelledMessage(settings, outputs.get('job-id'))
      : namingTheJob(errorMessage(error), settings, outputs.get('job-id'))
    host.setFailed(failure, failureKind(error, cancelled))
  } finally {
    client?.dispose()
  }
  await host
    .appendSummary(renderSummary(report, outputs, failure, secrets, clock.now()))
    .catch((error: unknown) => log.warning(`Could not write the job summary: ${errorMessage(error)}`))
}

/**
 * A preview of a fork's pull request is skipped, with a notice: Mintlify previews branches of the
 * connected repository only, and GitHub gives a fork's run no secrets (on `pull_request`).
 */
function skipsFork(
  operation: string | undefined,
  event: RunnerEvent,
  context: Pick<FlowContext, 'outputs' | 'report'> & { host: Host }
): boolean {
  const fork = operation?.trim() === 'preview' ? forkOf(event) : undefined
  if (fork === undefined) return false
  const message =
    `The pull request comes from ${fork}, a fork: Mintlify previews branches of the connected repository only ` +
    "(and GitHub gives a fork's run no secrets), so no preview was triggered. Push the branch to this " +
    'repository to preview it.'
  context.host.log.notice(message)
  context.outputs.set('skipped', true)
  context.outputs.set('skip-reason', 'fork')
  context.report.title = 'Preview'
  context.report.notes.push(`Skipped: ${message}`)
  return true
}

/** A failure once a job exists says which job: the user picks it up from there. */
function namingTheJob(message: string, settings: Settings | undefined, jobId: string | undefined): string {
  if (settings === undefined || jobId === undefined || jobId === '' || message.includes(jobId)) return message
  return `${jobNoun(settings.operation)} ${jobId}: ${message}`
}

/** Once a job exists, a cancellation says how to pick it up: the job goes on without the run. */
function cancelledMessage(settings: Settings | undefined, jobId: string | undefined): string {
  // Only an export writes files that a cancellation would leave half done.
  const ended =
    settings?.operation === 'export' ? 'The run was cancelled; partial files were removed.' : 'The run was cancelled.'
  if (settings === undefined || jobId === undefined || jobId === '') return ended
  return `${ended} ${resumeHint(settings.operation, jobId)}`
}

/**
 * Every operation enters through the comment gate: on a comment event nothing reaches the service
 * unless the comment's author may (see gate/comment-gate.ts). A comment that passed gets the run's
 * reply, and every once-only request goes through its rerun rule (see reply/comment-run.ts). Then
 * only the flow the operation needs is loaded: the agent flow brings the GitHub client along.
 */
async function runOperation(
  settings: Settings,
  client: ServiceClient,
  event: RunnerEvent,
  context: FlowContext
): Promise<void> {
  const { host, report } = context
  // The issue or pull request the event is about names a conversation ("Agent conversation on #42").
  const home = repositoryOf(host.env('GITHUB_REPOSITORY'), asObject(event.payload.repository))
  report.title = titleOf(settings, subjectOf(event, home)?.number)
  const entrance = await enter(settings, context, event)
  if (entrance === undefined) return
  const run = await openCommentRun(entrance, settings, context)
  const { operation } = settings
  if (operation !== 'export' && operation !== 'deploy' && operation !== 'preview' && operation !== 'automation') {
    const { runAgent } = await import('./agent/agent-flow.js')
    return runAgent(settings, client, context, entrance, run)
  }
  const reply = new JobReply(run, jobNoun(settings.operation), context)
  try {
    if (settings.operation === 'export') {
      const { runExport } = await import('./export/export-flow.js')
      await runExport(settings, client, context, { run, reply })
    } else if (settings.operation === 'preview') {
      const { runPreview } = await import('./preview/preview-flow.js')
      await runPreview(settings, client, context, { run, reply }, entrance)
    } else if (settings.operation === 'automation') {
      const { runAutomation } = await import('./automation/automation-flow.js')
      await runAutomation(settings, client, context, { run, reply })
    } else {
      const { runDeploy } = await import('./deploy/deploy-flow.js')
      await runDeploy(settings, client, context, { run, reply })
    }
  } catch (error) {
    const jobId = context.outputs.get('job-id')
    if (context.signal.aborted || isAbortError(error))
      await reply.cancel(jobId ? resumeHint(settings.operation, jobId) : undefined)
    else await reply.fail(errorMessage(error))
    throw error
  } finally {
    await reply.settled()
  }
}
