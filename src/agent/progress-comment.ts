/**
 * The acknowledgement and the one progress comment of a comment-triggered run: 👀 on the command at
 * once, then one reply, posted when the service accepts the request and edited in place as the
 * job moves on. A run never posts a second reply, even when the first may have failed half-way.
 *
 * The reply starts with a hidden marker that names the command it answers and, once known, the
 * job: a rerun of the workflow run (the same command again) finds it, edits it instead of posting
 * another, and follows that job instead of asking the service again (see resume()).
 */
import type { FlowContext } from '../action/context.js'
import type { GitHubApi, IssueComment, PostedComment, RepoRef } from '../action/host.js'
import { readGitHub, tryGitHub, tryGitHubWhenCancelled } from './github-calls.js'
import type { RecordedJob } from './job-record.js'
import { isPlainSegment } from '../service/client.js'
import type { OurComments } from './our-comments.js'
import type { TriggeringComment } from './trigger.js'

/** At the very start of a reply: the command's id, and the job once the service has answered. */
const REPLY_MARKER = /^<!-- docs-admin-action:reply comment=(\d+)(?: project=(\S+) job=(\S+))? -->\n/

export function replyMarker(commentId: number, job: RecordedJob | undefined): string {
  const reached = job === undefined ? '' : ` project=${encodeURIComponent(job.projectId)} job=${encodeURIComponent(job.jobId)}`
  return `<!-- docs-admin-action:reply comment=${commentId}${reached} -->\n`
}

export class ProgressComment {
  private tried = false
  private posted: PostedComment | undefined
  private shown: string | undefined
  /** The job the reply names in its marker, once the service has answered. */
  private job: RecordedJob | undefined

  private constructor(
    private readonly github: GitHubApi,
    private readonly comment: TriggeringComment & { repository: RepoRef },
    /** Where replies go: the issue or pull request. */
    private readonly number: number,
    private readonly context: FlowContext,
    private readonly ours: OurComments
  ) {}

  /** Undefined (after a warning) when the payload does not say where the comment is. */
  static open(github: GitHubApi, comment: TriggeringComment, context: FlowContext, ours: OurComments): ProgressComment | undefined {
    const { repository, subject } = comment
    if (repository === undefined || subject === undefined) {
      context.host.log.warning('The event payload does not name the repository and the issue or pull request: the comment gets no reaction and no reply.')
      return undefined
    }
    return new ProgressComment(github, { ...comment, repository }, subject.number, context, ours)
  }

  /**
   * On a rerun of the workflow run: the reply an earlier attempt posted to this command becomes
   * this run's reply, and the job it names (if the service had answered) is returned, so that it
   * is followed instead of being asked for again. Throws when the conversation cannot be read: a
   * guess could send the message twice or start a second job.
   */
  async resume(): Promise<RecordedJob | undefined> {
    const { repository, id, event, threadId } = this.comment
    const comments = await readGitHub(this.context, (signal) =>
      event === 'issue_comment' ? this.github.listIssueComments(repository, this.number, signal) : this.github.listReviewComments(repository, this.number, signal)
    )
    const ours = await this.ours.authors(comments, REPLY_MARKER, 'needed')
    const earlier = comments
      .filter((c: IssueComment) => ours(c.author) && (event === 'issue_comment' || c.inReplyTo === threadId) && REPLY_MARKER.exec(c.body)?.[1] === String(id))
      .at(-1)
    if (earlier === undefined) return undefined
    this.tried = true
    this.posted = { id: earlier.id, url: earlier.url }
    if (earlier.url !== undefined) this.context.outputs.set('comment-url', earlier.url)
    const match = REPLY_MARKER.exec(earlier.body)
    if (match?.[2] === undefined || match[3] === undefined) return undefined
    let job: RecordedJob
    try {
      job = { projectId: decodeURIComponent(match[2]), jobId: decodeURIComponent(match[3]) }
    } catch {
      return undefined
    }
    if (!isPlainSegment(job.projectId) || !isPlainSegment(job.jobId)) return undefined
    this.job = job
    return job
  }

  /** The job the reply names from now on. */
  reached(job: RecordedJob): void {
    this.job = job
  }

  async acknowledge(): Promise<void> {
    const { repository, id, event } = this.comment
    await tryGitHub(this.context, `react to comment ${id}`, (signal) =>
      event === 'issue_comment' ? this.github.reactToIssueComment(repository, id, 'eyes', signal) : this.github.reactToReviewComment(repository, id, 'eyes', signal)
    )
  }

  /**
   * After a cancellation: the reply, if there is one, is edited once more to `body`, so that it
   * does not say "working" for good. No reply is posted just for this.
   */
  async cancelled(text: string): Promise<void> {
    const posted = this.posted
    const body = this.marked(text)
    if (posted === undefined || body === this.shown) return
    this.shown = body
    const { repository, event } = this.comment
    await tryGitHubWhenCancelled(this.context, `update the reply ${posted.id}`, (signal) =>
      event === 'issue_comment'
        ? this.github.updateIssueComment(repository, posted.id, body, signal)
        : this.github.updateReviewComment(repository, posted.id, body, signal)
    )
  }

  /** Shows `text`: the first call posts the reply, later calls edit it. */
  async show(text: string): Promise<void> {
    const body = this.marked(text)
    if (body === this.shown) return
    this.shown = body
    const { repository, id, event, threadId } = this.comment
    if (!this.tried) {
      this.tried = true
      this.posted = await tryGitHub(this.context, `reply to comment ${id}`, (signal) =>
        event === 'issue_comment'
          ? this.github.createIssueComment(repository, this.number, body, signal)
          : this.github.replyToReviewComment(repository, this.number, threadId, body, signal)
      )
      if (this.posted?.url !== undefined) this.context.outputs.set('comment-url', this.posted.url)
      return
    }
    const posted = this.posted
    if (posted === undefined) return
    await tryGitHub(this.context, `update the reply ${posted.id}`, (signal) =>
      event === 'issue_comment'
        ? this.github.updateIssueComment(repository, posted.id, body, signal)
        : this.github.updateReviewComment(repository, posted.id, body, signal)
    )
  }

  private marked(text: string): string {
    return `${replyMarker(this.comment.id, this.job)}${text}`
  }
}
