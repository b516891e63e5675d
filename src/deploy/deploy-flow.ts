/**
 * A deployment, end to end: trigger one of the project's deployment branch (or take the one
 * `job-id` names), follow it until `success` or `failure`, and say what was deployed. Outputs are
 * set as each fact becomes known, and the job summary is filled from the last status seen, also
 * when the step fails.
 */
import { serviceJobBasics } from '../follow/service-job.js'
import type { FlowContext } from '../action/context.js'
import type { DeploySettings } from '../action/settings.js'
import { ActionError } from '../common/errors.js'
import type { Logger } from '../common/log.js'
import { commentCode } from '../common/text.js'
import { formatDuration } from '../common/units.js'
import { followJob } from '../follow/follow-job.js'
import { sendOnce } from '../reply/comment-run.js'
import type { OnComment } from '../reply/job-reply.js'
import type { ServiceClient } from '../service/client.js'
import { DEPLOY_KNOWN, DEPLOY_TERMINAL, DeployApi, type Deployment, FIND_AND_FOLLOW } from '../service/deploy-api.js'
import { DeploymentReport, isAnotherCommit } from './deploy-report.js'

export async function runDeploy(
  settings: DeploySettings,
  client: ServiceClient,
  context: FlowContext,
  on: OnComment
): Promise<void> {
  const { host, outputs, report, deadline } = context
  const { log } = host
  const api = new DeployApi(client)
  if (settings.projectId !== undefined) report.rows.push(['Project', settings.projectId])

  // `triggered`: this run queued the deployment (not `job-id`, nor an earlier attempt's).
  const { statusId, triggered } = await log.group('Trigger the deployment', async () => {
    if (settings.jobId !== undefined) {
      log.info(`Following deployment ${settings.jobId}; nothing is triggered.`)
      return { statusId: settings.jobId, triggered: false }
    }
    const { projectId } = settings
    const sent = await sendOnce(
      on.run,
      {
        asked: 'trigger',
        scope: projectId,
        words: { request: `trigger a deployment of project ${projectId}`, instead: FIND_AND_FOLLOW },
        asking: on.reply.askingText(`Triggering a deployment of project ${commentCode(projectId)}`),
        send: () => api.trigger(projectId, deadline),
        jobOf: (id) => id
      },
      context
    )
    if (sent.kind === 'resumed') return { statusId: sent.job.jobId, triggered: false }
    log.info(`Triggered a deployment of project ${projectId}: status id ${sent.answer}.`)
    return { statusId: sent.answer, triggered: true }
  })
  outputs.set('job-id', statusId)
  await followDeployment(statusId, triggered, api, settings, context, on, {
    noun: 'Deployment',
    expected: { sha: host.env('GITHUB_SHA'), what: 'the commit this workflow runs on (`GITHUB_SHA`)' },
    followUp: `rerun with \`job-id: ${statusId}\` to follow it without triggering another`
  })
}

/** How followDeployment names what it follows, and what it expects of it. */
export interface FollowedDeployment {
  /** `Deployment`, or `Preview`. */
  noun: string
  /** The commit the deployment should deploy (a warning says so when another is); `what` names it. */
  expected: { sha: string | undefined; what: string }
  /** How to pick it up when the step ends before it does. */
  followUp: string
  /** Each status read, after the outputs took it. */
  onValue?: (deployment: Deployment) => void
}

/**
 * Follows deployment `statusId` (a deployment of the project's branch, or a preview's) until
 * `success` or `failure`, `triggered` by this run or not: the outputs as each status comes, what
 * was deployed in the log and the job summary (also when the step fails), the comment run's
 * reply, and a failure that fails the step. Resolves with the end, or undefined with `wait: false`.
 */
