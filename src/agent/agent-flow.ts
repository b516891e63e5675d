/**
 * Agent jobs: send an instruction to a job, create one, or read one, and (with `wait`) follow it
 * until it is `completed`, `archived` or `failed`. On a comment (which passed the gate, see
 * gate/comment-gate.ts) the run is a conversation: the command gets 👀 and one reply that follows
 * the job, and a pull request the agent opens records its job so that the next comment there
 * reaches the same job.
 */
import { serviceJobBasics } from '../follow/service-job.js'
import type { FlowContext } from '../action/context.js'
import { type GitHubApi, GitHubApiError, type InlineComment } from '../action/host.js'
import type { AgentSettings, JobSource } from '../action/settings.js'
import { ActionError, errorMessage, isAbortError } from '../common/errors.js'
import { cutShort } from '../common/text.js'
import { followJob } from '../follow/follow-job.js'
import { AGENT_KNOWN, AGENT_TERMINAL, AgentApi, type AgentJob, refusesMessages } from '../service/agent-api.js'
import { type ServiceClient, ServiceError } from '../service/client.js'
import { statusMissing } from '../service/answer.js'
import { Conversation, type JobInHand, type Reached, tookUpAlready } from './conversation.js'
import { READ_PERMISSION_HINT, describeGitHubError, readGitHub } from '../github/calls.js'
import { JobRecords, type RecordedJob } from './job-record.js'
import type { Entrance } from '../gate/comment-gate.js'
import { type CommentRun, earlierAttempt } from '../reply/comment-run.js'
import { OurComments } from '../github/our-comments.js'
import { type AgentAsked, type ReplyState, type Resumed, carryOn, unaccountedRerun } from '../reply/rerun-state.js'
import {
  REVIEW_COMMENTS_READ,
  type Subject,
  type TriggeringComment,
  promptWithContext,
  repositoryOf,
  resolvePrompt,
  subjectOf
} from '../gate/trigger.js'

/** How much of the prompt the job summary shows. */
const PROMPT_PREVIEW = 200
/**
 * How long after a message a job may still show its earlier end before that end is believed (with
 * a warning): a job that took up the message shows `active` first (spec 3.1).
 */
const MESSAGE_PICKUP_MS = 60_000
/** The command a record tells people to use when `comment-command` is not set. */
const DEFAULT_COMMAND = '/docs-agent'

/** What the run asks of the service; `instruction` is what the user asked for. */
type Request =
  /**
   * `resumed`: what an earlier attempt of this workflow run asked of the job, and when (see
   * RunReply.resume); this attempt carries on with it instead of asking again.
   */
  | { kind: 'read'; job: JobToReach; resumed?: Resumed }
  | { kind: 'message'; job: JobToReach; instruction: string; ifRefused: string | undefined }
  | { kind: 'create'; projectId: string; instruction: string; prompt: string }

/** A job to reach; `recordedOn`: the number of the pull request whose record named it (not `job-id`). */
type JobToReach = RecordedJob & { recordedOn?: number | undefined }

/** Where a run's instruction comes from and what it is about. */
interface Trigger {
  comment: TriggeringComment | undefined
  eventName: string | undefined
  subject: Subject | undefined
  /** A review's inline comments, part of its instruction. */
  inline: readonly InlineComment[]
}

