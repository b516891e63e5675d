import type { FlowContext } from '../context.js'
import { formatDuration } from '../duration.js'
import { ActionError, errorMessage, isAbortError } from '../errors.js'
import type { ApiClient } from '../http/api-client.js'
import type { AgentSettings } from '../inputs.js'
import { PollTimeoutError, pollUntilDone } from '../poll/poller.js'
import { AGENT_KNOWN, AGENT_TERMINAL, AgentApi, type AgentJob } from './agent-api.js'
import {
  CommentResponder,
  type TriggeringComment,
  TRUSTED_ASSOCIATIONS,
  isCommentEvent,
  matchCommand,
  readTriggeringComment,
  replyText
} from './comment.js'

/** How much of the prompt the job summary shows. */
const PROMPT_PREVIEW = 200

/** What the run knows about the job so far: for outputs, the reply and error messages. */
interface Progress {
  jobId: string | undefined
  last: AgentJob | undefined
}

/**
 * Agent jobs: send a follow-up message, read a job, or create one, and (with `wait`) follow the
 * job until it is `completed`, `archived` or `failed`. On a comment event, the comment may carry
 * the prompt (`comment-command`), and gets a reaction and a reply (`comment-reply`).
 */
export async function runAgent(settings: AgentSettings, client: ApiClient, context: FlowContext): Promise<void> {
  const { clock, log, outputs, report, signal } = context
  const startedAt = clock.now()

  const comment = isCommentEvent(process.env.GITHUB_EVENT_NAME) ? await readTriggeringComment() : undefined
  if (comment) {
    describeComment(comment, context)
    const skip = skipReason(comment, settings)
    if (skip !== undefined) {
      log.info(`${skip} Nothing to do.`)
      outputs.set('skipped', true)
      report.notes.push(`Skipped: ${skip}`)
      return
    }
  }
  outputs.set('skipped', false)

  const prompt = settings.operation === 'agent-status' ? undefined : resolvePrompt(settings, comment)
  if (prompt !== undefined) {
    report.rows.push(['Prompt', prompt.length > PROMPT_PREVIEW ? `${prompt.slice(0, PROMPT_PREVIEW)}…` : prompt])
  }

  const responder = comment && settings.commentReply ? await CommentResponder.open(comment, settings.githubToken, log, signal) : undefined
  const progress: Progress = { jobId: settings.jobId, last: undefined }
  const reply = (outcome: { status: string | undefined; prLink: string | undefined; error: string | undefined }) =>
    responder?.reply(
      replyText(
        { operation: settings.operation, jobId: progress.jobId, waited: settings.wait, runUrl: comment?.runUrl, ...outcome },
        [settings.apiKey, settings.githubToken]
      )
    )
  try {
    const final = await drive(settings, prompt, client, context, progress, startedAt, () => responder?.react('eyes'))
    await reply({ status: final?.status, prLink: final?.prLink, error: undefined })
  } catch (error) {
    if (!signal.aborted && !isAbortError(error)) await reply({ status: progress.last?.status, prLink: undefined, error: errorMessage(error) })
    throw error
  }
}

function describeComment(comment: TriggeringComment, context: FlowContext): void {
  const { log, report } = context
  const who = comment.author ?? 'an unknown author'
  const association = comment.authorAssociation ?? 'unknown'
  log.info(`Triggered by ${comment.event} ${comment.id} from ${who} (author association ${association}).`)
  report.rows.push(['Comment by', who])
  report.rows.push(['Author association', association])
  if (!TRUSTED_ASSOCIATIONS.has(association)) {
    log.warning(
      `The comment's author association is ${association}: make sure the workflow lets only trusted authors (e.g. OWNER, MEMBER, COLLABORATOR) run the agent.`
    )
  }
}

