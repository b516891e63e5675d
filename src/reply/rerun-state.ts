/**
 * What a rerun of a comment's workflow run must know of an earlier attempt, in one place: the
 * state a run's reply carries in its hidden marker (which workflow run, step and command it
 * answers, what the run asked of the service, how far that got), how each step of the run changes
 * it and when the change must be on GitHub (a request that creates something waits for its
 * marker), and what a rerun does with what an earlier attempt left (carryOn for the agent,
 * carryOnTrigger for the other operations). RunReply writes and finds the reply. Pure.
 */
import { REPLY_MARKER } from '../github/markers.js'
import { isPlainSegment } from '../common/path-segment.js'

/**
 * A job as a marker names it: `projectId` is the scope its id belongs to (the project; for an
 * export, the domain exported), checked against the run's own before a rerun follows it.
 */
export interface RecordedJob {
  projectId: string
  jobId: string
}

/**
 * What the run asked of the service: the agent's `message`, `create` and `read`; `trigger` for a
 * deployment, a preview or an automation; `start` for an export.
 */
export type Asked = AgentAsked | 'trigger' | 'start'
/** What an agent run asks of the service. */
export type AgentAsked = 'message' | 'create' | 'read'
/** The requests that the service may act on twice, which a rerun must never send again blindly. */
export type OnceOnly = Exclude<Asked, 'read'>

export interface ReplyState {
  /** GITHUB_RUN_ID: the same for every attempt of one workflow run. */
  run: string
  /**
   * The step of the workflow run (GITHUB_JOB and GITHUB_ACTION, the same on every attempt): two
   * steps of the action answering one comment keep a reply each.
   */
  step?: string | undefined
  /** The command's comment id, or its review's (`review`). */
  comment: number
  review?: boolean | undefined
  /** What the run asked of the service, once it did. */
  asked?: Asked | undefined
  /**
   * `pending`: asked, and no clear answer (yet): the request may have been processed (`job` is the
   * job a message went to); `answered`: the service answered and `job` is the job; `refused`: the
   * service surely did not act on it.
   */
  outcome?: 'pending' | 'answered' | 'refused' | undefined
  job?: RecordedJob | undefined
  /** Clock time the service was asked. */
  at?: number | undefined
  /** The job has shown that it took up the message (a non-terminal status since). */
  seen?: boolean | undefined
}

const PREFIX = '<!-- docs-admin-action:reply '
const ASKED: ReadonlySet<string> = new Set(['message', 'create', 'read', 'trigger', 'start'])

