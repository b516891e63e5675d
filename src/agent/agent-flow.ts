/**
 * Agent jobs: send a follow-up message, create a job, or read one, and (with `wait`) follow the
 * job until it is `completed`, `archived` or `failed`. On a comment event, the comment may carry
 * the prompt (`comment-command`), and gets a reaction and a reply (`comment-reply`).
 */
import type { FlowContext } from '../action/context.js'
import type { Outputs } from '../action/outputs.js'
import type { AgentSettings } from '../action/settings.js'
import { ActionError, errorMessage, isAbortError } from '../common/errors.js'
import { followJob } from '../follow/follow-job.js'
import { AGENT_KNOWN, AGENT_TERMINAL, AgentApi, type AgentJob } from '../service/agent-api.js'
import type { ServiceClient } from '../service/client.js'
import { replyText } from './reply.js'
import { CommentResponder } from './responder.js'
import { type TriggeringComment, TRUSTED_ASSOCIATIONS, readTriggeringComment, resolvePrompt, skipReason } from './trigger.js'

/** How much of the prompt the job summary shows. */
const PROMPT_PREVIEW = 200

export async function runAgent(settings: AgentSettings, client: ServiceClient, context: FlowContext): Promise<void> {
  const { clock, host, outputs, report, signal } = context
  const { log } = host
  const startedAt = clock.now()
  const deadline = startedAt + settings.timeoutMs

  // 1. A comment event: who wrote it, and does it ask for anything?
  const event = await host.event()
  const comment = readTriggeringComment(event, (name) => host.env(name))
  if (comment !== undefined) {
    describeComment(comment, context)
    const skip = skipReason(comment, settings.commentCommand)
    if (skip !== undefined) {
      log.info(`${skip} Nothing to do.`)
      outputs.set('skipped', true)
      report.notes.push(`Skipped: ${skip}`)
      return
    }
  }
  outputs.set('skipped', false)
  const prompt = settings.operation === 'agent-status' ? undefined : resolvePrompt(settings.prompt, comment, event.name)
  if (prompt !== undefined) report.rows.push(['Prompt', prompt.length > PROMPT_PREVIEW ? `${prompt.slice(0, PROMPT_PREVIEW)}…` : prompt])

  const responder = comment !== undefined && settings.commentReply ? await CommentResponder.open(comment, settings.githubToken, context) : undefined
  const api = new AgentApi(client, () => clock.now())
  let jobId = settings.operation === 'agent-create' ? undefined : settings.jobId
  let last: AgentJob | undefined
  const reply = (outcome: { status: string | undefined; prLink: string | undefined; error: string | undefined }) =>
    responder?.reply(
      replyText({ operation: settings.operation, jobId, waited: settings.wait, runUrl: comment?.runUrl, ...outcome }, [settings.apiKey, settings.githubToken])
    )

  try {
    // 2. Reach the job: read it, or hand it the instruction.
    if (jobId !== undefined) outputs.set('job-id', jobId)
    const reached = await reachJob(settings, prompt, api, deadline, context)
    jobId = reached.jobId
    last = reached.job
    outputs.set('job-id', jobId)
    await responder?.react('eyes')

    // 3. Follow it to its end, unless asked not to.
    let final: AgentJob = reached.job
    if (settings.wait) {
      const name = `Agent job ${jobId}`
      const followed = await log.group(`Wait for agent job ${jobId}`, () =>
        followJob({
          name,
          check: () => api.get(settings.projectId, reached.jobId, deadline),
          read: (job) => ({ status: job.status, summary: job.status }),
          terminal: AGENT_TERMINAL,
          known: AGENT_KNOWN,
          onValue: (job) => {
            last = job
            publishJob(job, outputs)
          },
          // A read answer is the first check; a message's answer may still describe the job as
          // it was before the message, so only a status read counts.
          first: reached.read,
          checkFirst: false,
          initialIntervalMs: settings.pollIntervalMs,
          maxIntervalMs: settings.maxPollIntervalMs,
          startedAt,
          timeoutMs: settings.timeoutMs,
          resumeHint: `check it with \`operation: agent-status\` and \`job-id: ${reached.jobId}\``,
          clock,
          log,
          signal
        })
      )
      final = followed.value
    } else {
      if (final.status !== undefined) log.info(`Agent job ${jobId}: ${final.status}.`)
      report.notes.push('Not waiting for the job (`wait: false`).')
    }
    if (settings.wait || settings.operation === 'agent-status') judgeEnd(jobId, final, context)
    await reply({ status: final.status, prLink: final.prLink, error: undefined })
  } catch (error) {
    if (!signal.aborted && !isAbortError(error)) await reply({ status: last?.status, prLink: undefined, error: errorMessage(error) })
    throw error
  }
}