/** Why the comment does not run anything, or undefined when it does. */
function skipReason(comment: TriggeringComment, settings: AgentSettings): string | undefined {
  // An edit or deletion must not send the same instruction a second time.
  if (comment.action !== undefined && comment.action !== 'created') return `The comment was ${comment.action}, not created.`
  if (settings.commentCommand !== undefined && !matchCommand(comment.body, settings.commentCommand).matched) {
    return `The comment does not start with \`${settings.commentCommand}\`.`
  }
  return undefined
}

/** The `prompt` input, else the comment's text after the command; never blank. */
function resolvePrompt(settings: AgentSettings, comment: TriggeringComment | undefined): string {
  if (settings.prompt !== undefined && settings.prompt.trim() !== '') return settings.prompt.trim()
  if (comment && settings.commentCommand !== undefined) {
    const { rest } = matchCommand(comment.body, settings.commentCommand)
    if (rest !== '') return rest
    throw new ActionError(
      `\`prompt\` is empty and the comment holds nothing after \`${settings.commentCommand}\`: write the instruction after the command, e.g. \`${settings.commentCommand} fix the broken link on the install page\`.`
    )
  }
  const where = settings.commentCommand !== undefined ? ` and this run was not started by a comment (event \`${process.env.GITHUB_EVENT_NAME ?? 'unknown'}\`)` : ''
  throw new ActionError(`\`prompt\` is required for \`${settings.operation}\` (at least one non-blank character)${where}.`)
}

/** Runs the operation; resolves with the last job seen (undefined when none was read). */
async function drive(
  settings: AgentSettings,
  prompt: string | undefined,
  client: ApiClient,
  context: FlowContext,
  progress: Progress,
  startedAt: number,
  accepted: () => Promise<unknown> | undefined
): Promise<AgentJob | undefined> {
  const { clock, log, outputs, report } = context
  const api = new AgentApi(client, () => clock.now())
  const deadline = startedAt + settings.timeoutMs
  const { projectId } = settings

  let jobId: string
  if (settings.operation === 'agent-status') {
    jobId = settings.jobId as string // inputs require it
    outputs.set('job-id', jobId)
    if (!settings.wait) {
      const job = await api.get(projectId, jobId, deadline)
      progress.last = job
      record(job, context)
      log.info(`Agent job ${jobId}: ${job.status}.`)
      await accepted()
      report.notes.push('Not waiting for the job (`wait: false`).')
      return finish(jobId, job, context)
    }
  } else {
    const text = prompt as string
    const answer = await log.group(
      settings.operation === 'agent-create' ? `Create an agent job in project ${projectId}` : `Send the message to agent job ${settings.jobId}`,
      async () => {
        if (settings.operation === 'agent-create') {
          const created = await api.create(projectId, text, deadline)
          log.info(`Created agent job ${created.id} in project ${projectId}.`)
          return created
        }
        const sent = await api.message(projectId, settings.jobId as string, text, deadline)
        log.info(`Agent job ${settings.jobId} accepted the message.`)
        return sent
      }
    )
    jobId = settings.operation === 'agent-create' ? (answer.id as string) : (settings.jobId as string)
    progress.jobId = jobId
    outputs.set('job-id', jobId)
    // The answer may still show the job as it was before the message (the spec leaves open how a
    // message changes `status`): its outcome fields count only when nothing more will be read.
    record(answer, context, !settings.wait || (answer.status !== undefined && !AGENT_TERMINAL.has(answer.status)))
    progress.last = answer
    await accepted()
    if (!settings.wait) {
      if (answer.status !== undefined) log.info(`Agent job ${jobId}: ${answer.status}.`)
      report.notes.push('Not waiting for the job (`wait: false`).')
      return answer
    }
  }

  const final = await log.group(`Wait for agent job ${jobId}`, () =>
    waitForJob(api, jobId, settings, context, progress, startedAt, settings.operation === 'agent-status' ? accepted : undefined)
  )
  return finish(jobId, final, context)
}

