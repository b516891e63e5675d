/**
 * What every operation started by a comment shares, whatever it asks of the service: the run's one
 * reply (when it keeps one), and the rule that a rerun of the workflow run never sends a once-only
 * request again (a deployment's or a preview's trigger, an export's start, an agent job's create
 * or message). main.ts opens it once the comment passed the gate; each flow sends its once-only
 * request through it.
 */
import type { FlowContext } from '../action/context.js'
import type { Entrance } from '../gate/comment-gate.js'
import type { TriggeringComment } from '../gate/trigger.js'
import { OurComments } from '../github/our-comments.js'
import { ActionError, CancelledError } from '../common/errors.js'
import { ServiceError } from '../service/client.js'
import {
  type RecordedJob,
  type ReplyState,
  type TriggerWords,
  carryOnTrigger,
  unaccountedRerun
} from './rerun-state.js'
import { RunReply } from './run-reply.js'

export interface CommentRun {
  comment: TriggeringComment
  /** The reply kept up to date as the run goes on; undefined when the run keeps none. */
  reply: RunReply | undefined
  /** Why the run keeps no reply (for a rerun's refusal); undefined when it keeps one. */
  noReply: string | undefined
  /** This is a second (or later) attempt of the workflow run (GITHUB_RUN_ATTEMPT). */
  rerun: boolean
  /** The token's view of which comments are the action's, for the records a flow reads. */
  ours: OurComments | undefined
}

/**
 * The comment run of `entrance`, for a comment that passed the gate; undefined for a run that no
 * comment started. The reply (with `comment-reply`) gets its 👀 at once.
 */
export async function openCommentRun(
  entrance: Entrance,
  settings: { commentReply: boolean },
  context: FlowContext
): Promise<CommentRun | undefined> {
  const { comment } = entrance
  if (comment === undefined) return undefined
  const github = await entrance.github()
  const ours = github === undefined ? undefined : new OurComments(github, context)
  const reply =
    github !== undefined && ours !== undefined && settings.commentReply
      ? RunReply.open(github, comment, context, ours)
      : undefined
  reply?.acknowledge()
  const noReply =
    reply !== undefined
      ? undefined
      : !settings.commentReply
        ? '`comment-reply` is `false`'
        : `the action keeps no reply to a \`${comment.event}\` comment`
  return { comment, reply, noReply, rerun: Number(context.host.env('GITHUB_RUN_ATTEMPT') ?? '1') > 1, ours }
}

/**
 * What an earlier attempt of the workflow run left in the reply's marker: undefined on a first
 * attempt, or when no reply was found. Throws when a rerun cannot know (the reply is not kept, or
 * the conversation cannot be read), so that no once-only request goes out blindly; `request`
 * names it for the message.
 */
export async function earlierAttempt(run: CommentRun, request: string): Promise<ReplyState | undefined> {
  if (!run.rerun) return undefined
  if (run.reply === undefined) {
    throw new ActionError(unaccountedRerun(request, run.noReply ?? 'no reply of the action is kept'))
  }
  return run.reply.resume()
}

/** A once-only request of an operation other than the agent's, as sendOnce sends it. */
export interface OnceOnlyRequest<T> {
  asked: 'trigger' | 'start'
  /** The scope the job's id belongs to (the project; for an export, its domain). */
  scope: string
  words: TriggerWords
  /** What the reply says while the request is on its way (Markdown of ours). */
  asking: string
  send: () => Promise<T>
  /** The id of the job the service's answer names. */
  jobOf: (answer: T) => string
}

/** What sendOnce did: sent the request (the service's answer), or found the job an earlier attempt reached. */
export type OnceOnlyOutcome<T> = { kind: 'sent'; answer: T } | { kind: 'resumed'; job: RecordedJob; note: string }

/**
 * Sends `request` once per comment: on a rerun, the job the earlier attempt reached is followed
 * instead, and a request that may have been processed is not sent again (an ActionError says
 * so); else the reply's marker says that the request is on its way before it goes, and how it
 * ended after. Outside a comment run it is just sent.
 */
export async function sendOnce<T>(
  run: CommentRun | undefined,
  request: OnceOnlyRequest<T>,
  context: FlowContext
): Promise<OnceOnlyOutcome<T>> {
  if (run === undefined) return { kind: 'sent', answer: await request.send() }
  const earlier = await earlierAttempt(run, request.words.request)
  const decision = carryOnTrigger(earlier, request.asked, request.scope, request.words)
  if (decision.kind === 'refuse') throw new ActionError(decision.message)
  if (decision.kind === 'follow') {
    const note =
      `An earlier attempt of this workflow run asked the service to ${request.words.request}, and it answered ` +
      `with ${decision.job.jobId}: this attempt follows that instead of asking again.`
    context.host.log.info(note)
    context.report.notes.push(note)
    return { kind: 'resumed', job: decision.job, note }
  }
  const { reply } = run
  const at = context.clock.now()
  if (reply?.advance({ kind: 'asking', asked: request.asked, job: undefined, at }) === 'before-asking')
    await reply.record(request.asking)
  let answer: T
  try {
    answer = await request.send()
  } catch (error) {
    if (surelyNotTaken(error)) reply?.advance({ kind: 'refused' })
    throw error
  }
  const job = { projectId: request.scope, jobId: request.jobOf(answer) }
  reply?.advance({ kind: 'answered', asked: request.asked, at, job, seen: false })
  return { kind: 'sent', answer }
}

/**
 * Whether the service surely did not act on a request that failed with `error`: its own answer
 * says so (also behind the error that explains it), or it was never sent. A rerun may then ask again.
 */
export function surelyNotTaken(error: unknown): boolean {
  const answer = error instanceof ServiceError ? error : (error as { cause?: unknown } | undefined)?.cause
  if (answer instanceof ServiceError) return !answer.mayHaveBeenProcessed
  return error instanceof CancelledError && error.beforeSending
}