export function formatReplyMarker(state: ReplyState): string {
  const fields: Array<[string, string | number | undefined]> = [
    ['run', state.run === '' ? undefined : state.run],
    ['step', state.step],
    [state.review === true ? 'review' : 'comment', state.comment],
    ['asked', state.asked],
    ['outcome', state.outcome],
    ['at', state.at === undefined ? undefined : Math.round(state.at)],
    ['seen', state.seen === true ? 1 : undefined],
    ['project', state.job?.projectId],
    ['job', state.job?.jobId]
  ]
  const text = fields
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))} `)
    .join('')
  return `${PREFIX}${text}-->\n`
}

/** The state a reply's marker holds; undefined for a body without one, or one that does not read. */
export function readReplyMarker(body: string): ReplyState | undefined {
  const match = REPLY_MARKER.exec(body)
  if (match === null) return undefined
  const fields = new Map<string, string>()
  try {
    for (const pair of (match[1] ?? '').trim().split(' ')) {
      const at = pair.indexOf('=')
      fields.set(pair.slice(0, at), decodeURIComponent(pair.slice(at + 1)))
    }
  } catch {
    return undefined
  }
  const review = fields.has('review')
  const comment = Number(fields.get(review ? 'review' : 'comment'))
  if (!Number.isSafeInteger(comment)) return undefined
  const asked = fields.get('asked')
  const outcome = fields.get('outcome')
  const at = Number(fields.get('at'))
  const projectId = fields.get('project')
  const jobId = fields.get('job')
  const job =
    projectId !== undefined && jobId !== undefined && isPlainSegment(projectId) && isPlainSegment(jobId)
      ? { projectId, jobId }
      : undefined
  return {
    run: fields.get('run') ?? '',
    step: fields.get('step'),
    comment,
    review: review || undefined,
    asked: asked !== undefined && ASKED.has(asked) ? (asked as Asked) : undefined,
    outcome: outcome === 'pending' || outcome === 'answered' || outcome === 'refused' ? outcome : undefined,
    at: Number.isFinite(at) && fields.has('at') ? at : undefined,
    job,
    seen: fields.get('seen') === '1' ? true : undefined
  }
}

/** A step of a run that changes what its reply's marker says. */
export type RerunEvent =
  /** A request that creates something (a message, a job, a deployment) is about to go to the service. */
  | { kind: 'asking'; asked: OnceOnly; job: RecordedJob | undefined; at: number }
  /** The service surely did not act on it (a refusal, a request never sent): a rerun may ask again. */
  | { kind: 'refused' }
  /** The service answered: `job` is the job; `seen`, a message's job showed it took the message up. */
  | { kind: 'answered'; asked: Asked; at: number; job: RecordedJob; seen: boolean }
  /** The job showed that it took up the message (a status that is no end, since the message). */
  | { kind: 'took-up' }

/**
 * When the marker of a step must be on GitHub: `before-asking`, written (retried) before the
 * request goes out, which is not sent when it cannot be (a rerun that found no such marker would
 * send it again); `with-the-next-edit`, carried by the reply's next edit, best-effort.
 */
export type MarkerWrite = 'before-asking' | 'with-the-next-edit'

/** The state after `event`, and when its marker must be written. */
export function advance(state: ReplyState, event: RerunEvent): { state: ReplyState; write: MarkerWrite } {
  switch (event.kind) {
    case 'asking':
      return {
        state: { ...state, asked: event.asked, at: event.at, job: event.job, outcome: 'pending', seen: undefined },
        write: 'before-asking'
      }
    case 'refused':
      return { state: { ...state, outcome: 'refused' }, write: 'with-the-next-edit' }
    case 'answered':
      return {
        state: {
          ...state,
          outcome: 'answered',
          asked: event.asked,
          at: event.at,
          job: event.job,
          seen: event.seen || undefined
        },
        write: 'with-the-next-edit'
      }
    case 'took-up':
      return { state: { ...state, seen: true }, write: 'with-the-next-edit' }
  }
}

/** What an earlier attempt asked of a job this rerun follows instead of asking again, and when. */
export interface Resumed {
  asked: AgentAsked
  at: number | undefined
  /** The job showed already that it took up the message. */
  seen: boolean
  /** The service answered the request (false: it may or may not have been processed). */
  answered: boolean
}

/**
 * What a rerun does after an earlier attempt (`earlier`, its reply's marker; undefined when there
 * is none): `ask`, as if new (nothing was asked, the service surely refused, or only a read was
 * asked); `follow` the job the service answered with, or the job a message with no clear answer
 * went to; `refuse` to ask again when a create or a message may have been processed and its job
 * cannot be followed from here (no clear answer to a create, an id the marker cannot hold, a job
 * of another project than `projectId`), with the message that says so.
 */
export type RerunDecision =
  { kind: 'ask' } | { kind: 'follow'; job: RecordedJob; resumed: Resumed } | { kind: 'refuse'; message: string }

export function carryOn(earlier: ReplyState | undefined, projectId: string): RerunDecision {
  if (earlier?.asked === undefined || earlier.outcome === undefined || earlier.outcome === 'refused')
    return { kind: 'ask' }
  const { job, asked, at, outcome, seen } = earlier
  if (asked === 'trigger' || asked === 'start') return { kind: 'refuse', message: OTHER_STEP }
  if (job !== undefined && job.projectId === projectId && (outcome === 'answered' || asked === 'message'))
    return { kind: 'follow', job, resumed: { asked, at, seen: seen === true, answered: outcome === 'answered' } }
  if (asked === 'read') return { kind: 'ask' }
  const elsewhere =
    job !== undefined && job.projectId !== projectId
      ? ` (agent job ${job.jobId} of project ${job.projectId}, not this workflow's \`project-id\`)`
      : ''
  if (asked === 'create') {
    return {
      kind: 'refuse',
      message:
        outcome === 'pending'
          ? 'An earlier attempt of this workflow run may have asked the service to create an agent job (it got no ' +
            'clear answer, or stopped before asking), so the job may exist: this rerun does not create another. ' +
            "Look for it on the service's dashboard, or comment the command again to create a new job."
          : `An earlier attempt of this workflow run created an agent job${elsewhere} that this rerun cannot ` +
            `follow, so it does not create another. Look for it on the service's dashboard, or comment the command ` +
            `again to create a new job.`
    }
  }
  return {
    kind: 'refuse',
    message:
      `An earlier attempt of this workflow run sent the message to an agent job${elsewhere} that this rerun cannot ` +
      `follow, so it does not send it again. Check the job with \`operation: agent-status\`, or comment the ` +
      `command again to send the message anew.`
  }
}

