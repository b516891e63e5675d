/**
 * What a rerun of a comment's workflow run must know of an earlier attempt, in one place: the
 * state a run's reply carries in its hidden marker (which workflow run and command it answers,
 * what the run asked of the service, how far that got), how each step of the run changes it and
 * when the change must be on GitHub (a request that creates something waits for its marker), and
 * what a rerun does with what an earlier attempt left (carryOn). ProgressComment writes and finds
 * the reply; runAgent asks carryOn. Pure.
 */
import { REPLY_MARKER } from '../github/markers.js'
import type { RecordedJob } from './job-record.js'
import { isPlainSegment } from '../common/path-segment.js'

export type Asked = 'message' | 'create' | 'read'

export interface ReplyState {
  /** GITHUB_RUN_ID: the same for every attempt of one workflow run. */
  run: string
  /** The command's comment id. */
  comment: number
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
const ASKED: ReadonlySet<string> = new Set(['message', 'create', 'read'])

export function formatReplyMarker(state: ReplyState): string {
  const fields: Array<[string, string | number | undefined]> = [
    ['run', state.run === '' ? undefined : state.run],
    ['comment', state.comment],
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
  const comment = Number(fields.get('comment'))
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
    comment,
    asked: asked !== undefined && ASKED.has(asked) ? (asked as Asked) : undefined,
    outcome: outcome === 'pending' || outcome === 'answered' || outcome === 'refused' ? outcome : undefined,
    at: Number.isFinite(at) && fields.has('at') ? at : undefined,
    job,
    seen: fields.get('seen') === '1' ? true : undefined
  }
}

/** A step of a run that changes what its reply's marker says. */
export type RerunEvent =
  /** A request that creates something (a message, a job) is about to go to the service. */
  | { kind: 'asking'; asked: 'message' | 'create'; job: RecordedJob | undefined; at: number }
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
  asked: Asked
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