export async function followDeployment(
  statusId: string,
  triggered: boolean,
  api: DeployApi,
  settings: { wait: boolean; pollIntervalMs: number; maxPollIntervalMs: number; timeoutMs: number },
  context: FlowContext,
  on: OnComment,
  followed: FollowedDeployment
): Promise<Deployment | undefined> {
  const { clock, host, outputs, report, startedAt, deadline } = context
  const { log } = host
  const { noun, expected } = followed
  // The trigger's answer holds only the id; the reference says it queues the deployment.
  if (triggered) outputs.set('status', 'queued')
  on.reply.working({ jobId: statusId, status: triggered ? 'queued' : undefined })

  const describe = new DeploymentReport(statusId, context.secrets, noun)
  let last: Deployment | undefined
  let warnedOfCommit = false
  /** Every answer: the outputs, and once, a commit other than the one expected. */
  const publish = (deployment: Deployment): void => {
    last = deployment
    outputs.set('status', deployment.status)
    on.reply.working({ status: deployment.status })
    const sha = deployment.commit?.sha
    if (sha !== undefined) outputs.set('deployed-commit', sha)
    if (sha !== undefined && expected.sha !== undefined && !warnedOfCommit && isAnotherCommit(sha, expected.sha)) {
      warnedOfCommit = true
      const warning =
        `${noun} ${statusId} deployed ${describe.commitName(deployment)}, not ${expected.sha}, ${expected.what}: ` +
        'another commit was deployed. The branch may have moved on since, or may not be the one this workflow ' +
        'runs on.'
      log.warning(warning)
      report.notes.push(warning)
    }
    followed.onValue?.(deployment)
  }

  try {
    if (!settings.wait) {
      if (!triggered) publish(await api.status(statusId, deadline))
      report.notes.push(`Not waiting for the ${noun.toLowerCase()} (\`wait: false\`).`)
      return undefined
    }
    const { value: final } = await log.group(`Wait for ${noun.toLowerCase()} ${statusId}`, () =>
      followJob<Deployment>({
        ...serviceJobBasics(settings, context),
        name: `${noun} ${statusId}`,
        check: () => api.status(statusId, deadline),
        read: (deployment) => ({ status: deployment.status, summary: describe.describe(deployment) }),
        terminal: DEPLOY_TERMINAL,
        known: DEPLOY_KNOWN,
        onValue: publish,
        // A deployment of an earlier run may be over already; one this run triggered is not.
        checkFirst: !triggered,
        resumeHint: followed.followUp
      })
    )
    await logOutcome(statusId, final, describe, log)
    // Timed by the service when it says; else, for a deployment this run triggered, by this run.
    if (describe.duration(final) === undefined && triggered)
      report.rows.push(['Duration', `${formatDuration(clock.now() - startedAt)} (as this run saw it)`])
    const commit = describe.commitLine(final)
    await on.reply.end(final.status === 'success', {
      status: final.status,
      elapsedMs: describe.durationMs(final),
      details: commit === undefined ? undefined : [commit],
      error: final.status === 'failure' ? describe.failure(final) : undefined
    })
    if (final.status === 'failure') throw new ActionError(describe.failure(final))
    return final
  } finally {
    if (last !== undefined) {
      const { rows, folds } = describe.summary(last)
      report.rows.push(...rows)
      report.folds.push(...folds)
    }
  }
}

/** What was deployed, in the log (a CLI has no job summary): the commit, its changes, and a failure's log. */
async function logOutcome(statusId: string, final: Deployment, describe: DeploymentReport, log: Logger): Promise<void> {
  const commit = describe.commitLine(final)
  const counts = describe.changeCounts(final)
  if (commit !== undefined) {
    const verb = final.status === 'success' ? 'deployed' : 'was to deploy'
    log.info(`${describe.noun} ${statusId} ${verb} ${commit}${counts === undefined ? '' : `; ${counts}`}.`)
  }
  const changed = describe.changedPaths(final)
  if (changed.length > 0) {
    await log.group('Paths the deployed commit changed', async () => {
      for (const { title, paths } of changed) {
        log.info(`${title}:`)
        for (const path of paths) log.info(`  ${path}`)
      }
    })
  }
  if (final.status === 'failure' && final.logs.length > 0) {
    const lines = describe.lastLogLines(final)
    await log.group(`Deployment ${statusId}: its log's last ${lines.length} lines`, async () => {
      for (const line of lines) log.info(line)
    })
  }
}
