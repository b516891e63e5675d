/**
 * The acknowledgement and the one progress comment of a comment-triggered run: 👀 on the command at
 * once, then one reply, posted as the request goes to the service and edited in place as the
 * job moves on. A run never posts a second reply, even when the first may have failed half-way.
 *
 * The reply starts with a hidden marker (reply-marker.ts) that names the workflow run and command
 * it answers and what was asked of the service: a rerun of the workflow run (the same command
 * again) finds it, edits it instead of posting another, and carries on from it (see resume()).
 */
import type { FlowContext } from '../action/context.js'
import type { GitHubApi, IssueComment, PostedComment, RepoRef } from '../action/host.js'
import { LISTING_TIMEOUT_MS, readGitHub, tryGitHub, tryGitHubWhenCancelled } from './github-calls.js'
import type { OurComments } from './our-comments.js'
import { REPLY_MARKER, type ReplyState, formatReplyMarker, readReplyMarker } from './reply-marker.js'
import type { TriggeringComment } from './trigger.js'

export class ProgressComment {
  private tried = false
  private posted: PostedComment | undefined
  private shown: string | undefined
  /** What the reply's marker says (see reply-marker.ts). */
  private state: ReplyState

  private constructor(
    private readonly github: GitHubApi,
    private readonly comment: TriggeringComment & { repository: RepoRef },
    /** Where replies go: the issue or pull request. */
    private readonly number: number,
    private readonly context: FlowContext,
    private readonly ours: OurComments
  ) {
    this.state = { run: context.host.env('GITHUB_RUN_ID') ?? '', comment: comment.id }
  }

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
   * this run's reply, and what its marker says of the earlier attempt is returned (undefined when
   * there is none). Throws when the conversation cannot be read: a guess could send the message
   * twice or start a second job. No second reply is posted in that case either.
   */
  async resume(): Promise<ReplyState | undefined> {
    const { repository, event, threadId } = this.comment
    // Until the earlier reply is known not to exist, this attempt posts none of its own.
    this.tried = true
    const comments = await readGitHub(
      this.context,
      (signal) =>
        event === 'issue_comment' ? this.github.listIssueComments(repository, this.number, signal) : this.github.listReviewComments(repository, this.number, signal),
      LISTING_TIMEOUT_MS
    )
    const ours = await this.ours.authors(comments, REPLY_MARKER, 'needed')
    // The same command of the same workflow run: another workflow answering it keeps its own reply.
    const answers = (comment: IssueComment): ReplyState | undefined => {
      if (!ours(comment.author) || (event !== 'issue_comment' && comment.inReplyTo !== threadId)) return undefined
      const state = readReplyMarker(comment.body)
      return state?.comment === this.state.comment && state.run === this.state.run ? state : undefined
    }
    const earlier = comments
      .flatMap((comment) => {
        const state = answers(comment)
        return state === undefined ? [] : [{ comment, state }]
      })
      .at(-1)
    if (earlier === undefined) {
      this.tried = false
      return undefined
    }
    this.adopt({ id: earlier.comment.id, url: earlier.comment.url })
    this.state = earlier.state
    return this.state
  }

  /** What the marker says from now on (what was asked, how far it got). */
  note(state: Omit<ReplyState, 'run' | 'comment'>): void {
    this.state = { ...this.state, ...state }
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
    await tryGitHubWhenCancelled(this.context, `update the reply ${posted.id}`, this.update(posted, body))
  }

  /** Shows `text`: the first call posts the reply, later calls edit it. */
  async show(text: string): Promise<void> {
    const body = this.marked(text)
    if (body === this.shown) return
    this.shown = body
    const { repository, id, event, threadId } = this.comment
    if (!this.tried) {
      this.tried = true
      const posted = await tryGitHub(this.context, `reply to comment ${id}`, (signal) =>
        event === 'issue_comment'
          ? this.github.createIssueComment(repository, this.number, body, signal)
          : this.github.replyToReviewComment(repository, this.number, threadId, body, signal)
      )
      if (posted !== undefined) this.adopt(posted)
      return
    }
    const posted = this.posted
    if (posted === undefined) return
    await tryGitHub(this.context, `update the reply ${posted.id}`, this.update(posted, body))
  }

  /** `posted` is this run's reply from now on. */
  private adopt(posted: PostedComment): void {
    this.posted = posted
    if (posted.url !== undefined) this.context.outputs.set('comment-url', posted.url)
  }

  /** The edit of the reply to `body`, in a conversation or a review thread. */
  private update(posted: PostedComment, body: string): (signal: AbortSignal) => Promise<void> {
    const { repository, event } = this.comment
    return (signal) =>
      event === 'issue_comment'
        ? this.github.updateIssueComment(repository, posted.id, body, signal)
        : this.github.updateReviewComment(repository, posted.id, body, signal)
  }

  private marked(text: string): string {
    return `${formatReplyMarker(this.state)}${text}`
  }
}
