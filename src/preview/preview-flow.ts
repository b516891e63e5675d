/**
 * A preview deployment of a branch, end to end: trigger it once (or take the one `job-id` names),
 * follow it as a deployment is followed (deploy/deploy-flow.ts), and show it where the pull
 * request's readers look: one comment on the pull request, edited as it goes, and (with
 * `github-environment`) a GitHub deployment whose link shows in the merge box.
 */
import type { FlowContext } from '../action/context.js'
import type { PreviewSettings } from '../action/settings.js'
import { commentCode } from '../common/text.js'
import { errorMessage } from '../common/errors.js'
import { followDeployment } from '../deploy/deploy-flow.js'
import type { Entrance } from '../gate/comment-gate.js'
import { repositoryOf, runUrlOf } from '../gate/trigger.js'
import { OurComments } from '../github/our-comments.js'
import { sendOnce } from '../reply/comment-run.js'
import type { OnComment } from '../reply/job-reply.js'
import { asObject } from '../service/answer.js'
import type { ServiceClient } from '../service/client.js'
import { DeployApi, type Deployment } from '../service/deploy-api.js'
import { previewBranch, previewCommit, pullRequestNumber } from './branch.js'
import { PreviewEnvironment } from './github-environment.js'
import { PreviewComment, type PreviewFacts } from './preview-comment.js'

const FIND_AND_FOLLOW_PREVIEW =
  'Find its status id on the dashboard and follow it with `operation: preview` and `job-id: <its status id>`.'

export async function runPreview(
  settings: PreviewSettings,
  client: ServiceClient,
  context: FlowContext,
  on: OnComment,
  entrance: Entrance
): Promise<void> {
  const { host, outputs, report, clock, deadline } = context
  const { log } = host
  const env = (name: Parameters<typeof host.env>[0]): string | undefined => host.env(name)
  const { event } = entrance
  const { projectId } = settings
  // Before any request: a run that cannot tell which branch asks nothing.
  const branch = previewBranch(settings.branch, event, env)
  report.rows.push(['Project', projectId], ['Branch', branch])
  const api = new DeployApi(client)

  const { statusId, triggered, previewUrl } = await log.group('Trigger the preview', async () => {
    if (settings.jobId !== undefined) {
      log.info(`Following preview ${settings.jobId}; nothing is triggered.`)
      return { statusId: settings.jobId, triggered: false, previewUrl: undefined }
    }
    const sent = await sendOnce(
      on.run,
      {
        asked: 'trigger',
        scope: projectId,
        words: {
          request: `trigger a preview of branch ${branch} in project ${projectId}`,
          instead: FIND_AND_FOLLOW_PREVIEW
        },
        asking: on.reply.askingText(`Triggering a preview of branch ${commentCode(branch)}`),
        send: () => api.preview(projectId, branch, deadline),
        jobOf: (answer) => answer.statusId
      },
      context
    )
    if (sent.kind === 'resumed') return { statusId: sent.job.jobId, triggered: false, previewUrl: undefined }
    const { statusId: id, previewUrl: url } = sent.answer
    log.info(
      `Triggered a preview of branch ${branch} in project ${projectId}: status id ${id}${url ? `, ${url}` : ''}.`
    )
    return { statusId: id, triggered: true, previewUrl: url }
  })
  outputs.set('job-id', statusId)
  if (previewUrl !== undefined) {
    outputs.set('preview-url', previewUrl)
    report.rows.push(['Preview', previewUrl])
  }
  on.reply.working({ jobId: statusId, link: previewUrl })

  const commit = previewCommit(event, env)
  const runUrl = runUrlOf(env, repositoryOf(env('GITHUB_REPOSITORY'), asObject(event.payload.repository)))
  const shown = await showOnPullRequest(settings, context, entrance, previewUrl, commit, runUrl)
  const facts = (deployment: Deployment | undefined, stopped?: string): PreviewFacts => ({
    branch,
    statusId,
    previewUrl,
    status: deployment?.status ?? (triggered ? 'queued' : undefined),
    commit: deployment?.commit?.sha ?? commit,
    at: clock.now(),
    summary: deployment?.summary,
    logs: deployment?.logs,
    stopped,
    runUrl
  })
  shown.comment?.showSoon(facts(undefined))

  let last: Deployment | undefined
  try {
    const final = await followDeployment(statusId, triggered, api, settings, context, on, {
      noun: 'Preview',
      expected: { sha: commit, what: "the branch's head commit this workflow runs on" },
      followUp: `rerun with \`job-id: ${statusId}\` to follow it without triggering another`,
      onValue: (deployment) => {
        last = deployment
        shown.comment?.showSoon(facts(deployment))
      }
    })
    if (final !== undefined) {
      await shown.comment?.show(facts(final))
      shown.environment?.mark('success', previewUrl)
      log.info(`Preview ${statusId} is ready${previewUrl === undefined ? '' : `: ${previewUrl}`}.`)
    }
  } catch (error) {
    const failed = last?.status === 'failure'
    await shown.comment?.show(facts(last, failed ? undefined : errorMessage(error)))
    shown.environment?.mark(failed ? 'failure' : 'error', previewUrl)
    throw error
  } finally {
    await Promise.all([shown.comment?.settled(), shown.environment?.settled()])
  }
}

/** The pull request's comment and the GitHub deployment, each when asked for and possible here. */
async function showOnPullRequest(
  settings: PreviewSettings,
  context: FlowContext,
  entrance: Entrance,
  previewUrl: string | undefined,
  commit: string | undefined,
  runUrl: string | undefined
): Promise<{ comment: PreviewComment | undefined; environment: PreviewEnvironment | undefined }> {
  const { host } = context
  const { event } = entrance
  const repository = repositoryOf(host.env('GITHUB_REPOSITORY'), asObject(event.payload.repository))
  const number = pullRequestNumber(event)
  const wanted = (settings.previewComment && number !== undefined) || settings.githubEnvironment !== undefined
  const github = wanted ? await entrance.github() : undefined
  if (wanted && (github === undefined || repository === undefined)) {
    host.log.warning(
      'Without `github-token` and the repository, the preview is shown neither on the pull request nor as a ' +
        'GitHub deployment.'
    )
    return { comment: undefined, environment: undefined }
  }
  const comment =
    settings.previewComment && number !== undefined && github !== undefined && repository !== undefined
      ? await PreviewComment.open(
          github,
          context,
          new OurComments(github, context),
          { repository, number },
          settings.projectId
        )
      : undefined
  const environment =
    settings.githubEnvironment !== undefined && github !== undefined && repository !== undefined
      ? commit === undefined
        ? (host.log.warning('No commit to record a GitHub deployment of (`GITHUB_SHA` is not set).'), undefined)
        : await PreviewEnvironment.start(
            github,
            context,
            { repository, environment: settings.githubEnvironment, sha: commit, logUrl: runUrl },
            previewUrl
          )
      : undefined
  return { comment, environment }
}
