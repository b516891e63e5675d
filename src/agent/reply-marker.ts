/**
 * The hidden marker at the start of a run's reply to a command: which workflow run and command it
 * answers, what the run asked of the service, and how far that got. A rerun of the workflow run
 * (the same command again) reads it back to carry on instead of asking again (see
 * ProgressComment.resume and runAgent). Pure.
 */
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
/** A reply marker at the very start of a comment (also what OurComments looks for). */
export const REPLY_MARKER = /^<!-- docs-admin-action:reply ((?:[a-z]+=\S+ )+)-->\n/
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