export async function runAgent(
  settings: AgentSettings,
  client: ServiceClient,
  context: FlowContext,
  entrance: Entrance,
  run: CommentRun | undefined
): Promise<void> {
  const { clock, host, outputs, report, deadline } = context
  // A comment, if one started the run, has passed the gate (gate/comment-gate.ts).
  const { event, comment } = entrance
  const home = comment?.repository ?? repositoryOf(host.env('GITHUB_REPOSITORY'), {})
  // Only a comment can be skipped (see gate/): without one, `skipped` and `skip-reason` are not set.
  const github = await entrance.github()
  const ours = run?.ours ?? (github === undefined ? undefined : new OurComments(github, context))
  const progress = run?.reply
  const records =
    github === undefined || ours === undefined
      ? undefined
      : new JobRecords(github, context, settings.commentCommand ?? DEFAULT_COMMAND, home, settings.projectId, ours)
  const api = new AgentApi(client, () => clock.now())
  const conversation = new Conversation(settings, context, progress, records, comment?.runUrl)

  try {
    // 1. Which job, and what to ask of it: settled before any request to the service. A rerun of
    // the workflow run carries on from what an earlier attempt asked: asking again would send the
    // message twice or start a second job.
    // Without a reply to read that from, a rerun asks only for a read.
    const earlier = run?.reply === undefined ? undefined : await earlierAttempt(run, 'act on this comment')
    const request =
      resumedFrom(earlier, settings) ??
      (await plan(
        settings,
        {
          comment,
          eventName: event.name,
          subject: comment?.subject ?? subjectOf(event, home),
          inline: await reviewInlineComments(settings, comment, github, context)
        },
        records
      ))
    if (run?.rerun === true && run.reply === undefined && request.kind !== 'read') {
      const asked =
        request.kind === 'create' ? 'create an agent job' : `send a message to agent job ${request.job.jobId}`
      throw new ActionError(unaccountedRerun(asked, run.noReply ?? 'no reply of the action is kept'))
    }
    if (request.kind !== 'read') {
      const { instruction } = request
      report.rows.push(['Prompt', cutShort(instruction, PROMPT_PREVIEW)])
    }

    // 2. Reach the job.
    if (request.kind !== 'create') outputs.set('job-id', request.job.jobId)
    const reached = await reach(request, api, deadline, context, conversation)
    conversation.reached(reached)

    // 3. Follow it to its end, unless asked not to.
    let final: AgentJob = reached.job.answer
    if (settings.wait) {
      const { jobId, projectId } = reached.job
      let takenUp = tookUpAlready(reached)
      // The first window counts from when the message was sent, by this attempt or an earlier one.
      const pickupUntil = Math.min(reached.askedAt, clock.now()) + MESSAGE_PICKUP_MS
      const followed = await host.log.group(`Wait for agent job ${jobId}`, () =>
        followJob({
          ...serviceJobBasics(settings, context),
          name: `Agent job ${jobId}`,
          check: () => api.get(projectId, jobId, deadline),
          // A first read without a status is the first of the few read past.
          failed:
            request.kind === 'read' && reached.read === undefined
              ? [statusMissing(reached.job.answer, `read agent job ${jobId}`)]
              : undefined,
          read: (job) => ({ status: job.status, summary: job.status }),
          terminal: AGENT_TERMINAL,
          known: AGENT_KNOWN,
          onValue: (job) => {
            if (!takenUp && !AGENT_TERMINAL.has(job.status)) {
              takenUp = true
              conversation.tookUp()
            }
            // An end that may be from before the message is not the job's outcome (yet).
            conversation.seen(job, takenUp)
          },
          stale: { is: () => !takenUp, until: pickupUntil, what: 'the message' },
          // A read answer is the first check; a message's answer may still describe the job as
          // it was before the message, so only a status read counts.
          first: reached.read,
          checkFirst: false,
          resumeHint: `check it with \`operation: agent-status\` and \`job-id: ${jobId}\``
        })
      )
      final = followed.value
    } else {
      if (reached.job.answer.status !== undefined)
        host.log.info(`Agent job ${reached.job.jobId}: ${reached.job.answer.status}.`)
      report.notes.push('Not waiting for the job (`wait: false`).')
    }

    // 4. Act on its end.
    await conversation.ended(final, settings.wait || reached.request === 'read')
  } catch (error) {
    if (context.signal.aborted || isAbortError(error)) await conversation.cancelled()
    else await conversation.failed(errorMessage(error))
    throw error
  } finally {
    // What GitHub was told without waiting (a record while the job ran) is done before the step ends.
    await conversation.settled()
  }
}

/**
 * What a rerun asks after the earlier attempt `earlier` (see carryOn): a read of the job it
 * follows, an ActionError when it may not ask again, undefined to plan as if new.
 */
function resumedFrom(earlier: ReplyState | undefined, settings: AgentSettings): Request | undefined {
  const decision = carryOn(earlier, settings.projectId)
  if (decision.kind === 'refuse') throw new ActionError(decision.message)
  return decision.kind === 'follow' ? { kind: 'read', job: decision.job, resumed: decision.resumed } : undefined
}

/**
 * What to ask of which job. `agent` sends the instruction to the job recorded on the pull request
 * (or named by `job-id`), and creates a job anywhere else, with the issue or pull request as
 * context; if the job no longer takes messages, a new job gets the instruction and the link.
 */