interface ReachedJob {
  jobId: string
  /** The service's answer. */
  job: AgentJob
  /** The answer of a status read, which following it counts as its first check. */
  read: (AgentJob & { status: string }) | undefined
}

/** Reads the job, sends it the message, or creates it. */
async function reachJob(settings: AgentSettings, prompt: string | undefined, api: AgentApi, deadline: number, context: FlowContext): Promise<ReachedJob> {
  const { log } = context.host
  const { projectId } = settings
  if (settings.operation === 'agent-status') {
    const job = await api.get(projectId, settings.jobId, deadline)
    publishJob(job, context.outputs)
    return { jobId: settings.jobId, job, read: job }
  }
  const text = prompt as string // resolved for every operation but agent-status
  const reached =
    settings.operation === 'agent-create'
      ? await log.group(`Create an agent job in project ${projectId}`, async () => {
          const created = await api.create(projectId, text, deadline)
          log.info(`Created agent job ${created.id} in project ${projectId}.`)
          return { jobId: created.id, job: created as AgentJob, read: undefined }
        })
      : await log.group(`Send the message to agent job ${settings.jobId}`, async () => {
          const sent = await api.message(projectId, settings.jobId, text, deadline)
          log.info(`Agent job ${settings.jobId} accepted the message.`)
          return { jobId: settings.jobId, job: sent, read: undefined }
        })
  // The answer may still show the job as it was before the message (the spec leaves open how a
  // message changes `status`): its outcome fields count only when nothing more will be read.
  const { status } = reached.job
  publishJob(reached.job, context.outputs, !settings.wait || (status !== undefined && !AGENT_TERMINAL.has(status)))
  return reached
}

/** A job in its final state (or, without wait, as read): `failed` fails the step. */
function judgeEnd(jobId: string, job: AgentJob, context: FlowContext): void {
  const { host, report } = context
  if (job.status === 'failed') {
    throw new ActionError(`Agent job ${jobId} failed${job.error ? `: ${job.error}` : ' (the service gave no reason)'}.`)
  }
  if (job.status === 'completed' && job.prLink !== undefined) {
    host.log.info(`Agent job ${jobId} completed; pull request: ${job.prLink}`)
    return
  }
  const note =
    job.status === 'completed'
      ? `Agent job ${jobId} completed without a pull request (the agent made no file changes).`
      : job.status === 'archived'
        ? `Agent job ${jobId} is archived${job.archivedAt ? ` (since ${job.archivedAt})` : ''}.`
        : undefined
  if (note === undefined) return
  host.log.info(note)
  report.notes.push(note)
}

function describeComment(comment: TriggeringComment, context: FlowContext): void {
  const { host, report } = context
  const who = comment.author ?? 'an unknown author'
  const association = comment.authorAssociation ?? 'unknown'
  host.log.info(`Triggered by ${comment.event} ${comment.id} from ${who} (author association ${association}).`)
  report.rows.push(['Comment by', who])
  report.rows.push(['Author association', association])
  if (!TRUSTED_ASSOCIATIONS.has(association)) {
    host.log.warning(
      `The comment's author association is ${association}: make sure the workflow lets only trusted authors (e.g. OWNER, MEMBER, COLLABORATOR) run the agent.`
    )
  }
}

/**
 * Sets the outputs from what a job answer says. `outcome` false leaves status, pr-link and
 * archived-at alone (an answer that may describe the job before the message).
 */
function publishJob(job: AgentJob, outputs: Outputs, outcome = true): void {
  if (job.model !== undefined) outputs.set('model', job.model)
  if (job.sourceRepository !== undefined) outputs.set('source-repository', job.sourceRepository)
  if (job.sourceRef !== undefined) outputs.set('source-ref', job.sourceRef)
  if (job.createdAt !== undefined) outputs.set('created-at', job.createdAt)
  if (!outcome) return
  if (job.status !== undefined) outputs.set('status', job.status)
  outputs.set('pr-link', job.prLink ?? '')
  outputs.set('archived-at', job.archivedAt ?? '')
}