/** A marker of another operation where this step's was expected: the workflow changed between attempts. */
const OTHER_STEP =
  'An earlier attempt of this workflow run asked the docs service for something else in this step (the ' +
  'workflow may have changed since), so this rerun asks nothing. Comment the command again to start afresh.'

/** How an operation other than the agent's names its once-only request, for a rerun's refusal. */
export interface TriggerWords {
  /** `trigger a deployment of project proj_docs`. */
  request: string
  /** What the user does instead: `find its status id on the dashboard and follow it with ...`. */
  instead: string
}

/** What a rerun of an operation other than the agent's does (see carryOnTrigger). */
export type TriggerDecision =
  { kind: 'ask' } | { kind: 'follow'; job: RecordedJob } | { kind: 'refuse'; message: string }

/**
 * What a rerun of a deployment, a preview, an automation or an export does after the earlier
 * attempt `earlier`: `ask` as if new (nothing was asked, or the service surely did not act on it);
 * `follow` the job the service answered with; `refuse` when the request may have been processed
 * and its job is not known here (no clear answer), or is of another scope than `scope`.
 */
export function carryOnTrigger(
  earlier: ReplyState | undefined,
  asked: 'trigger' | 'start',
  scope: string,
  words: TriggerWords
): TriggerDecision {
  if (earlier?.asked === undefined || earlier.outcome === undefined || earlier.outcome === 'refused')
    return { kind: 'ask' }
  if (earlier.asked !== asked) return { kind: 'refuse', message: OTHER_STEP }
  const { job, outcome } = earlier
  if (outcome === 'answered' && job !== undefined && job.projectId === scope) return { kind: 'follow', job }
  const why =
    outcome === 'pending'
      ? 'may have asked the service to ' + words.request + ' (it got no clear answer, or stopped before asking)'
      : `asked the service to ${words.request}, for ${job?.projectId ?? 'another scope'} (not this step's)`
  return {
    kind: 'refuse',
    message:
      `An earlier attempt of this workflow run ${why}, so this rerun does not ask again: ${words.instead} ` +
      'Or comment the command again to start afresh.'
  }
}

/**
 * The refusal of a rerun that cannot know what an earlier attempt sent: on a comment, without a
 * reply whose marker would say (`comment-reply: false`, or a comment the action does not reply
 * to), a once-only request is never sent on a second attempt.
 */
export function unaccountedRerun(request: string, why: string): string {
  return (
    `This is a rerun of a workflow run started by a comment, and ${why}, so nothing tells whether an earlier ` +
    `attempt already asked the service to ${request}: this rerun does not ask. Comment the command again to ` +
    'start afresh.'
  )
}
