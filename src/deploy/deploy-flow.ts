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
import { formatDuration } from '../common/units.js'
import { followJob } from '../follow/follow-job.js'
import type { ServiceClient } from '../service/client.js'
import { DEPLOY_KNOWN, DEPLOY_TERMINAL, DeployApi, type Deployment } from '../service/deploy-api.js'
import { DeploymentReport, isAnotherCommit } from './deploy-report.js'

export async function runDeploy(settings: DeploySettings, client: ServiceClient, context: FlowContext): Promise<void> {
  const { clock, host, outputs, report, startedAt, deadline } = context
  const { log } = host
  const api = new DeployApi(client)
  if (settings.projectId !== undefined) report.rows.push(['Project', settings.projectId])

  const statusId = await log.group('Trigger the deployment', async () => {
    if (settings.jobId !== undefined) {
      log.info(`Following deployment ${settings.jobId}; nothing is triggered.`)
      return settings.jobId
    }
    const triggered = await api.trigger(settings.projectId, deadline)
    log.info(`Triggered a deployment of project ${settings.projectId}: status id ${triggered}.`)
    return triggered
  })
  outputs.set('job-id', statusId)
  // The trigger's answer holds only the id; the reference says it queues the deployment.
  if (settings.jobId === undefined) outputs.set('status', 'queued')

  const describe = new DeploymentReport(statusId, context.secrets)
  const expectedCommit = host.env('GITHUB_SHA')
  let last: Deployment | undefined
  let warnedOfCommit = false
  /** Every answer: the outputs, and once, a commit other than the workflow's. */
  const publish = (deployment: Deployment): void => {
    last = deployment
    outputs.set('status', deployment.status)
    const sha = deployment.commit?.sha
    if (sha === undefined) return
    outputs.set('deployed-commit', sha)
    if (expectedCommit === undefined || warnedOfCommit || !isAnotherCommit(sha, expectedCommit)) return
    warnedOfCommit = true
    const warning =
      `Deployment ${statusId} deployed ${describe.commitName(deployment)}, not ${expectedCommit}, the commit this ` +
      'workflow runs on (`GITHUB_SHA`): another commit was deployed. The deployment branch may have moved on ' +
      'since, or may not be the branch this workflow runs on.'
    log.warning(warning)
    report.notes.push(warning)
  }

  try {
    if (!settings.wait) {
      if (settings.jobId !== undefined) publish(await api.status(statusId, deadline))
      report.notes.push('Not waiting for the deployment (`wait: false`).')
      return
    }
    const { value: final } = await log.group(`Wait for deployment ${statusId}`, () =>
      followJob<Deployment>({
        ...serviceJobBasics(settings, context),
        name: `Deployment ${statusId}`,
        check: () => api.status(statusId, deadline),
        read: (deployment) => ({ status: deployment.status, summary: describe.describe(deployment) }),
        terminal: DEPLOY_TERMINAL,
        known: DEPLOY_KNOWN,
        onValue: publish,
        // A deployment of an earlier run may be over already; one this run triggered is not.
        checkFirst: settings.jobId !== undefined,
        resumeHint: `rerun with \`job-id: ${statusId}\` to follow it without triggering another`
      })
    )
    await logOutcome(statusId, final, describe, log)
    // Timed by the service when it says; else, for a deployment this run triggered, by this run.
    if (describe.duration(final) === undefined && settings.jobId === undefined)
      report.rows.push(['Duration', `${formatDuration(clock.now() - startedAt)} (as this run saw it)`])
    if (final.status === 'failure') throw new ActionError(describe.failure(final))
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
    log.info(`Deployment ${statusId} ${verb} ${commit}${counts === undefined ? '' : `; ${counts}`}.`)
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