/** Judges a job in a terminal (or, without wait, any) state: `failed` fails the step. */
function finish(jobId: string, job: AgentJob & { status: string }, context: FlowContext): AgentJob {
  const { log, report } = context
  if (job.status === 'failed') {
    throw new ActionError(`Agent job ${jobId} failed${job.error ? `: ${job.error}` : ' (the service gave no reason)'}.`)
  }
  if (job.status === 'completed') {
    if (job.prLink !== undefined) {
      log.info(`Agent job ${jobId} completed; pull request: ${job.prLink}`)
    } else {
      const note = `Agent job ${jobId} completed without a pull request (the agent made no file changes).`
      log.info(note)
      report.notes.push(note)
    }
  } else if (job.status === 'archived') {
    const note = `Agent job ${jobId} is archived${job.archivedAt ? ` (since ${job.archivedAt})` : ''}.`
    log.info(note)
    report.notes.push(note)
  }
  return job
}

async function waitForJob(
  api: AgentApi,
  jobId: string,
  settings: AgentSettings,
  context: FlowContext,
  progress: Progress,
  startedAt: number,
  onFirstRead: (() => Promise<unknown> | undefined) | undefined
): Promise<AgentJob & { status: string }> {
  const { clock, log, signal, outputs } = context
  const deadline = startedAt + settings.timeoutMs
  const warned = new Set<string>()
  let lastStatus: string | undefined
  let firstRead = onFirstRead
  try {
    const result = await pollUntilDone<AgentJob & { status: string }>({
      check: async () => {
        const job = await api.get(settings.projectId, jobId, deadline)
        if (firstRead) {
          const react = firstRead
          firstRead = undefined
          await react()
        }
        return job
      },
      read: (job) => ({ status: job.status, done: AGENT_TERMINAL.has(job.status) }),
      settings: {
        initialIntervalMs: settings.pollIntervalMs,
        maxIntervalMs: settings.maxPollIntervalMs,
        // One `timeout` for the whole step: the message and any Retry-After wait count too.
        timeoutMs: Math.max(0, deadline - clock.now())
      },
      clock,
      signal,
      random: context.random,
      checkFirst: settings.operation === 'agent-status',
      onObservation: (job) => {
        if (!AGENT_KNOWN.has(job.status) && !warned.has(job.status)) {
          warned.add(job.status)
          log.warning(`Agent job ${jobId} reports the unknown status \`${job.status}\`; treating it as still running.`)
        }
        if (job.status !== lastStatus) {
          log.info(`Agent job ${jobId}: ${job.status} after ${formatDuration(clock.now() - startedAt)}.`)
          lastStatus = job.status
        }
        progress.last = job
        record(job, context)
      }
    })
    log.info(`Agent job ${jobId} ended \`${result.value.status}\` after ${formatDuration(clock.now() - startedAt)} and ${result.polls} status requests.`)
    return result.value
  } catch (error) {
    if (error instanceof PollTimeoutError) {
      const last = progress.last?.status
      outputs.set('status', last)
      throw new ActionError(
        `Agent job ${jobId} did not end within \`timeout\` (${formatDuration(settings.timeoutMs)}): last status ${last ? `\`${last}\`` : 'unknown (no status seen)'}, after waiting ${formatDuration(clock.now() - startedAt)}. The job may still finish: check it with \`operation: agent-status\` and \`job-id: ${jobId}\`.`
      )
    }
    throw error
  }
}

/**
 * Sets the outputs from what a job answer says. `outcome` false leaves status, pr-link and
 * archived-at alone (an answer that may describe the job before the message).
 */
function record(job: AgentJob, context: FlowContext, outcome = true): void {
  const { outputs } = context
  if (job.model !== undefined) outputs.set('model', job.model)
  if (job.sourceRepository !== undefined) outputs.set('source-repository', job.sourceRepository)
  if (job.sourceRef !== undefined) outputs.set('source-ref', job.sourceRef)
  if (job.createdAt !== undefined) outputs.set('created-at', job.createdAt)
  if (!outcome) return
  if (job.status !== undefined) outputs.set('status', job.status)
  outputs.set('pr-link', job.prLink ?? '')
  outputs.set('archived-at', job.archivedAt ?? '')
}