async function plan(settings: AgentSettings, trigger: Trigger, records: JobRecords | undefined): Promise<Request> {
  const { subject } = trigger
  switch (settings.operation) {
    case 'agent-status':
      return { kind: 'read', job: await jobOf(settings.jobId, settings, subject, records) }
    case 'agent-message': {
      const instruction = resolvePrompt(settings.prompt, trigger.comment, trigger.eventName, trigger.inline)
      return {
        kind: 'message',
        job: await jobOf(settings.jobId, settings, subject, records),
        instruction,
        ifRefused: undefined
      }
    }
    case 'agent-create': {
      const instruction = resolvePrompt(settings.prompt, trigger.comment, trigger.eventName, trigger.inline)
      return { kind: 'create', projectId: settings.projectId, instruction, prompt: instruction }
    }
    case 'agent': {
      const text = resolvePrompt(settings.prompt, trigger.comment, trigger.eventName, trigger.inline)
      const recorded =
        settings.jobId !== undefined
          ? { projectId: settings.projectId, jobId: settings.jobId }
          : subject?.isPullRequest && records !== undefined
            ? await recordedOn(subject, records)
            : undefined
      if (recorded === undefined)
        return {
          kind: 'create',
          projectId: settings.projectId,
          instruction: text,
          prompt: promptWithContext(text, subject)
        }
      const earlier = subject?.isPullRequest
        ? `the pull request ${subject.url ?? `#${subject.number}`}, opened by docs agent job ${recorded.jobId}`
        : `docs agent job ${recorded.jobId}`
      const ifRefused = `${text}\n\n---\nContext: this follows up on ${earlier}, which no longer takes messages.`
      return { kind: 'message', job: recorded, instruction: text, ifRefused }
    }
  }
}

/**
 * A submitted review's inline comments, when its instruction comes from it: one page of them
 * (REVIEW_COMMENTS_READ). Throws when they cannot be read: an instruction without them is not the
 * one the reviewer gave.
 */
async function reviewInlineComments(
  settings: AgentSettings,
  comment: TriggeringComment | undefined,
  github: GitHubApi | undefined,
  context: FlowContext
): Promise<readonly InlineComment[]> {
  if (comment?.kind !== 'review' || settings.operation === 'agent-status' || settings.prompt.from !== 'comment')
    return []
  const { repository, subject } = comment
  if (github === undefined || repository === undefined || subject === undefined) return []
  try {
    return await readGitHub(context, (signal) =>
      github.listReviewInlineComments(repository, subject.number, comment.id, REVIEW_COMMENTS_READ, signal)
    )
  } catch (error) {
    if (!(error instanceof GitHubApiError)) throw error
    throw new ActionError(
      `Could not read the comments of review ${comment.id} on #${subject.number} ` +
        `(${describeGitHubError(error, READ_PERMISSION_HINT)}), so nothing was sent to the docs service: the ` +
        'instruction would lack them. Rerun the workflow once GitHub answers.'
    )
  }
}

/** The job `job-id` names, or the one recorded on the pull request commented on. */
async function jobOf(
  source: JobSource,
  settings: AgentSettings,
  subject: Subject | undefined,
  records: JobRecords | undefined
): Promise<JobToReach> {
  if (source.from === 'input') return { projectId: settings.projectId, jobId: source.id }
  const fix =
    'Set `job-id`, or create the job with this action (`operation: agent` or `agent-create`), which records it ' +
    'on the pull request it opens.'
  if (subject === undefined || !subject.isPullRequest) {
    throw new ActionError(
      `\`${settings.operation}\` has no \`job-id\` and the comment is not on a pull request, so there is no ` +
        `recorded job to use. ${fix}`
    )
  }
  if (records === undefined)
    throw new ActionError(
      `\`${settings.operation}\` has no \`job-id\`, and without \`github-token\` the job recorded on pull ` +
        `request #${subject.number} cannot be read. ${fix}`
    )
  const recorded = await recordedOn(subject, records)
  if (recorded === undefined) {
    throw new ActionError(
      `No agent job is recorded on pull request #${subject.number}, so \`${settings.operation}\` has no job to ` +
        `use (it was not opened by an agent job of this action). ${fix}`
    )
  }
  return recorded
}

async function recordedOn(subject: Subject, records: JobRecords): Promise<JobToReach | undefined> {
  try {
    const job = await records.latest({ repository: subject.repository, number: subject.number })
    return job === undefined ? undefined : { ...job, recordedOn: subject.number }
  } catch (error) {
    if (!(error instanceof GitHubApiError)) throw error
    throw new ActionError(
      `Could not read the comments of pull request #${subject.number} to find the agent job recorded there ` +
        `(${describeGitHubError(error, READ_PERMISSION_HINT)}); nothing was sent to the docs service. Rerun the ` +
        `workflow, or set \`job-id\`.`
    )
  }
}

/**
 * A 404 for the job a pull request's record names: the record is out of date (the service no
 * longer has that job), not `job-id`, which AgentApi's message says to check and nobody set.
 */
function notFoundOnRecord(error: unknown, job: JobToReach): unknown {
  const answer = (error as { cause?: unknown } | undefined)?.cause
  if (job.recordedOn === undefined || !(answer instanceof ServiceError) || answer.status !== 404) return error
  const said = answer.serviceError ? `: the service said "${answer.serviceError}"` : ''
  return new ActionError(
    `Agent job ${job.jobId}, which pull request #${job.recordedOn} records, was not found in project ` +
      `${job.projectId} (HTTP 404${said}): the service no longer has it. Set \`job-id\` to use another job, or ` +
      `comment the command on an issue to create a new one.`,
    { cause: answer }
  )
}

/** What a rerun says of what its earlier attempt asked of job `jobId`, which it follows instead of asking again. */
function resumedNote(resumed: { asked: AgentAsked; answered: boolean }, jobId: string): string {
  if (resumed.asked === 'message' && !resumed.answered) {
    // Its marker was written before the message went out: the attempt may have stopped before it did.
    return (
      `An earlier attempt of this workflow run may have sent the instruction to agent job \`${jobId}\` (it got no ` +
      `clear answer, or stopped before sending it): this attempt follows the job instead of sending it again. If ` +
      `the job does not act on the instruction, comment the command again.`
    )
  }
  const did = resumed.asked === 'read' ? 'read' : resumed.asked === 'create' ? 'created' : 'sent the instruction to'
  return (
    `An earlier attempt of this workflow run ${did} agent job \`${jobId}\`: this attempt follows it instead of ` +
    `asking the service again.`
  )
}

/** Reads the job, sends it the message (a job that takes no more: a new one gets it), or creates it. */
async function reach(
  request: Request,
  api: AgentApi,
  deadline: number,
  context: FlowContext,
  conversation: Conversation
): Promise<Reached> {
  const { log } = context.host
  const askedAt = context.clock.now()
  switch (request.kind) {
    case 'read': {
      const { resumed } = request
      const note = resumed === undefined ? undefined : resumedNote(resumed, request.job.jobId)
      if (note !== undefined) {
        // A message with no clear answer may never have reached the job: said as a warning, not as done.
        if (resumed?.answered === false) log.warning(note)
        else log.info(note)
        context.report.notes.push(note)
      }
      // A resumed run is what the earlier attempt asked, from when it asked (its message's end may be stale).
      const asked = { request: resumed?.asked ?? 'read', askedAt: resumed?.at ?? askedAt, seen: resumed?.seen ?? false }
      // Read as it is: a job without a `status` is still a job, shown so (following it reads again).
      const answer = await api.read(request.job.projectId, request.job.jobId, deadline).catch((error: unknown) => {
        throw notFoundOnRecord(error, request.job)
      })
      return {
        job: { ...request.job, answer },
        ...asked,
        read: answer.status === undefined ? undefined : { ...answer, status: answer.status },
        note
      }
    }
    case 'create':
      return {
        job: await create(request.projectId, request.prompt, api, deadline, context, conversation),
        request: 'create',
        askedAt,
        seen: false,
        read: undefined,
        note: undefined
      }
    case 'message': {
      const { projectId, jobId } = request.job
      await conversation.asking('message', request.job, askedAt)
      try {
        const answer = await log.group(`Send the message to agent job ${jobId}`, async () => {
          const sent = await conversation.trackRefusal(api.message(projectId, jobId, request.instruction, deadline))
          log.info(`Agent job ${jobId} accepted the message.`)
          return sent
        })
        return {
          job: { ...request.job, answer },
          request: 'message',
          askedAt,
          seen: false,
          read: undefined,
          note: undefined
        }
      } catch (error) {
        if (request.ifRefused === undefined || !refusesMessages(error)) throw notFoundOnRecord(error, request.job)
        // Refused as the job takes no more messages (409, 410): a job that has ended for good gets
        // a successor with the instruction; one still going fails with the service's reason. A new
        // job is work that cannot be taken back. Read as it is: a job that does not say its status
        // has not said it ended.
        const now = await api.read(projectId, jobId, deadline)
        if (now.status === undefined || !AGENT_TERMINAL.has(now.status)) throw error
        const why = error.serviceError ?? `HTTP ${error.status}`
        const note =
          `Agent job \`${jobId}\` no longer takes messages (it is ${now.status}: ${why}), so a new job got this ` +
          `instruction.`
        log.warning(note)
        return {
          job: await create(projectId, request.ifRefused, api, deadline, context, conversation),
          request: 'create',
          askedAt,
          seen: false,
          read: undefined,
          note
        }
      }
    }
  }
}

async function create(
  projectId: string,
  prompt: string,
  api: AgentApi,
  deadline: number,
  context: FlowContext,
  conversation: Conversation
): Promise<JobInHand> {
  const { log } = context.host
  await conversation.asking('create', undefined, context.clock.now())
  return log.group(`Create an agent job in project ${projectId}`, async () => {
    const created = await conversation.trackRefusal(api.create(projectId, prompt, deadline))
    log.info(`Created agent job ${created.id} in project ${projectId}.`)
    return { projectId, jobId: created.id, answer: created }
  })
}
